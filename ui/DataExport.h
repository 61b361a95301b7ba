#pragma once
// Exporting run data from the GUI: CSV (the CLI's metrics.csv schema, with the config, seed and
// the CLI command that reproduces the run as '#' comment lines), JSON, and final parameters as
// .npy. All writes are atomic; errors come back as messages naming the file.
#include <QString>
#include <QStringList>

#include <vector>

#include "RunStore.h"

namespace ade::ui {

struct XRange {
    double from = 0, to = 0;  // to <= from: everything
    bool contains(double x) const { return to <= from || (x >= from && x <= to); }
};

// The history of a run restricted to an x (iteration) range.
ade::MetricHistory historyInRange(const RunRecord& r, const XRange& range);
// The one-line command that reproduces a run from its JSON config file.
QString reproduceCommand(const RunRecord& r);
// One CSV per run, <dir>/<run>.csv; returns the files written.
QStringList exportRunsCsv(const std::vector<const RunRecord*>& runs, const QString& dir,
                          const XRange& range, QString* error);
// All runs in one JSON file: {format, runs: [{name, seed, config, command, columns, rows}]}.
bool exportRunsJson(const std::vector<const RunRecord*>& runs, const QString& file,
                    const XRange& range, QString* error);
// <dir>/<name>.npy for every final parameter of the run.
QStringList exportParamsNpy(const RunRecord& run, const QString& dir, QString* error);

}  // namespace ade::ui
