#include "experiments/ExperimentRegistry.h"

#include "config/ParamSpec.h"

namespace ade {

void registerCommonParams(ParamRegistry& r);

// The experiments, in menu order; the first one's default preset opens at first launch.
// Adding an experiment: its folder, and one line here.
ExperimentInfo experimentAInfo(), experimentBInfo(), experimentCInfo(), experimentDarcyInfo();
const std::vector<ExperimentInfo>& experiments() {
    static const std::vector<ExperimentInfo> list = {
        experimentAInfo(),
        experimentBInfo(),
        experimentCInfo(),
        experimentDarcyInfo(),
    };
    return list;
}

void registerAllParams(ParamRegistry& r) {
    registerCommonParams(r);
    for (const ExperimentInfo& e : experiments())
        if (e.registerParams) e.registerParams(r);
}

std::vector<MetricInfo> metricsOf(const std::string& experiment) {
    const ExperimentInfo* info = findExperiment(experiment);
    if (!info) return {};
    std::vector<MetricInfo> out = info->metrics;
    out.insert(out.end(), trainerMetrics().begin(), trainerMetrics().end());
    return out;
}

MetricInfo describeColumn(const std::string& experiment, const std::string& column) {
    if (const ExperimentInfo* info = findExperiment(experiment))
        for (const MetricInfo& m : info->metrics)
            if (m.column == column) return m;
    for (const MetricInfo& m : trainerMetrics())
        if (m.column == column) return m;
    // A column of another version or an unknown experiment: its name, in a chart of its own.
    return {column, column, column, "column:" + column, true, false,
            "A column this version has no description of."};
}

std::vector<ChartInfo> chartsOf(const std::string& experiment) {
    const ExperimentInfo* info = findExperiment(experiment);
    return info ? info->charts : std::vector<ChartInfo>{};
}

ChartInfo chartInfo(const std::string& id) {
    for (const ExperimentInfo& e : experiments())
        for (const ChartInfo& c : e.charts)
            if (c.id == id) return c;
    if (id.rfind("column:", 0) == 0) {
        const std::string column = id.substr(7);
        return {id, column, column, AxisScale::Linear, true};
    }
    return {id, id, id, AxisScale::Linear, true};
}

std::string defaultPresetName() {
    return experiments().empty() ? std::string() : experiments().front().defaultPreset;
}

const ExperimentInfo* findExperiment(const std::string& name) {
    for (const auto& e : experiments())
        if (e.name == name) return &e;
    return nullptr;
}

const LawInfo* findLaw(const std::string& experiment, const std::string& name) {
    if (const ExperimentInfo* info = findExperiment(experiment))
        for (const auto& l : info->laws)
            if (l.name == name) return &l;
    return nullptr;
}

std::unique_ptr<Problem> makeProblem(const Config& config, std::string* error) {
    const ExperimentInfo* info = findExperiment(config.experiment());
    if (!info) {
        if (error) *error = "unknown experiment '" + config.experiment() + "'";
        return nullptr;
    }
    return info->make(config, error);
}

std::vector<ConfigError> validateConfig(const Config& config) {
    std::vector<ConfigError> errors;
    if (const ExperimentInfo* info = findExperiment(config.experiment()); info && info->validate)
        info->validate(config, errors);
    if (config.getReal("stop_tol") > 0) {
        const std::string metric = config.getString("stop_metric");
        std::string names;
        bool known = false;
        for (const MetricInfo& m : metricsOf(config.experiment())) {
            known = known || m.column == metric;
            names += (names.empty() ? "" : ", ") + m.column;
        }
        if (!known && !names.empty())
            errors.push_back({"stop_metric", metric,
                              "stop_metric '" + metric + "' is not a metric of experiment " +
                                  config.experiment() + " (one of " + names + ")"});
    }
    return errors;
}

std::string experimentBrief(const Config& config) {
    const ExperimentInfo* info = findExperiment(config.experiment());
    return info && info->brief ? info->brief(config) : config.experiment();
}

std::unique_ptr<Trainer> makeTrainer(const Config& config, std::string* error,
                                     std::optional<ParamSet> initial) {
    const auto errors = validateConfig(config);
    if (!errors.empty()) {
        if (error) *error = errors.front().message;
        return nullptr;
    }
    auto problem = makeProblem(config, error);
    if (!problem) return nullptr;
    return std::make_unique<Trainer>(config, std::move(problem), std::move(initial));
}

}  // namespace ade
