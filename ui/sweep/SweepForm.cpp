#include "sweep/SweepForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QThread>

#include <algorithm>
#include <cmath>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "base/ColorMaps.h"
#include "sweep/SweepResults.h"

namespace ade::ui {

namespace {

const char* const kPlaceholder[] = {"values, e.g. 0, 0.1, 1", "from, to, count, e.g. 0, 1, 5",
                                    "from, to, count, e.g. 1e-3, 1e-1, 5",
                                    "low, high, e.g. 1e-4, 1e-1"};

QString valueText(double v) {
    return QString::number(v, 'g', 6);
}

}  // namespace

SweepForm::SweepForm(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sweepForm"));
    auto* grid = grid_ = new QGridLayout;
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(4);
    for (int r = 0; r < kAxes; ++r) {
        Row& row = rows_[r];
        row.key = new QComboBox(this);
        row.key->setObjectName(QStringLiteral("sweepKey%1").arg(r));
        row.key->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        row.key->setMinimumContentsLength(14);
        row.key->setToolTip(tr("Key %1 to vary. Only the knobs of this experiment that the "
                               "current settings use are offered.")
                                .arg(r + 1));
        row.kind = new QComboBox(this);
        row.kind->setObjectName(QStringLiteral("sweepKind%1").arg(r));
        row.kind->addItems({tr("List"), tr("Linear range"), tr("Log range"), tr("Random")});
        row.kind->setToolTip(
            tr("List: the values given. Linear / Log range: count values from .. to, evenly "
               "spaced (in log for Log). Random: the sweep's samples drawn between low and high "
               "(log-uniform for log-scale knobs or when high / low >= 100)."));
        row.values = new QLineEdit(this);
        row.values->setObjectName(QStringLiteral("sweepValues%1").arg(r));
        row.values->setClearButtonEnabled(true);
        auto* label = row.label = new QLabel(r == 0 ? tr("Vary") : tr("and"), this);
        grid->addWidget(label, r, 0);
        grid->addWidget(row.key, r, 1);
        grid->addWidget(row.kind, r, 2);
        grid->addWidget(row.values, r, 3, 1, 5);
        connect(row.key, &QComboBox::currentIndexChanged, this, [this, r] {
            if (!filling_) onKeyChosen(r);
            updateRowVisibility();
            emit changed();
        });
        connect(row.kind, &QComboBox::currentIndexChanged, this, [this, r] {
            updateKind(r);
            emit changed();
        });
        connect(row.values, &QLineEdit::textChanged, this, &SweepForm::changed);
    }
    grid->setColumnStretch(3, 1);

    auto* second = new QHBoxLayout;
    seeds_ = new QSpinBox(this);
    seeds_->setObjectName(QStringLiteral("sweepSeeds"));
    seeds_->setRange(1, 64);
    seeds_->setValue(2);
    seeds_->setToolTip(tr("Seeds per config (seed, seed + 1, …): the table and the views show "
                          "the mean ± sd over them."));
    samples_ = new QSpinBox(this);
    samples_->setObjectName(QStringLiteral("sweepSamples"));
    samples_->setRange(1, 4096);
    samples_->setValue(16);
    samples_->setToolTip(tr("Random search: how many configs to draw (every Random key is drawn "
                            "once per sample)."));
    metric_ = new QComboBox(this);
    metric_->setObjectName(QStringLiteral("sweepMetric"));
    metric_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    metric_->setMinimumContentsLength(12);
    metric_->setToolTip(tr("The metric configs are ranked by (default: the experiment's headline "
                           "metric)."));
    stat_ = new QComboBox(this);
    stat_->setObjectName(QStringLiteral("sweepStat"));
    stat_->addItem(tr("floor"), QStringLiteral("floor"));
    stat_->addItem(tr("final"), QStringLiteral("final"));
    stat_->addItem(tr("best"), QStringLiteral("best"));
    stat_->setToolTip(tr("floor: mean of the last 10% of records (robust to noise); final: the "
                         "last record; best: the best record of the run."));
    direction_ = new QComboBox(this);
    direction_->setObjectName(QStringLiteral("sweepDirection"));
    direction_->addItems({tr("lower is better"), tr("higher is better")});
    direction_->setToolTip(tr("Which way the objective ranks configs: the best config is "
                              "marked in every view and sorts first in the table."));
    auto* seedsLabel = new QLabel(tr("Seeds"), this);
    second->addWidget(seedsLabel);
    second->addWidget(seeds_);
    auto* samplesLabel = new QLabel(tr("Samples"), this);
    samplesLabel->setToolTip(samples_->toolTip());
    second->addWidget(samplesLabel);
    second->addWidget(samples_);
    second->addSpacing(8);
    second->addWidget(new QLabel(tr("Rank by"), this));
    second->addWidget(metric_, 1);
    second->addWidget(stat_);
    second->addWidget(direction_);

    auto* third = new QHBoxLayout;
    halving_ = new QCheckBox(tr("Successive halving"), this);
    halving_->setObjectName(QStringLiteral("sweepHalving"));
    halving_->setToolTip(tr("Start every config with a small budget, keep the best 1/eta (mean "
                            "over seeds), give them eta times the budget, until the full "
                            "iterations: a large search finishes in a fraction of the time."));
    eta_ = new QSpinBox(this);
    eta_->setObjectName(QStringLiteral("sweepEta"));
    eta_->setRange(2, 8);
    eta_->setValue(3);
    eta_->setPrefix(tr("eta "));
    eta_->setToolTip(tr("Keep the best 1/eta of the configs at each rung; the budget grows by "
                        "eta."));
    minIterations_ = new QSpinBox(this);
    minIterations_->setObjectName(QStringLiteral("sweepMinIterations"));
    minIterations_->setRange(0, 100000000);
    minIterations_->setSingleStep(100);
    minIterations_->setSpecialValueText(tr("auto"));
    minIterations_->setPrefix(tr("first rung "));
    minIterations_->setToolTip(tr("Iterations of the first rung; auto: iterations / eta^(rungs−1) "
                                  "with at least 100."));
    jobs_ = new QSpinBox(this);
    jobs_->setObjectName(QStringLiteral("sweepJobs"));
    jobs_->setRange(1, 64);
    jobs_->setValue(std::max(1, QThread::idealThreadCount()));
    jobs_->setToolTip(tr("Runs in parallel (worker threads)."));
    third->addWidget(halving_);
    third->addWidget(eta_);
    third->addWidget(minIterations_);
    third->addSpacing(8);
    auto* jobsLabel = new QLabel(tr("Parallel"), this);
    third->addWidget(jobsLabel);
    third->addWidget(jobs_);
    third->addStretch(1);
    second->addSpacing(8);
    connect(halving_, &QCheckBox::toggled, this, [this](bool on) {
        eta_->setEnabled(on);
        minIterations_->setEnabled(on);
        emit changed();
    });
    eta_->setEnabled(false);
    minIterations_->setEnabled(false);

    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(4);
    lay->addLayout(grid);
    lay->addLayout(second);
    lay->addLayout(third);
    for (int r = 0; r < kAxes; ++r)
        updateKind(r);
    updateRowVisibility();
    setBaseConfig(ade::Config());
    designOnly_ = {seedsLabel, seeds_, samplesLabel, samples_, halving_, eta_, minIterations_,
                   jobsLabel, jobs_};
    for (QComboBox* box : {metric_, stat_, direction_})
        connect(box, &QComboBox::activated, this, &SweepForm::objectiveChanged);
}

void SweepForm::showStudy(const std::vector<std::pair<QString, QString>>& metrics,
                          bool lowerIsBetter) {
    {
        const QSignalBlocker block(metric_);
        metric_->clear();
        for (const auto& [column, label] : metrics)
            metric_->addItem(label, column);
        metric_->setCurrentIndex(0);
    }
    stat_->setCurrentIndex(stat_->findData(QStringLiteral("final")));
    direction_->setCurrentIndex(lowerIsBetter ? 0 : 1);
    metric_->setToolTip(tr("What the study's trials are ranked by: the trial's value (its "
                           "objective), or a statistic of the values its trials reported."));
    if (study_) return;
    study_ = true;
    for (Row& r : rows_)
        for (QWidget* w : {static_cast<QWidget*>(r.label), static_cast<QWidget*>(r.key),
                           static_cast<QWidget*>(r.kind), static_cast<QWidget*>(r.values)})
            w->hide();
    for (QWidget* w : designOnly_)
        w->hide();
    // The buttons in one row (a study has no design to stand beside).
    int column = 8;
    for (QWidget* w : {run_, openFolder_, openStudy_})
        if (w) {
            grid_->removeWidget(w);
            grid_->addWidget(w, 0, column++);
        }
}

void SweepForm::showDesign() {
    if (!study_) return;
    study_ = false;
    for (Row& r : rows_)
        for (QWidget* w : {static_cast<QWidget*>(r.label), static_cast<QWidget*>(r.key),
                           static_cast<QWidget*>(r.kind), static_cast<QWidget*>(r.values)})
            w->show();
    for (QWidget* w : designOnly_)
        w->show();
    int row = 0;
    for (QWidget* w : {run_, openFolder_, openStudy_})
        if (w) {
            grid_->removeWidget(w);
            grid_->addWidget(w, row++, 8);
        }
    updateRowVisibility();
    metric_->setToolTip(tr("The metric configs are ranked by (default: the experiment's headline "
                           "metric)."));
    fillMetrics();  // the experiment's metrics again, its headline first
}

QString SweepForm::stat() const {
    return stat_->currentData().toString();
}

bool SweepForm::lowerIsBetter() const {
    return direction_->currentIndex() == 0;
}

void SweepForm::updateKind(int row) {
    Row& r = rows_[row];
    const int k = r.kind->currentIndex();
    r.values->setPlaceholderText(tr(kPlaceholder[std::clamp(k, 0, 3)]));
    r.values->setToolTip(tr("List: values separated by commas. Linear / Log range: from, to, "
                            "count. Random: low, high (the number of samples is set beside "
                            "Seeds). The text forms lin:0:1:5, log:1e-3:1e-1:5 and "
                            "rand:1e-4:1e-1 of the command line work too."));
    const bool none = r.key->currentData().toString().isEmpty();
    r.kind->setEnabled(!none);
    r.values->setEnabled(!none);
    bool random = false;
    for (const Row& x : rows_)
        random = random || (x.kind && x.kind->currentIndex() == Random &&
                            !x.key->currentData().toString().isEmpty());
    if (samples_) samples_->setEnabled(random);
}

void SweepForm::setBaseConfig(const ade::Config& config) {
    const bool newExperiment = config.experiment() != experiment_;
    base_ = config;
    experiment_ = config.experiment();
    fillKeys();
    if (newExperiment) {
        fillMetrics();
        if (rows_[0].key->currentData().toString().isEmpty() && rows_[0].key->count() > 1) {
            // A first key to start from: the step size when the experiment has one.
            const int i = rows_[0].key->findData(QStringLiteral("lr"));
            rows_[0].key->setCurrentIndex(i >= 0 ? i : 1);
        }
    }
}

void SweepForm::fillKeys() {
    filling_ = true;
    const auto& registry = ade::ParamRegistry::instance();
    for (int r = 0; r < kAxes; ++r) {
        QComboBox* box = rows_[r].key;
        const QString before = box->currentData().toString();
        box->clear();
        box->addItem(r == 0 ? tr("(choose a key)") : tr("(none)"), QString());
        for (const auto& s : registry.all()) {
            if (s.key == "seed" || s.key == "experiment" || s.type == ade::ParamType::Text) continue;
            if (!s.appliesTo(experiment_) || !base_.isRelevant(s.key)) continue;
            const QString key = QString::fromStdString(s.key);
            box->addItem(keyLabel(s.key), key);
            box->setItemData(box->count() - 1,
                             QStringLiteral("%1\n%2").arg(QString::fromStdString(s.help),
                                                          QString::fromStdString(s.allowedText())),
                             Qt::ToolTipRole);
        }
        const int i = box->findData(before);
        box->setCurrentIndex(i >= 0 ? i : 0);
        if (i < 0 && !before.isEmpty()) rows_[r].values->clear();
        updateKind(r);
    }
    filling_ = false;
    updateRowVisibility();
}

void SweepForm::fillMetrics() {
    const QString before = metric_->currentData().toString();
    metric_->clear();
    for (const ade::MetricInfo& m : ade::metricsOf(experiment_))
        if (!m.chart.empty() && m.column != "step_size" && m.column != "reg_value") {
            metric_->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(m.label),
                                                           QString::fromStdString(m.column)),
                             QString::fromStdString(m.column));
            metric_->setItemData(metric_->count() - 1, QString::fromStdString(m.meaning),
                                 Qt::ToolTipRole);
        }
    const ade::ExperimentInfo* info = ade::findExperiment(experiment_);
    int i = info ? metric_->findData(QString::fromStdString(info->headlineMetric)) : -1;
    if (i < 0) i = metric_->findData(before);
    metric_->setCurrentIndex(std::max(0, i));
}

