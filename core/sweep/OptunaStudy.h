#pragma once
// An Optuna study's storage read as a sweep (issue 32, item 2), read-only: Optuna 3.1's SQLite
// storage (`sqlite:///study.db`: tables studies, study_directions, trials, trial_params,
// trial_values, trial_intermediate_values, trial_user_attributes; schema version 12) or its
// journal file (JournalFileStorage: one JSON operation per line). OptunaSqlite.cpp reads the
// first, OptunaStudy.cpp the second and turns a study into the SweepFolder the sweep views take:
//
//   each trial        a task "trial_<number>" (label: the study's name) whose varied values are
//                     its params (categorical ones decoded: the index Optuna stores -> the choice
//                     in the distribution's JSON); config: the defaults, then the helper's user
//                     attribute `config` (attention_explorer.tuning: the keys as --set takes
//                     them), then the params (keys the registry refuses stay only as values)
//   its history       columns iteration, objective (the trial's intermediate values: step =
//                     iteration) and value (the trial's value, the same on every row)
//   the objective     value, stat final, lower better unless the study maximises
//   COMPLETE          a completed run
//   PRUNED            completed at its last reported step (config `iterations` = that step, so it
//                     ranks after the trials that ran their whole budget), stop "pruned", its
//                     value the last one reported
//   FAIL              failed, no value (tasks' `failed`)
//   RUNNING, WAITING  not finished (`missing`): the views re-read the storage while it has any
//   every trial       its state in trialStates (task index -> COMPLETE, PRUNED, FAIL, RUNNING…):
//                     the sweep tab's State column, and its ranking (complete trials only)
//
// The SQLite file is opened read-only (SQLITE_OPEN_READONLY, mode=ro): nothing is ever written.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sweep/Sweep.h"

namespace ade {

struct OptunaTrial {
    int number = 0;                                           // Optuna's trial number
    std::string state;                                        // RUNNING COMPLETE PRUNED FAIL WAITING
    std::vector<std::pair<std::string, std::string>> params;  // name -> value as text
    std::optional<double> value;                              // objective 0 (±inf allowed)
    std::vector<std::pair<long, double>> intermediate;        // (step, value), by step
    nlohmann::json userAttrs = nlohmann::json::object();
};

struct OptunaStudy {
    std::string name;
    bool maximize = false;   // the first objective's direction
    int objectives = 1;      // a multi-objective study: only the first is shown
    std::vector<OptunaTrial> trials;  // by number
};

// Whether a path names an Optuna storage file by its suffix (.db .sqlite .sqlite3 .log .journal).
bool isOptunaStorageName(const std::filesystem::path& path);

// Whether a file is an Optuna storage by its first bytes: SQLite's header (any SQLite database:
// readOptunaStorage tells an Optuna one from others), or a first line that is a journal
// operation (a JSON object with op_code). False for a session file, which opens with a lone "{".
bool looksLikeOptunaStorage(const std::filesystem::path& path);

// Every study of a storage file (SQLite, or a journal: told apart by the file's first bytes).
// nullopt with a message when the file is missing, corrupt, not an Optuna storage or of another
// schema version.
std::optional<std::vector<OptunaStudy>> readOptunaStorage(const std::filesystem::path& path,
                                                          std::string* error);
std::optional<std::vector<OptunaStudy>> readOptunaSqlite(const std::filesystem::path& path,
                                                         std::string* error);
std::optional<std::vector<OptunaStudy>> readOptunaJournal(const std::filesystem::path& path,
                                                          std::string* error);

// A param's internal value (Optuna's float) as text through its distribution's JSON
// ({"name": "CategoricalDistribution", "attributes": {"choices": [...]}} -> the choice;
// IntDistribution -> an integer; FloatDistribution -> 6 significant digits).
std::string optunaParamText(double internal, const std::string& distributionJson);

// The study as a sweep folder (see above); `path` becomes its dir.
SweepFolder sweepFolderOfStudy(const OptunaStudy& study, const std::filesystem::path& path);

// The study named `study` of the file (the first when empty), as a sweep folder; `names` gets
// every study's name. nullopt with a message as readOptunaStorage, or when no such study.
std::optional<SweepFolder> readOptunaStudy(const std::filesystem::path& path,
                                           const std::string& study, std::string* error,
                                           std::vector<std::string>* names = nullptr);

}  // namespace ade
