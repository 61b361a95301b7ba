#include "sweep/SweepResults.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <set>

#include "config/ParamSpec.h"
#include "base/ColorMaps.h"

namespace ade::ui {

namespace {

std::optional<double> toNumber(const std::string& s) {
    bool ok = false;
    const double v = QString::fromStdString(s).trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v)) return std::nullopt;
    return v;
}

QString csvField(QString s) {
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
        s.contains(QLatin1Char('\n')))
        return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) +
               QLatin1Char('"');
    return s;
}

}  // namespace

int SweepResults::best() const {
    // Core's ranking: only configs at the largest budget compare (successive halving's
    // survivor, never a config it stopped earlier with a value at a smaller budget).
    // Of an Optuna study, complete trials only (a trial only pruned has no final value).
    int bestIndex = -1;
    for (int i = 0; i < static_cast<int>(configs.size()); ++i) {
        if (!std::isfinite(configs[i].mean)) continue;
        if (optuna && configs[i].seedsDone <= configs[i].seedsPruned) continue;
        if (bestIndex < 0 || ade::configRanksBefore(configs[i], configs[bestIndex], lowerIsBetter))
            bestIndex = i;
    }
    return bestIndex;
}

QString SweepResults::trialState(int index) const {
    if (!optuna || index < 0 || index >= static_cast<int>(configs.size())) return {};
    const auto& c = configs[index];
    if (c.seedsDone > c.seedsPruned) return QObject::tr("complete");
    if (c.seedsPruned > 0) return QObject::tr("pruned at iteration %1").arg(c.doneMax);
    if (c.seedsFailed > 0) return QObject::tr("failed");
    const auto it = index < static_cast<int>(trialNames.size())
                        ? trialStates.find(trialNames[static_cast<std::size_t>(index)])
                        : trialStates.end();
    if (it != trialStates.end() && it->second == "WAITING") return QObject::tr("waiting");
    return QObject::tr("running");
}

int SweepResults::trialNumber(int index) const {
    if (!optuna || index < 0 || index >= static_cast<int>(trialNames.size())) return -1;
    const std::string& name = trialNames[static_cast<std::size_t>(index)];
    const auto us = name.rfind('_');
    bool ok = false;
    const int n = us == std::string::npos
                      ? -1
                      : QString::fromStdString(name.substr(us + 1)).toInt(&ok);
    return ok ? n : -1;
}

int SweepResults::stateRank(int index) const {
    if (!optuna || index < 0 || index >= static_cast<int>(configs.size())) return 0;
    const auto& c = configs[index];
    if (c.seedsDone > c.seedsPruned) return 0;
    if (c.seedsPruned > 0) return 1;
    if (c.seedsFailed > 0) return 2;
    return 3;
}

QString SweepResults::optunaState(int index) const {
    if (!optuna || index < 0 || index >= static_cast<int>(configs.size())) return {};
    if (index < static_cast<int>(trialNames.size())) {
        const auto it = trialStates.find(trialNames[static_cast<std::size_t>(index)]);
        if (it != trialStates.end()) return QString::fromStdString(it->second);
    }
    const char* const byRank[] = {"COMPLETE", "PRUNED", "FAIL", "RUNNING"};
    return QLatin1String(byRank[std::clamp(stateRank(index), 0, 3)]);
}

QString SweepResults::text(int index, const std::string& key) const {
    if (index < 0 || index >= static_cast<int>(configs.size())) return {};
    for (const auto& [k, v] : configs[index].values)
        if (k == key) return QString::fromStdString(v);
    return {};
}

std::optional<double> SweepResults::number(int index, const std::string& key) const {
    const QString t = text(index, key);
    if (t.isEmpty()) return std::nullopt;
    return toNumber(t.toStdString());
}

QString SweepResults::shortMetricLabel() const {
    return QStringLiteral("%1 (%2)").arg(metric, stat);
}

bool SweepResults::numeric(const std::string& key) const {
    for (int i = 0; i < static_cast<int>(configs.size()); ++i)
        if (!number(i, key)) return false;
    return !configs.empty();
}

