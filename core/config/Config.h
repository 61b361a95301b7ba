#pragma once
// A run's configuration: a validated value for every key of the ParamRegistry. Errors the user
// can cause come back as ConfigError values (never thrown across threads).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ade {

struct ConfigError {
    std::string key;      // offending key ("" for file-level errors)
    std::string value;    // offending value as text
    std::string message;  // full human-readable message, naming key, value and what is allowed
};

class Config {
  public:
    Config();  // every key at its default

    // Accessors; the key must exist in the registry (programming error otherwise).
    std::int64_t getInt(const std::string& key) const;
    double getReal(const std::string& key) const;
    bool getBool(const std::string& key) const;
    std::string getString(const std::string& key) const;
    const nlohmann::json& get(const std::string& key) const;
    std::string experiment() const { return getString("experiment"); }

    // Set a key from command-line text ("--set key=value").
    std::optional<ConfigError> setText(const std::string& key, const std::string& text);
    // Set a key from a JSON value (config files, presets, sessions).
    std::optional<ConfigError> setJson(const std::string& key, const nlohmann::json& value);
    // Apply an object of keys (nested objects flatten to dotted keys). Unknown keys are errors
    // unless `unknownKeys` is given, in which case they are collected there and skipped.
    std::optional<ConfigError> apply(const nlohmann::json& object,
                                     std::vector<std::string>* unknownKeys = nullptr);
    // Cross-key checks (rank <= min(d,k), memory estimate, ...) depend on the experiment:
    // validateConfig() in experiments/ExperimentRegistry.h. So does the one-line text of a few key
    // parameters for listings: experimentBrief().

    // Whether a key is used by this config: it applies to the experiment and one of its
    // relevance rules holds (ParamSpec::relevantWhen). When not, `why` (if given) says why, e.g.
    // "not used with optimizer = gd (used when optimizer is one of sgd, adam)".
    bool isRelevant(const std::string& key, std::string* why = nullptr) const;

    // The resolved configuration: every key that applies to this run's experiment.
    nlohmann::json toJson() const;

  private:
    nlohmann::json values_ = nlohmann::json::object();
};

// The keys (in the registry's order) whose values differ between `a` and `b` and that one of them
// uses (Adam's betas of two gd runs are no difference); a key that applies to one experiment only
// counts as differing. The seed is left out: it is no choice of the experimenter's.
std::vector<std::string> differingKeys(const Config& a, const Config& b);

// Parses `--set` style "key=value"; returns false if there is no '='.
bool splitAssignment(const std::string& text, std::string& key, std::string& value);

}  // namespace ade