void SweepForm::onKeyChosen(int row) {
    Row& r = rows_[row];
    const std::string key = r.key->currentData().toString().toStdString();
    updateKind(row);
    if (key.empty()) return;
    const ade::ParamSpec* s = ade::ParamRegistry::instance().find(key);
    if (!s) return;
    QString text;
    Kind kind = List;
    if (s->type == ade::ParamType::Choice) {
        QStringList c;
        for (const auto& v : s->choices)
            c << QString::fromStdString(v);
        text = c.join(QStringLiteral(", "));
    } else if (s->type == ade::ParamType::Bool) {
        text = QStringLiteral("false, true");
    } else {
        const double v = base_.get(key).is_number() ? base_.get(key).get<double>() : 0.0;
        auto clamp = [s](double x) { return std::clamp(x, s->min, s->max); };
        if (s->type == ade::ParamType::Int) {
            QStringList c;
            for (double x : {v / 2, v, v * 2}) {
                const QString t = valueText(std::round(clamp(x)));
                if (!c.contains(t)) c << t;
            }
            text = c.join(QStringLiteral(", "));
        } else if (s->logScale && v > 0) {
            kind = Log;
            text = QStringLiteral("%1, %2, 5").arg(valueText(clamp(v / 10)), valueText(clamp(v * 10)));
        } else {
            kind = Linear;
            text = v != 0 ? QStringLiteral("%1, %2, 5").arg(valueText(clamp(v / 2)), valueText(clamp(v * 2)))
                          : QStringLiteral("%1, %2, 5").arg(valueText(s->min), valueText(clamp(1.0)));
        }
    }
    r.kind->setCurrentIndex(kind);
    r.values->setText(text);
}

