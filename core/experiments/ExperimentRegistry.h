#pragma once
// The list of experiments. Adding one = one file with its Problem, its parameter registration
// and an ExperimentInfo, plus one line in ExperimentRegistry.cpp.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/Config.h"
#include "training/Problem.h"
#include "training/Trainer.h"

namespace ade {

struct ExperimentInfo {
    std::string name;   // value of the "experiment" key
    std::string title;  // human title
    std::function<std::unique_ptr<Problem>(const Config&, std::string* error)> make;
    // Cross-key checks beyond per-key ranges (e.g. rank <= min(d, k), memory estimate).
    std::function<void(const Config&, std::vector<ConfigError>&)> validate;
    // A few key parameters, for run lists and progress lines.
    std::function<std::string(const Config&)> brief;
};

const std::vector<ExperimentInfo>& experiments();
const ExperimentInfo* findExperiment(const std::string& name);

// Builds the problem for a validated config; nullptr with a message on failure.
std::unique_ptr<Problem> makeProblem(const Config& config, std::string* error);
// Cross-key checks beyond per-key ranges, by the config's experiment. Empty when valid.
std::vector<ConfigError> validateConfig(const Config& config);
// One-line text of a few key parameters, for run lists and progress lines.
std::string experimentBrief(const Config& config);

// Convenience: validate, build problem and trainer from a config (nullptr + message when
// invalid).
std::unique_ptr<Trainer> makeTrainer(const Config& config, std::string* error,
                                     std::optional<ParamSet> initial = std::nullopt);

// Per-experiment registration, defined in each experiment's file.
ExperimentInfo experimentAInfo();
ExperimentInfo experimentBInfo();
ExperimentInfo experimentCInfo();
ExperimentInfo experimentDarcyInfo();

}  // namespace ade