QStringList SweepResults::distinct(const std::string& key) const {
    std::set<std::string> seen;
    QStringList out;
    for (int i = 0; i < static_cast<int>(configs.size()); ++i) {
        const QString t = text(i, key);
        if (!t.isEmpty() && seen.insert(t.toStdString()).second) out << t;
    }
    if (numeric(key))
        std::sort(out.begin(), out.end(),
                  [](const QString& a, const QString& b) { return a.toDouble() < b.toDouble(); });
    else
        out.sort();
    return out;
}

QString keyLabel(const std::string& key) {
    const ade::ParamSpec* s = ade::ParamRegistry::instance().find(key);
    if (!s || s->label.empty() || QString::fromStdString(s->label).compare(
                                      QString::fromStdString(key), Qt::CaseInsensitive) == 0)
        return QString::fromStdString(key);
    return QStringLiteral("%1 (%2)").arg(QString::fromStdString(s->label),
                                         QString::fromStdString(key));
}

QString keyHelp(const std::string& key) {
    const ade::ParamSpec* s = ade::ParamRegistry::instance().find(key);
    return s ? QString::fromStdString(s->help) : QString();
}

AxisChoice chooseAxis(const std::vector<double>& values, const QString& name) {
    AxisChoice c;
    if (values.empty()) return c;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    if (*lo <= 0) {
        c.note = QObject::tr("linear axis: %1 = %2 has no logarithm").arg(name, formatValue(*lo));
        return c;
    }
    c.log = *hi / *lo >= 10.0;
    return c;
}

QString meanSdText(const ade::ConfigResult& c) {
    if (!std::isfinite(c.mean)) return QStringLiteral("—");
    if (c.perSeed.size() <= 1 || !std::isfinite(c.sd)) return formatValue(c.mean);
    return QStringLiteral("%1 ± %2").arg(formatValue(c.mean), formatValue(c.sd));
}

namespace {

QString sweepCsvNumber(double v) {
    return std::isfinite(v) ? QString::number(v, 'g', 10) : QString();
}

// An Optuna study's trials: trial, value, state, params (and the ranked statistic).
QString studyCsv(const SweepResults& r) {
    const bool ranked = !r.metric.isEmpty() && r.metric != QLatin1String("value");
    QStringList header = {QStringLiteral("trial"), QStringLiteral("value"), QStringLiteral("state")};
    for (const auto& k : r.keys)
        header << csvField(QString::fromStdString(k));
    if (ranked) header << csvField(QStringLiteral("%1_%2").arg(r.metric, r.stat));
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    std::vector<int> order(r.configs.size());
    for (int i = 0; i < static_cast<int>(order.size()); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&r](int a, int b) { return r.trialNumber(a) < r.trialNumber(b); });
    for (int i : order) {
        const int n = r.trialNumber(i);
        QStringList row = {n >= 0 ? QString::number(n) : QString(),
                           sweepCsvNumber(i < static_cast<int>(r.trialValues.size())
                                              ? r.trialValues[static_cast<std::size_t>(i)]
                                              : NAN),
                           r.optunaState(i)};
        for (const auto& k : r.keys)
            row << csvField(r.text(i, k));
        if (ranked) row << sweepCsvNumber(r.configs[static_cast<std::size_t>(i)].mean);
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

}  // namespace

QString resultsCsv(const SweepResults& r) {
    if (r.optuna) return studyCsv(r);
    QStringList header;
    for (const auto& k : r.keys)
        header << csvField(QString::fromStdString(k));
    header << QStringLiteral("label") << QStringLiteral("mean") << QStringLiteral("sd")
           << QStringLiteral("seeds_done") << QStringLiteral("seeds_failed")
           << QStringLiteral("iterations") << QStringLiteral("rung") << QStringLiteral("runs");
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    auto num = [](double v) {
        return std::isfinite(v) ? QString::number(v, 'g', 10) : QStringLiteral("nan");
    };
    for (int i = 0; i < static_cast<int>(r.configs.size()); ++i) {
        const auto& c = r.configs[i];
        QStringList row;
        for (const auto& k : r.keys)
            row << csvField(r.text(i, k));
        QStringList runs;
        for (const auto& n : c.runNames)
            runs << QString::fromStdString(n);
        row << csvField(QString::fromStdString(c.label)) << num(c.mean) << num(c.sd)
            << QString::number(c.seedsDone) << QString::number(c.seedsFailed)
            << QString::number(c.iterations) << QString::number(c.rung)
            << csvField(runs.join(QLatin1Char(' ')));
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

}  // namespace ade::ui