void SweepForm::setAxis(int row, const std::string& key, Kind kind, const QString& values) {
    Row& r = rows_[row];
    const int i = r.key->findData(QString::fromStdString(key));
    filling_ = true;
    r.key->setCurrentIndex(std::max(0, i));
    filling_ = false;
    r.kind->setCurrentIndex(kind);
    r.values->setText(values);
    updateKind(row);
    updateRowVisibility();
}

void SweepForm::setPresetSweep(const ade::SweepSpec& sweep) {
    for (int r = 0; r < kAxes; ++r) {
        if (r < static_cast<int>(sweep.vary.size())) {
            QStringList v;
            for (const auto& s : sweep.vary[r].second)
                v << QString::fromStdString(s);
            setAxis(r, sweep.vary[r].first, List, v.join(QStringLiteral(", ")));
        } else {
            setAxis(r, "", List, {});
        }
    }
    seeds_->setValue(sweep.seeds);
    fitX_ = sweep.fitX;
    fitY_ = sweep.fitY;
    int i = metric_->findData(QString::fromStdString(sweep.fitY));
    if (i < 0 && !sweep.fitY.empty()) {
        metric_->addItem(QString::fromStdString(sweep.fitY), QString::fromStdString(sweep.fitY));
        i = metric_->count() - 1;
    }
    if (i >= 0) metric_->setCurrentIndex(i);
    stat_->setCurrentIndex(0);       // floor, as the scaling law is measured
    direction_->setCurrentIndex(0);  // lower is better
}

