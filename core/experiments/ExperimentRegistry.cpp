#include "experiments/ExperimentRegistry.h"

#include "config/ParamSpec.h"

namespace ade {

void registerCommonParams(ParamRegistry& r);
void registerExperimentAParams(ParamRegistry& r);
void registerExperimentBParams(ParamRegistry& r);
void registerExperimentCParams(ParamRegistry& r);
void registerExperimentDarcyParams(ParamRegistry& r);

void registerAllParams(ParamRegistry& r) {
    registerCommonParams(r);
    registerExperimentAParams(r);
    registerExperimentBParams(r);
    registerExperimentCParams(r);
    registerExperimentDarcyParams(r);
}

const std::vector<ExperimentInfo>& experiments() {
    static const std::vector<ExperimentInfo> list = {experimentAInfo(), experimentBInfo(),
                                                     experimentCInfo(), experimentDarcyInfo()};
    return list;
}

const ExperimentInfo* findExperiment(const std::string& name) {
    for (const auto& e : experiments())
        if (e.name == name) return &e;
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
