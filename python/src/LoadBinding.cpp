// LoadBinding.h.
#include "LoadBinding.h"

#include <fstream>
#include <sstream>

#include "Convert.h"
#include "RunBinding.h"
#include "io/Npy.h"
#include "output/Session.h"

namespace ade::python {

namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw FileError(file.string() + ": cannot read");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

py::array_t<double> toArray(const NamedArray& a) {
    std::vector<py::ssize_t> shape(a.shape.begin(), a.shape.end());
    py::array_t<double> out(shape);
    std::copy(a.values.begin(), a.values.end(), out.mutable_data());
    return out;
}

}  // namespace

py::dict loadRunFolder(const std::string& dirText) {
    const fs::path dir(dirText);
    nlohmann::json summary;
    try {
        summary = nlohmann::json::parse(readFile(dir / "summary.json"));
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument((dir / "summary.json").string() + ": " + e.what());
    }
    PlannedRun run;
    run.name = summary.value("name", dir.filename().string());
    run.label = run.name;
    std::vector<std::string> unknown;  // keys of another version: kept out, as sessions do
    if (summary.contains("config"))
        if (const auto error = run.config.apply(summary["config"], &unknown))
            throw std::invalid_argument((dir / "summary.json").string() + ": " + error->message);
    std::string error;
    auto outcome = readRunOutcome(dir, run, &error);
    if (!outcome) throw FileError(error);
    py::dict d = runDict(*outcome, summary.value("plan", ""), summary.value("command", ""));
    d["summary"] = summary.dump();
    py::dict params;
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir / "params", ec))
        if (e.path().extension() == ".npy") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        const auto array = decodeNpy(readFile(f), &error);
        if (!array) throw std::invalid_argument(f.string() + ": " + error);
        params[py::str(f.stem().string())] = toArray(*array);
    }
    d["params"] = params;
    return d;
}

py::dict loadSessionFile(const std::string& file) {
    const SessionReadResult read = readSessionFile(file);
    if (!read.session) throw std::invalid_argument(read.error);
    py::list runs;
    for (const SessionRun& r : read.session->runs)
        runs.append(runDict(r));
    py::dict d;
    d["preset"] = read.session->preset;
    d["runs"] = runs;
    d["warnings"] = read.warnings;
    return d;
}

py::list rankedTable(const std::vector<ConfigResult>& configs) {
    py::list table;
    int rank = 0;
    for (const ConfigResult& c : configs) {
        py::dict row;
        row["rank"] = ++rank;
        row["run"] = c.label;
        py::dict values;
        for (const auto& [k, v] : c.values)
            values[py::str(k)] = v;
        row["values"] = values;
        row["objective"] = c.mean;
        row["sd"] = c.sd;
        row["per_seed"] = c.perSeed;
        row["seeds"] = c.seedsDone;
        row["failed"] = c.seedsFailed;
        row["iterations"] = c.iterations;
        row["rung"] = c.rung;
        row["converged"] = c.seedsConverged;
        row["capped"] = c.seedsCapped;
        row["runs"] = c.runNames;
        table.append(row);
    }
    return table;
}

py::dict loadSweepFolder(const std::string& dir) {
    std::string error;
    const auto folder = readSweepFolder(dir, &error);
    if (!folder) throw std::invalid_argument(error);
    const Objective& objective = folder->design.objective;
    py::dict d;
    d["plan"] = folder->planName;
    d["metric"] = folder->finished.empty() ? objective.metric
                                           : objectiveMetric(objective, folder->finished.front());
    d["stat"] = objective.stat;
    d["lower_is_better"] = objective.lowerIsBetter;
    d["table"] = rankedTable(aggregateConfigs(folder->finished, objective));
    d["missing"] = folder->missing.size();
    d["failed"] = folder->failed.size();
    return d;
}

}  // namespace ade::python