std::string SweepForm::axisText(int row) const {
    const Row& r = rows_[row];
    const QString text = r.values->text().trimmed();
    if (text.contains(QLatin1Char(':'))) return text.toStdString();  // lin:…, log:…, rand:…
    const QStringList parts =
        text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    switch (r.kind->currentIndex()) {
        case Linear:
            return QStringLiteral("lin:%1").arg(parts.join(QLatin1Char(':'))).toStdString();
        case Log:
            return QStringLiteral("log:%1").arg(parts.join(QLatin1Char(':'))).toStdString();
        case Random:
            return QStringLiteral("rand:%1").arg(parts.join(QLatin1Char(':'))).toStdString();
        default:
            return parts.join(QLatin1Char(',')).toStdString();
    }
}

std::optional<ade::SweepDesign> SweepForm::design(std::string* error) const {
    ade::SweepDesign d;
    std::vector<std::string> keys;
    for (int r = 0; r < kAxes; ++r) {
        const std::string key = rows_[r].key->currentData().toString().toStdString();
        if (key.empty()) continue;
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
            if (error) *error = key + " is chosen twice";
            return std::nullopt;
        }
        std::string err;
        auto axis = ade::parseAxis(axisText(r), &err, key);
        if (!axis) {
            if (error) *error = key + ": " + err;
            return std::nullopt;
        }
        keys.push_back(key);
        d.axes.push_back(*axis);
    }
    if (d.axes.empty()) {
        if (error) *error = "choose a key to vary";
        return std::nullopt;
    }
    d.seeds = seeds_->value();
    bool random = false;
    for (const auto& a : d.axes)
        random = random || a.kind == ade::AxisSpec::Kind::Random;
    d.samples = random ? samples_->value() : 0;
    d.objective.metric = metric_->currentData().toString().toStdString();
    d.objective.stat = stat_->currentData().toString().toStdString();
    d.objective.lowerIsBetter = direction_->currentIndex() == 0;
    d.halving.enabled = halving_->isChecked();
    d.halving.eta = eta_->value();
    d.halving.minIterations = minIterations_->value();
    if (!fitX_.empty() && keys.size() == 1 && keys.front() == fitX_ &&
        d.objective.metric == fitY_) {
        d.fitX = fitX_;
        d.fitY = fitY_;
    }
    return d;
}

