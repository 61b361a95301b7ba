#pragma once
// attention_explorer.load(): what the CLI or the GUI wrote, read back through core's readers:
// a run folder (summary.json, metrics.csv, params/*.npy), a session file, a sweep folder.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "sweep/Sweep.h"

namespace ade::python {

namespace py = pybind11;

// A run folder as a run dict (Convert.h). Throws FileError when it cannot be read.
py::dict loadRunFolder(const std::string& dir);
// {preset, runs: [run dicts]} of a session file. Throws ValueError with the reader's message.
py::dict loadSessionFile(const std::string& file);
// {plan, metric, stat, lower_is_better, table, missing, failed} of a sweep folder: its ranked
// table as the CLI's `sweep collect` prints it.
py::dict loadSweepFolder(const std::string& dir);
// The ranked table of configs: one dict per config, best first (rank, run, values, objective,
// sd, per_seed, seeds, failed, iterations, rung, converged, capped, runs).
py::list rankedTable(const std::vector<ConfigResult>& configs);

}  // namespace ade::python
