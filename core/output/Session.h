#pragma once
// Session files: every run's config, seed, state, full metric history and (optionally) final
// parameters, plus opaque chart settings. JSON, versioned; reading never crashes or half-loads:
// a malformed file gives one message naming what is wrong and where.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "config/Config.h"
#include "models/ParamSet.h"
#include "training/Trainer.h"

namespace ade {

inline constexpr int kSessionVersion = 1;
inline constexpr const char* kSessionFormat = "attention-explorer-session";

struct SessionRun {
    std::string name;
    std::string color;  // "#rrggbb", may be empty
    // The run as one seed of a group (a comparison's run with K seeds): the group's label and
    // the seed's index; "" = a run of its own. Optional in the file ("group", "seed_index"):
    // sessions written before seeds were an axis open with every run on its own.
    std::string group;
    int seedIndex = 0;
    bool visible = true;
    Config config;
    RunStatus status = RunStatus::Completed;
    bool running = false;  // was still running when saved (recovery files)
    std::string message;
    std::string stop;  // the stopping rule's verdict (RunResult::stop); optional in the file
    long iterationsDone = 0;
    long divergedAt = -1;
    double iterationsPerSecond = 0.0;
    MetricHistory history;
    std::optional<ParamSet> finalParams;    // to continue a stopped run
    std::optional<ParamSet> initialParams;  // to reset to the same start
    // Parameter snapshots, oldest first (time travel). Optional in the file ("snapshots"):
    // sessions written before snapshots existed open with none.
    std::vector<Snapshot> snapshots;
    // The run as one of the loaded preset's runs its claims are about: the preset's run label
    // ("" = not a claims' run). Optional in the file ("claim_label"); recovery files write it.
    std::string claimLabel;
};

struct Session {
    std::vector<SessionRun> runs;
    nlohmann::json chartSettings = nlohmann::json::object();
    std::string preset;  // the preset the session came from, if any
    // The loaded preset as a plan document (core/plan/Preset.h's format: name, description,
    // about, runs, seeds, claims), so that its claims come back with the runs; null when none.
    // Optional in the file ("plan"); recovery files write it.
    nlohmann::json plan;
};

struct SessionReadResult {
    std::optional<Session> session;
    std::string error;                  // set when session is empty
    std::vector<std::string> warnings;  // unknown fields ignored, etc.
};

nlohmann::json sessionToJson(const Session& s, bool withParams = true);
std::string sessionToText(const Session& s, bool withParams = true);
SessionReadResult sessionFromText(const std::string& text);
SessionReadResult readSessionFile(const std::filesystem::path& file);
bool writeSessionFile(const std::filesystem::path& file, const Session& s, bool withParams,
                      std::string* error);

// Pieces of a session file serialized once and kept by a writer that saves often (the GUI's
// recovery file): a history row ("[1,0.5,null]") and a snapshot ({"iteration", "params"}).
std::string historyRowText(const std::vector<double>& row);
std::string snapshotText(const Snapshot& snapshot);
// A run's history rows and snapshots given as such texts, in place of its `history.rows` and
// `snapshots` (which are then ignored; `history.columns` is used): `rows` joined by commas,
// `snapshots` one text each. The file is the same as sessionToText's with params.
struct SessionRunTexts {
    const std::string* rows = nullptr;
    const std::vector<std::string>* snapshots = nullptr;
};
std::string sessionToText(const Session& s, const std::vector<SessionRunTexts>& texts);

// The RunResult fields a session keeps, both ways.
SessionRun sessionRunFrom(const std::string& name, const Config& config, const RunResult& r);
RunStatus runStatusFromString(const std::string& s, bool* ok = nullptr);

}  // namespace ade
