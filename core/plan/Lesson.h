#pragma once
// Lessons: an ordered list of steps a teacher plays in front of a class (the GUI's presentation
// mode). Each step loads a preset (or an inline config), says in a few sentences what to look
// at, names what to highlight (a chart, a run, a claim) and when to pause the runs (an
// iteration, or when a claim first holds). A lesson is a JSON file written by hand
// (docs/lessons.md); the shipped ones live in resources/lessons/.
//   { "name": "spectral-init", "title": "Why a spectral start", "description": "...",
//     "steps": [
//       { "title": "Two starts", "caption": "...",
//         "preset": "a-spectral-vs-random",            // or "config": { keys } / a plan document
//         "set": { "iterations": 400 },                // overrides for every run of the step
//         "highlight": { "chart": "manifold", "run": "alg1-spectral", "claim": "fast-floor" },
//         "pause": { "iteration": 200 } } ] }           // or { "claim": "fast-floor" }
// parseLesson checks the file's shape; checkLessonStep / stepPlan check it against the presets,
// the experiments' charts and the plan's runs and claims, so that a lesson naming a preset that
// is gone fails with the step number.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan/Preset.h"

namespace ade {

struct LessonStep {
    std::string title;
    std::string caption;
    std::string preset;                // a preset's name, or empty when `config` is given
    nlohmann::json config;             // an inline config or plan document (null with a preset)
    std::vector<std::string> set;      // "key=value" overrides for every run of the step
    std::string highlightChart;        // a chart id of the step's experiment ("" = none)
    std::string highlightRun;          // a run label of the step's plan
    std::string highlightClaim;        // a claim id of the step's plan
    long pauseIteration = -1;          // pause the runs at this iteration (-1 = none)
    std::string pauseClaim;            // pause the runs when this claim first holds
};

struct Lesson {
    std::string name;  // file stem unless the file says otherwise
    std::string title;
    std::string description;
    std::vector<LessonStep> steps;
};

struct LessonError {
    std::string message;
};

// Parses a lesson document: its shape only (keys, types, one of preset / config per step).
std::optional<Lesson> parseLesson(const std::string& text, const std::string& sourceName,
                                  LessonError* error);
std::optional<Lesson> loadLessonFile(const std::filesystem::path& file, LessonError* error);

// The plan of step `index` (0-based): its preset from `presets` (or its inline config) with the
// step's overrides, checked against what the step names (charts of the step's experiment, runs
// and claims of its plan, a pause that fits the plan). Errors start with "step N (title)".
std::optional<Plan> stepPlan(const Lesson& lesson, std::size_t index,
                             const PresetLibrary& presets, LessonError* error);
// Every step's plan; the first error found (with its step number), or nothing.
std::optional<LessonError> checkLesson(const Lesson& lesson, const PresetLibrary& presets);

// The lesson library: every *.json in the lesson directories, by name.
class LessonLibrary {
  public:
    // Search order: $ADE_RESOURCES/lessons, then <exe>/../share/attention-explorer/lessons
    // (installed, or the copy staged in the build tree), as PresetLibrary does for presets.
    static std::vector<std::filesystem::path> defaultDirectories(const std::string& argv0);
    explicit LessonLibrary(std::vector<std::filesystem::path> dirs);

    struct Entry {
        std::string name, title, description;
        std::filesystem::path file;
    };
    const std::vector<Entry>& entries() const { return entries_; }
    const Entry* find(const std::string& name) const;
    std::optional<Lesson> load(const std::string& name, LessonError* error) const;

  private:
    std::vector<Entry> entries_;
};

}  // namespace ade
