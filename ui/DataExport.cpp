#include "DataExport.h"

#include <QDir>

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

QStringList exportRunsCsv(const std::vector<const RunRecord*>& runs, const QString& dir,
                          const XRange& range, QString* error) {
    QStringList written;
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

}  // namespace ade::ui
