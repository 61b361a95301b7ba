// Conversions of core results to Python values (Convert.h).
#include "Convert.h"

#include "output/RunOutput.h"

namespace ade::python {

py::array_t<double> toArray(const Eigen::MatrixXd& m) {
    py::array_t<double> a({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
    auto v = a.mutable_unchecked<2>();
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            v(r, c) = m(r, c);
    return a;
}

py::dict toDict(const ParamSet& p) {
    py::dict d;
    for (std::size_t i = 0; i < p.size(); ++i)
        d[py::str(p.names[i])] = toArray(p.mats[i]);
    return d;
}

py::array_t<double> historyArray(const MetricHistory& h) {
    const auto rows = static_cast<py::ssize_t>(h.rows.size());
    const auto cols = static_cast<py::ssize_t>(h.columns.size());
    py::array_t<double> a({rows, cols});
    auto v = a.mutable_unchecked<2>();
    for (py::ssize_t r = 0; r < rows; ++r)
        for (py::ssize_t c = 0; c < cols; ++c)
            v(r, c) = c < static_cast<py::ssize_t>(h.rows[r].size()) ? h.rows[r][c] : NAN;
    return a;
}

py::dict configText(const Config& config) {
    py::dict d;
    const nlohmann::json values = config.toJson();
    for (const auto& [key, value] : values.items())
        d[py::str(key)] = value.is_string() ? value.get<std::string>() : value.dump();
    return d;
}

py::dict runDict(const std::string& name, const std::string& label, int seedIndex,
                 const Config& config, const RunResult& result, const std::string& summaryJson) {
    py::dict d;
    d["name"] = name;
    d["label"] = label;
    d["seed_index"] = seedIndex;
    d["seed"] = config.getInt("seed");
    d["experiment"] = config.experiment();
    d["status"] = toString(result.status);
    d["message"] = result.message;
    d["iterations_done"] = result.iterationsDone;
    d["seconds"] = result.seconds;
    d["iterations_per_second"] = result.iterationsPerSecond;
    d["stop"] = result.stop;
    d["columns"] = result.history.columns;
    d["data"] = historyArray(result.history);
    d["params"] = toDict(result.finalParams);
    d["initial_params"] = toDict(result.initialParams);
    py::list snapshots;
    for (const Snapshot& s : result.snapshots)
        snapshots.append(py::make_tuple(s.iteration, toDict(s.params)));
    d["snapshots"] = snapshots;
    d["summary"] = summaryJson;
    d["config"] = configText(config);
    return d;
}

py::dict runDict(const RunOutcome& o, const std::string& planName, const std::string& commandLine) {
    const std::string summary =
        jsonText(runSummary(o.run.name, planName, o.run.config, o.result, commandLine));
    return runDict(o.run.name, o.run.label, o.run.seedIndex, o.run.config, o.result, summary);
}

py::dict runDict(const SessionRun& run) {
    RunResult r;
    r.status = run.status;
    r.message = run.message;
    r.stop = run.stop;
    r.iterationsDone = run.iterationsDone;
    r.divergedAt = run.divergedAt;
    r.iterationsPerSecond = run.iterationsPerSecond;
    r.history = run.history;
    if (run.finalParams) r.finalParams = *run.finalParams;
    if (run.initialParams) r.initialParams = *run.initialParams;
    r.snapshots = run.snapshots;
    const std::string summary = jsonText(runSummary(run.name, "", run.config, r, ""));
    return runDict(run.name, run.group.empty() ? run.name : run.group, run.seedIndex, run.config, r,
                   summary);
}

py::list claimsList(const std::vector<ClaimSpec>& claims, const std::vector<RunOutcome>& outcomes) {
    const auto runs = claimRuns(outcomes);
    py::list out;
    for (const ClaimSpec& c : claims) {
        const ClaimResult r = evaluateClaim(c, runs);
        py::dict d;
        d["id"] = c.id;
        d["text"] = c.text;
        d["paper"] = c.paper;
        d["check"] = checkName(c.check);
        d["metric"] = c.metric;
        d["run"] = c.run;
        d["other"] = c.other;
        d["status"] = statusText(r.status);
        d["holds"] = r.status == ClaimStatus::Holds;
        d["measured"] = r.measured;
        d["value"] = r.value;
        d["sd"] = r.sd;
        d["lo"] = r.lo;
        d["hi"] = r.hi;
        d["seeds"] = r.seeds;
        d["detail"] = r.detail;
        out.append(d);
    }
    return out;
}

}  // namespace ade::python
