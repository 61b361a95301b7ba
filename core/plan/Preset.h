#pragma once
// Presets and config files: one JSON format for both (presets live with their experiment,
// core/experiments/<name>/presets/*.json). A file holds a
// base config, optionally several named runs (a comparison) and optionally a sweep:
//   { "name": "...", "description": "...", "about": "...",
//     "config": { key: value, ... },
//     "runs": [ { "name": "alg1", "config": { ... } }, ... ],
//     "sweep": { "vary": { "data.n": [32, 64] }, "seeds": 2, "fit": { "x": "data.n",
//                "y": "excess_risk" } },
//     "seeds": 3,                    // every run of the comparison with seeds s, s+1, s+2
//     "claims": [ { ... } ],         // what the runs show, checked (claims/Claims.h)
//     "quick": { key: value, ..., "seeds": 2, "sweep": { "vary": {...}, "seeds": 1 } } }
// "quick" gives smaller sizes at which the claims still hold (the report's --quick); a string
// instead says why there are none (the quick report then lists the preset as not run).
// A flat object of keys is also accepted as a one-run config ("Copy run as config").
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claims/Claims.h"
#include "config/Config.h"

namespace ade {

struct RunSpec {
    std::string name;
    Config config;
};

struct SweepSpec {
    std::vector<std::pair<std::string, std::vector<std::string>>> vary;  // key -> values (text)
    int seeds = 1;
    std::string fitX;  // varied key on the x axis of the fitted power law
    std::string fitY = "excess_risk";
};

struct Plan {
    std::string name;         // preset name or config file stem
    std::string description;  // one line
    std::string about;        // longer explanation, what to look for
    std::vector<RunSpec> runs;
    std::optional<SweepSpec> sweep;
    int seeds = 1;  // seeds per run of a comparison (a sweep has its own)
    std::vector<ClaimSpec> claims;
    nlohmann::json quick;  // the "quick" object as written (null when absent)
    // Why the preset has no quick sizes ("quick" given as a string); empty otherwise.
    std::string quickSkipReason() const { return quick.is_string() ? quick.get<std::string>() : ""; }
};

struct PlanError {
    std::string message;
};

// Parses a preset/config document. `overrides` ("key=value") apply to every run after the
// file's own values. Unknown keys are errors unless `unknownKeys` is given (then collected).
std::optional<Plan> parsePlan(const std::string& text, const std::string& sourceName,
                              const std::vector<std::string>& overrides, PlanError* error,
                              std::vector<std::string>* unknownKeys = nullptr);
std::optional<Plan> loadPlanFile(const std::filesystem::path& file,
                                 const std::vector<std::string>& overrides, PlanError* error);

// The plan at its "quick" sizes: the quick object's keys applied to every run, its "seeds" and
// "sweep" (vary, seeds) in place of the plan's. A plan without "quick", or whose "quick" is a
// reason why it has none, comes back unchanged.
std::optional<Plan> quickPlan(const Plan& plan, PlanError* error);

// The plan of a claim's negative control (claims/Claims.h): its "config" keys applied to every
// run of `plan` (the preset or its quick plan), its "runs" keys to the runs they name, only the
// runs the claim compares kept (and the runs they start from), and the claim as the control
// checks it (run and other exchanged for a swap) as the plan's one claim. Errors name the claim.
std::optional<Plan> controlPlan(const Plan& plan, const ClaimSpec& claim, PlanError* error);

// Applies "key=value" overrides to a config; returns the first error.
std::optional<ConfigError> applyOverrides(Config& config, const std::vector<std::string>& sets);

// The preset library: every *.json in the preset directories, by name.
class PresetLibrary {
  public:
    // Search order: $ADE_RESOURCES/presets, then <exe>/../share/attention-explorer/presets
    // (installed, or the copy staged in the build tree).
    static std::vector<std::filesystem::path> defaultDirectories(const std::string& argv0);
    explicit PresetLibrary(std::vector<std::filesystem::path> dirs);

    struct Entry {
        std::string name, description;
        std::filesystem::path file;
    };
    const std::vector<Entry>& entries() const { return entries_; }
    const Entry* find(const std::string& name) const;
    std::optional<Plan> load(const std::string& name, const std::vector<std::string>& overrides,
                             PlanError* error) const;
    std::string names() const;  // comma-separated, for error messages

  private:
    std::vector<Entry> entries_;
    std::vector<std::filesystem::path> dirs_;  // where it looked, for "none found" messages
};

}  // namespace ade
