#include "export/DataExport.h"

#include <QFileDialog>

#include <QDir>

#include "experiments/ExperimentRegistry.h"
#include "io/Files.h"
#include "io/Npy.h"
#include "output/RunOutput.h"

namespace ade::ui {

ade::MetricHistory historyInRange(const RunRecord& r, const XRange& range) {
    ade::MetricHistory h = r.history();
    if (range.to > range.from) {
        std::vector<std::vector<double>> kept;
        for (auto& row : h.rows)
            if (range.contains(row[0])) kept.push_back(std::move(row));
        h.rows = std::move(kept);
    }
    return h;
}

QString reproduceCommand(const RunRecord& r) {
    const QString file = QString::fromStdString(ade::safeName(r.name.toStdString())) + ".json";
    QString json = QString::fromStdString(r.config.toJson().dump());
    json.replace('\'', QStringLiteral("'\\''"));
    return QStringLiteral("echo '%1' > %2 && attention-explorer-cli run --config %2 --out out")
        .arg(json, file);
}

std::string groupCsv(const SeedGroup& group, const XRange& range) {
    GroupAggregate agg;
    agg.update(group.members);
    const RunRecord& mean = agg.mean();
    const std::string experiment = mean.config.experiment();
    ade::MetricHistory h;
    h.columns = {mean.columns.empty() ? std::string("iteration") : mean.columns.front(), "seeds"};
    std::string columns = h.columns[0] + ": " + ade::describeColumn(experiment, h.columns[0]).label +
                          "\nseeds: how many seeds reached this record (the statistics are "
                          "over those)";
    for (std::size_t c = 1; c < mean.columns.size(); ++c) {
        const std::string& name = mean.columns[c];
        const ade::MetricInfo m = ade::describeColumn(experiment, name);
        const std::string what = m.label + " [" + m.units + "]. " + m.meaning;
        for (const char* stat : {"mean", "sd", "min", "max"})
            h.columns.push_back(name + "_" + stat);
        columns += "\n" + name + "_mean: mean over seeds of " + what + "\n" + name +
                   "_sd: sample standard deviation (n - 1) over seeds of " + m.label + "\n" +
                   name + "_min, " + name + "_max: the lowest and highest seed's " + m.label;
    }
    for (std::size_t i = 0; i < mean.size(); ++i) {
        if (!range.contains(mean.data[0][i])) continue;
        std::vector<double> row = {mean.data[0][i], static_cast<double>(agg.seeds()[i])};
        for (std::size_t c = 1; c < mean.columns.size(); ++c) {
            const int k = static_cast<int>(c);
            for (double v : {mean.data[c][i], agg.sd(k)[i], agg.lo(k)[i], agg.hi(k)[i]})
                row.push_back(v);
        }
        h.rows.push_back(std::move(row));
    }
    std::string seeds, names;
    for (const RunRecord* r : group.members) {
        seeds += (seeds.empty() ? "" : ", ") + std::to_string(r->config.getInt("seed"));
        names += (names.empty() ? "" : ", ") + r->name.toStdString();
    }
    nlohmann::json config = mean.config.toJson();
    config.erase("seed");
    const std::string comment = "group " + group.label.toStdString() + ": mean, sd, min and max over " +
                                std::to_string(group.members.size()) + " seeds (seeds " + seeds +
                                "; runs " + names + ")\nconfig without its seed " + config.dump() +
                                "\ncolumns:\n" + columns;
    return ade::historyCsv(h, comment);
}

QStringList exportRunsCsv(const std::vector<const RunRecord*>& runs, const QString& dir,
                          const XRange& range, QString* error) {
    QStringList written;
    for (const SeedGroup& g : seedGroups(runs)) {
        if (!g.grouped()) continue;
        const QString path = QDir(dir).filePath(
            QString::fromStdString(ade::safeName(g.label.toStdString() + "_seeds")) + ".csv");
        std::string err;
        if (!ade::writeFileAtomic(path.toStdString(), groupCsv(g, range), &err)) {
            if (error) *error = QString::fromStdString(err);
            return written;
        }
        written << path;
    }
    for (const RunRecord* r : runs) {
        const QString path = QDir(dir).filePath(
            QString::fromStdString(ade::safeName(r->name.toStdString())) + ".csv");
        const std::string comment =
            "run " + r->name.toStdString() + ", seed " + std::to_string(r->config.getInt("seed")) +
            ", state " + stateText(r->state).toStdString() + "\nconfig " +
            r->config.toJson().dump() + "\nreproduce " + reproduceCommand(*r).toStdString() +
            "\ncolumns:\n" + ade::columnsComment(r->config.experiment(), r->columns);
        std::string err;
        if (!ade::writeFileAtomic(path.toStdString(),
                                  ade::historyCsv(historyInRange(*r, range), comment), &err)) {
            if (error) *error = QString::fromStdString(err);
            return written;
        }
        written << path;
    }
    return written;
}

bool exportRunsJson(const std::vector<const RunRecord*>& runs, const QString& file,
                    const XRange& range, QString* error) {
    nlohmann::json out;
    out["format"] = "attention-explorer-data";
    out["version"] = 1;
    out["runs"] = nlohmann::json::array();
    for (const RunRecord* r : runs) {
        const ade::MetricHistory h = historyInRange(*r, range);
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& row : h.rows) {
            nlohmann::json jr = nlohmann::json::array();
            for (double v : row)
                jr.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json());
            rows.push_back(std::move(jr));
        }
        out["runs"].push_back({{"name", r->name.toStdString()},
                               {"seed", r->config.getInt("seed")},
                               {"state", stateText(r->state).toStdString()},
                               {"config", r->config.toJson()},
                               {"command", reproduceCommand(*r).toStdString()},
                               {"columns", h.columns},
                               {"rows", std::move(rows)}});
    }
    std::string err;
    if (!ade::writeFileAtomic(file.toStdString(), out.dump(1) + "\n", &err)) {
        if (error) *error = QString::fromStdString(err);
        return false;
    }
    return true;
}

QStringList exportParamsNpy(const RunRecord& run, const QString& dir, QString* error) {
    QStringList written;
    if (!run.finalParams) {
        if (error) *error = QObject::tr("run %1 has no final parameters yet").arg(run.name);
        return written;
    }
    const ade::ParamSet& p = *run.finalParams;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const QString path =
            QDir(dir).filePath(QString::fromStdString(ade::safeName(p.names[i])) + ".npy");
        std::string err;
        if (!ade::writeFileAtomic(path.toStdString(),
                                  ade::encodeNpy(ade::toNamedArray(p.names[i], p[i])), &err)) {
            if (error) *error = QString::fromStdString(err);
            return written;
        }
        written << path;
    }
    return written;
}

bool exportRunCsvAs(QWidget* parent, const RunRecord& r, QString* error) {
    const QString file = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export metrics"),
        QString::fromStdString(ade::safeName(r.name.toStdString())) + QStringLiteral(".csv"),
        QObject::tr("CSV files (*.csv)"));
    if (file.isEmpty()) {
        if (error) error->clear();
        return false;
    }
    std::string err;
    const std::string csv = ade::historyCsv(
        r.history(), "config: " + r.config.toJson().dump() + "\ncolumns:\n" +
                         ade::columnsComment(r.config.experiment(), r.columns));
    if (ade::writeFileAtomic(file.toStdString(), csv, &err)) return true;
    if (error) *error = QString::fromStdString(err);
    return false;
}

}  // namespace ade::ui
