#pragma once
// The list of experiments. An experiment is a plug-in: one folder core/experiments/<name>/ with
// its Problem, an ExperimentInfo (its keys, About text, metric descriptions, charts) and its
// presets/*.json, plus one line in the list of ExperimentRegistry.cpp. Nothing in ui/ or app/
// names an experiment (docs/adding-an-experiment.md).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/Config.h"
#include "experiments/MetricInfo.h"
#include "training/Problem.h"
#include "training/Trainer.h"

namespace ade {

class ParamRegistry;

// A law of the papers an experiment can predict from its configuration: the rate at which a
// metric should change per iteration (claims of kind "law" compare the measured rate with it).
struct LawInfo {
    std::string name;     // the claims' "law" value ("free_diffusion")
    std::string metric;   // the column whose rate it predicts ("norm_sq")
    std::string formula;  // in the papers' notation, for the report and the checklist
    std::string meaning;  // one line: where the law comes from and what it assumes
    // The predicted rate per iteration for a config; NaN (with `why`) where it does not apply.
    std::function<double(const Config&, std::string* why)> perIteration;
};

struct ExperimentInfo {
    std::string name;   // value of the "experiment" key
    std::string title;  // human title
    std::function<std::unique_ptr<Problem>(const Config&, std::string* error)> make;
    // Cross-key checks beyond per-key ranges (e.g. rank <= min(d, k), memory estimate).
    std::function<void(const Config&, std::vector<ConfigError>&)> validate;
    // A few key parameters, for run lists and progress lines.
    std::function<std::string(const Config&)> brief;
    // Registers the experiment's own keys (the keys every experiment shares are registered by
    // CommonParams.cpp).
    std::function<void(ParamRegistry&)> registerParams;

    // What the About panel shows: the model and its formulas in the papers' notation, and what
    // to look for (HTML of the subset Qt's rich text reads).
    std::string aboutHtml;
    // Every column its Problem may report (the trainer's columns are added by the registry,
    // see metricsOf), and its charts in grid order.
    std::vector<MetricInfo> metrics;
    std::vector<ChartInfo> charts;
    // The one metric that sums a run up (run lists, the CLI's tables, the sweep view's default).
    std::string headlineMetric;
    // The preset the explorer opens at first launch when this is the first experiment.
    std::string defaultPreset;
    // The laws its claims may test (LawInfo).
    std::vector<LawInfo> laws;
};

const std::vector<ExperimentInfo>& experiments();
const ExperimentInfo* findExperiment(const std::string& name);

// The descriptions of an experiment's columns, the trainer's (iteration, time_s, step_size,
// reg_value) included. Empty for an unknown experiment.
std::vector<MetricInfo> metricsOf(const std::string& experiment);
// One column's description; never fails: a column no description knows (a session written by
// another version) gets its name as label and a linear chart of its own ("column:<name>").
MetricInfo describeColumn(const std::string& experiment, const std::string& column);
// The charts of an experiment, in grid order (empty for an unknown experiment).
std::vector<ChartInfo> chartsOf(const std::string& experiment);
// The chart of an id among every experiment's charts, or of an unknown column's own chart
// ("column:<name>").
ChartInfo chartInfo(const std::string& id);
// A law of an experiment by name; nullptr when it has none of that name.
const LawInfo* findLaw(const std::string& experiment, const std::string& name);
// The first experiment's default preset: what the explorer opens at first launch.
std::string defaultPresetName();

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


}  // namespace ade
