#pragma once
// Exporting run data from the GUI: CSV (the CLI's metrics.csv schema, with the config, seed and
// the CLI command that reproduces the run as '#' comment lines), JSON, and final parameters as
// .npy. All writes are atomic; errors come back as messages naming the file.
#include <QString>
#include <QStringList>

#include <vector>

class QWidget;

#include "runs/RunStore.h"
#include "runs/SeedGroups.h"

namespace ade::ui {

struct XRange {
    double from = 0, to = 0;  // to <= from: everything
    bool contains(double x) const { return to <= from || (x >= from && x <= to); }
};

// The history of a run restricted to an x (iteration) range.
ade::MetricHistory historyInRange(const RunRecord& r, const XRange& range);
// The one-line command that reproduces a run from its JSON config file.
QString reproduceCommand(const RunRecord& r);
// A group of seeds (SeedGroup, two or more) as one table: per record, the iteration, how many
// seeds reached it, then for each metric its mean, sd, min and max over those seeds
// (<column>_mean, _sd, _min, _max), restricted to an x range; after '#' comment lines naming
// the group, its seeds, its config without the seed and what each column means.
std::string groupCsv(const SeedGroup& group, const XRange& range);
// One CSV per run, <dir>/<run>.csv, and one per group of seeds among them,
// <dir>/<group>_seeds.csv (groupCsv); returns the files written.
QStringList exportRunsCsv(const std::vector<const RunRecord*>& runs, const QString& dir,
                          const XRange& range, QString* error);
// All runs in one JSON file: {format, runs: [{name, seed, config, command, columns, rows}]}.
bool exportRunsJson(const std::vector<const RunRecord*>& runs, const QString& file,
                    const XRange& range, QString* error);
// File > Export selected run as CSV…: asks for the file (under `parent`) and writes the run's
// records with its config and columns as '#' comments; false with `error` when it cannot be
// written ("" when the user cancelled).
bool exportRunCsvAs(QWidget* parent, const RunRecord& r, QString* error);
// <dir>/<name>.npy for every final parameter of the run.
QStringList exportParamsNpy(const RunRecord& run, const QString& dir, QString* error);

}  // namespace ade::ui
