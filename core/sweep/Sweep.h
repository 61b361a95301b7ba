#pragma once
// Sweeps for tuning (issue #16): which configs to run (1–3 or more keys, each a list, a linear or
// log range, or random samples), the objective a tuner ranks them by, successive halving, and the
// sweep folder that any backend (local threads, a Slurm job array) fills and `collect` reads.
//
// The sweep folder (one layout for every backend, so a sweep resumes and collects the same way):
//   DIR/sweep.json                 manifest: plan name, design, command line, every task
//   DIR/configs/<task>.json        one config file per run (flat keys; `run --config` reads it)
//   DIR/runs/<task>/               the run's folder (writeRunFolder: metrics.csv, summary.json…);
//                                  summary.json is written last, so its presence means finished
//   DIR/slurm/array.sbatch         the job-array script (Slurm backend)
//   DIR/slurm/logs/%A_%a.out       the tasks' output (Slurm backend)
//   DIR/sweep.csv, fit.json, session.json   written by collect (and by a local sweep at its end)
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "plan/PlanRunner.h"
#include "plan/Preset.h"

namespace ade {

// How one key's values are given. Text forms (CLI --vary KEY=…, the GUI's value field):
//   "32,64,128"        List
//   "lin:0:1:5"        Linear: 5 values from 0 to 1 inclusive
//   "log:1e-3:1e-1:5"  Log: 5 values from 1e-3 to 1e-1, evenly spaced in log
//   "rand:1e-4:1e-1"   Random: drawn per sample (SweepDesign::samples); log-uniform when the key
//                      is logScale in ParamSpec or lo > 0 and hi / lo >= 100, else uniform;
//                      integer keys are rounded. Every Random axis shares the same N samples.
struct AxisSpec {
    enum class Kind { List, Linear, Log, Random };
    std::string key;  // canonical key
    Kind kind = Kind::List;
    std::vector<std::string> values;  // List (Linear/Log are expanded into it by parseAxis)
    double lo = 0, hi = 0;            // Random (and the range of Linear/Log)
    int count = 0;                    // Linear/Log
};
// Parses "KEY=VALUES" (or, with `key` given, just the VALUES text); checks the key exists, the
// values are valid for it (ParamSpec range/choices) and the form is one of the above.
std::optional<AxisSpec> parseAxis(const std::string& text, std::string* error,
                                  const std::string& key = "");
std::string axisText(const AxisSpec& axis);  // the text form back ("log:0.001:0.1:5")

// What a tuner ranks configs by: a metric's final / best / floor (summaryMetrics) value, lower or
// higher better.
struct Objective {
    std::string metric;         // a metric column; empty = the experiment's headline metric
    std::string stat = "floor"; // final | best | floor
    bool lowerIsBetter = true;
};

// Successive halving: start every config at `minIterations`, keep the best 1/eta (by the
// objective, mean over seeds), multiply the budget by eta, until the full `iterations`. A rung
// reruns a config from its start with the larger budget (same seed ⇒ the same first steps), so
// the last rung's runs are exactly the full runs.
struct HalvingSpec {
    bool enabled = false;
    int eta = 3;
    long minIterations = 0;  // 0 = iterations / eta^(rungs-1) with rungs chosen so it is >= 100
};

struct SweepDesign {
    std::vector<AxisSpec> axes;
    int seeds = 1;
    int samples = 0;               // number of random samples (when any axis is Random)
    std::uint64_t sampleSeed = 1;  // seed of the random samples (same seed ⇒ same configs)
    Objective objective;
    HalvingSpec halving;
    std::string fitX, fitY;        // a power-law fit (the scaling-law view); empty = none
};

// The runs of a design: grid of List axes × random samples, × seeds, × the plan's runs. Task
// names are unique and stable ("<run>_<key>=<v>…_seed<N>", made safe for file names).
std::optional<std::vector<PlannedRun>> expandDesign(const Plan& plan, const SweepDesign& design,
                                                    std::string* error);

// One config of a sweep (its varied values and run label) over its seeds.
struct ConfigResult {
    std::string label;                                        // the plan's run name
    std::vector<std::pair<std::string, std::string>> values;  // varied key -> value (text)
    std::vector<std::string> runNames;                        // one per seed that finished
    std::vector<double> perSeed;                              // objective of each finished seed
    double mean = NAN, sd = NAN;                              // over perSeed (sd: n−1; 0 if n=1)
    int seedsDone = 0, seedsFailed = 0;                       // failed: diverged or error
    long iterations = 0;                                      // budget of its latest rung
    int rung = -1;                                            // successive halving; -1 = none
};
// Groups outcomes by (label, values), ranks by the objective (best first; configs without a
// finite mean last).
std::vector<ConfigResult> aggregateConfigs(const std::vector<RunOutcome>& outcomes,
                                           const Objective& objective);

// Successive-halving rungs as run: budget, configs started, configs kept for the next rung.
struct HalvingRung {
    long iterations = 0;
    int configs = 0, kept = 0;
};

// Runs a design's tasks on this machine (runPlanned on options.jobs threads), with successive
// halving when design.halving.enabled (rung r's task names end "_r<r>"; `rungs` gets the table).
// With options.outDir set it fills the sweep folder and resumes: a task whose runs/<task>/
// summary.json exists is read back, not rerun. Returns every outcome (every rung).
std::vector<RunOutcome> runSweepLocal(const Plan& plan, const SweepDesign& design,
                                      const PlanRunOptions& options,
                                      std::vector<HalvingRung>* rungs, std::string* error);

// JSON of a design (the manifest's "design"), and back.
nlohmann::json designToJson(const SweepDesign& design);
std::optional<SweepDesign> designFromJson(const nlohmann::json& j, std::string* error);

// A sweep folder as it stands (any backend, any time: while tasks still run, too).
struct SweepFolder {
    std::filesystem::path dir;
    std::string planName;
    SweepDesign design;
    std::vector<PlannedRun> tasks;      // in task order (Slurm array index = position)
    std::vector<RunOutcome> finished;   // tasks with summary.json: history from metrics.csv
    std::vector<int> missing;           // task indices not finished (not started or running)
    std::vector<int> failed;            // finished as failed, or whose Slurm log shows an error
};
// Writes sweep.json and configs/ for these tasks (does not run anything).
bool writeSweepManifest(const std::filesystem::path& dir, const std::string& planName,
                        const SweepDesign& design, const std::vector<PlannedRun>& tasks,
                        const std::string& commandLine, std::string* error);
std::optional<SweepFolder> readSweepFolder(const std::filesystem::path& dir, std::string* error);
// sweep.csv, fit.json (when design.fitX is set) and session.json from the finished runs.
bool writeSweepResults(const SweepFolder& folder, std::string* error);

}  // namespace ade