void SweepForm::setActionButtons(QWidget* run, QWidget* openFolder, QWidget* openStudy) {
    run_ = run, openFolder_ = openFolder, openStudy_ = openStudy;
    grid_->addWidget(run, 0, 8);
    grid_->addWidget(openFolder, 1, 8);
    if (openStudy) grid_->addWidget(openStudy, 2, 8);
}

void SweepForm::updateRowVisibility() {
    for (int r = 2; r < kAxes; ++r) {
        const bool show = !rows_[r - 1].key->currentData().toString().isEmpty() ||
                          !rows_[r].key->currentData().toString().isEmpty();
        for (QWidget* w : {static_cast<QWidget*>(rows_[r].label),
                           static_cast<QWidget*>(rows_[r].key), static_cast<QWidget*>(rows_[r].kind),
                           static_cast<QWidget*>(rows_[r].values)})
            w->setVisible(show);
    }
}

int SweepForm::jobs() const {
    return jobs_->value();
}

QStringList SweepForm::offeredKeys() const {
    QStringList out;
    for (int i = 1; i < rows_[0].key->count(); ++i)
        out << rows_[0].key->itemData(i).toString();
    return out;
}

QString SweepForm::metric() const {
    return metric_->currentData().toString();
}

}  // namespace ade::ui
