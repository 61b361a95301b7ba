#pragma once
// What the bindings hand to Python: a run as a dict of plain values and NumPy arrays, JSON as
// its text (the package parses it with json.loads), ParamSets as dicts of arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "claims/Claims.h"
#include "models/ParamSet.h"
#include "output/Session.h"
#include "plan/PlanRunner.h"

namespace ade::python {

namespace py = pybind11;

// A matrix as a (rows, cols) float64 array (C order), a copy.
py::array_t<double> toArray(const Eigen::MatrixXd& m);
// name -> array.
py::dict toDict(const ParamSet& p);
// The history as a (records, columns) float64 array.
py::array_t<double> historyArray(const MetricHistory& h);
// Every key of the config as the text `--set` takes ("a", "0.01", "true").
py::dict configText(const Config& config);

// A run for the package's Run class: name, label, seed_index, seed, status, message,
// iterations_done, seconds, iterations_per_second, stop, columns, data, params,
// initial_params, snapshots [(iteration, {name: array})], summary (JSON text), config.
// `summary` is what the CLI writes to the run folder's summary.json.
py::dict runDict(const std::string& name, const std::string& label, int seedIndex,
                 const Config& config, const RunResult& result, const std::string& summaryJson);
py::dict runDict(const RunOutcome& outcome, const std::string& planName,
                 const std::string& commandLine);
py::dict runDict(const SessionRun& run);

// Each claim of a plan evaluated over these outcomes, as the CLI's run command does: id, text,
// paper, check, metric, run, other, status ("holds", "does not hold", "pending",
// "unavailable"), holds, measured (the CLI's text), value, sd, lo, hi, seeds, detail.
py::list claimsList(const std::vector<ClaimSpec>& claims, const std::vector<RunOutcome>& outcomes);

// The JSON text of a value (the package parses it).
inline std::string jsonText(const nlohmann::json& j) {
    return j.dump();
}

}  // namespace ade::python
