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
//   DIR/sweep.csv, timing.csv, fit.json, session.json   written by collect (and by a local
//                                  sweep at its end); timing.csv holds the wall times
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <map>
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
//                      (inner values of real keys rounded to 6 significant digits)
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
// Whether a Random axis is drawn log-uniformly (see above).
bool axisIsLogUniform(const AxisSpec& axis);

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

// A preset's sweep (list axes) as a design; its fit (x: the fit's key or the first key).
SweepDesign designFromSweepSpec(const SweepSpec& sweep);
// The design's random samples, in order: each the (key, value) of every Random axis. Drawn with
// splitmix64 from sampleSeed (the same on every machine); reals rounded to 4 significant digits
// (and kept in [lo, hi]), integer keys to the nearest integer.
std::vector<std::vector<std::pair<std::string, std::string>>> randomSamples(
    const SweepDesign& design);

// The runs of a design: grid of List axes × random samples, × seeds, × the plan's runs. Task
// names are unique and stable ("<run>_<key>=<v>…_seed<N>", made safe for file names). Random
// samples that coincide (integer keys) are run once.
std::optional<std::vector<PlannedRun>> expandDesign(const Plan& plan, const SweepDesign& design,
                                                    std::string* error);

// What a user asks of a sweep beside its plan: the CLI's --vary, --seeds, --samples,
// --sample-seed, --metric, --stat, --higher-better, --halving, --eta and --min-iterations (the
// Python module's sweep() takes the same). 0, -1 and "" leave the design's own value.
struct SweepAsk {
    std::vector<std::string> varies;  // "KEY=VALUES" (parseAxis); empty: the preset's sweep
    int seeds = 0;
    int samples = 0;
    long long sampleSeed = -1;
    std::string metric, stat;
    bool higherBetter = false;
    bool halving = false;
    int eta = 0;
    long minIterations = 0;
};
// The objective asked for, over `base` (a sweep folder's own when collecting).
Objective objectiveOf(const SweepAsk& ask, Objective base = {});
// A metric the experiment never reports is a typo: false, with the metrics it has in `error`.
bool checkObjectiveMetric(const std::string& experiment, const std::string& metric,
                          std::string* error);
// The design of a sweep of `plan`: the preset's own sweep when nothing is varied
// (`presetSweep`), else the varied keys, with a power-law fit of the first for a grid of numbers
// (the scaling-law view); the seeds, samples, objective and halving asked. nullopt with the
// message the CLI prints when an axis, the metric or the halving options are invalid.
std::optional<SweepDesign> sweepDesignOf(const Plan& plan, const SweepAsk& ask, bool* presetSweep,
                                         std::string* error);

// One config of a sweep (its varied values and run label) over its seeds.
struct ConfigResult {
    std::string label;                                        // the plan's run name
    std::vector<std::pair<std::string, std::string>> values;  // varied key -> value (text)
    std::vector<std::string> runNames;                        // one per seed that finished
    std::vector<double> perSeed;                              // objective of each finished seed
    double mean = NAN, sd = NAN;                              // over perSeed (sd: n−1; 0 if n=1)
    int seedsDone = 0, seedsFailed = 0;                       // failed: diverged or error
    // Under a stopping rule (stop_tol > 0): done seeds it stopped, and those that reached their
    // iteration cap first (not converged); the fewest and most iterations its done seeds ran.
    int seedsConverged = 0, seedsCapped = 0;
    int seedsPruned = 0;  // done seeds an Optuna pruner stopped early (stop "pruned")
    long doneMin = 0, doneMax = 0;
    long iterations = 0;                                      // budget of its latest rung
    int rung = -1;                                            // successive halving; -1 = none
};
// The metric an objective ranks by for this outcome (its own, or the experiment's headline
// metric, then test_loss, train_loss), and the outcome's value of it (NaN when absent). With
// stat "best" and higher better, best is the maximum.
std::string objectiveMetric(const Objective& objective, const RunOutcome& outcome);
double objectiveValue(const RunOutcome& outcome, const Objective& objective);
// Rung of a task from its name ("…_r<r>"), -1 when none.
int rungOfTask(const std::string& taskName);

// Groups outcomes by (label, values), ranks by the objective at equal budget (best first;
// configs without a finite mean last). With several rungs of one config (successive halving),
// only its largest budget counts, and configs that reached a larger budget rank before those
// stopped earlier, whatever their values; at one budget a config with a diverged or failed
// seed comes after those without.
std::vector<ConfigResult> aggregateConfigs(const std::vector<RunOutcome>& outcomes,
                                           const Objective& objective);
// That order: whether `a` ranks before `b` (a finite mean first; then the larger budget; at one
// budget no failed seed first, then the better mean).
bool configRanksBefore(const ConfigResult& a, const ConfigResult& b, bool lowerIsBetter);

// Successive-halving rungs as run: budget, configs started, configs kept for the next rung.
struct HalvingRung {
    long iterations = 0;
    int configs = 0, kept = 0;
};

// The rung budgets of successive halving for `configs` configs of `iterations` iterations: the
// last is `iterations`, each one before it 1/eta of the next; as many rungs as keep the first
// budget >= minIterations (100 when 0) while a rung still has more than one config to halve.
std::vector<long> halvingBudgets(const HalvingSpec& halving, long iterations, int configs);

struct SweepLocalStats {
    int skipped = 0;  // tasks finished in the folder already (read back, not rerun)
    int ran = 0;      // tasks run now
};

// Runs a design's tasks on this machine (runPlanned on options.jobs threads), with successive
// halving when design.halving.enabled (rung r's task names end "_r<r>"; `rungs` gets the table).
// With options.outDir set it fills the sweep folder and resumes: a task whose runs/<task>/
// summary.json and metrics.csv read back is not rerun (a failed one is rerun); a folder holding another
// sweep's manifest is an error (nothing written). At the end (not cancelled) it writes the
// folder's results (readSweepFolder + writeSweepResults). Returns every outcome (every rung);
// `error` set = nothing run (invalid) when the result is empty, else a write failed.
std::vector<RunOutcome> runSweepLocal(const Plan& plan, const SweepDesign& design,
                                      const PlanRunOptions& options,
                                      std::vector<HalvingRung>* rungs, std::string* error,
                                      SweepLocalStats* stats = nullptr);

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
    std::map<int, std::filesystem::path> logs;  // task index -> its newest Slurm log
    std::string commandLine;            // the command that wrote the manifest
    // An Optuna study read as a sweep (OptunaStudy.h): task index -> the trial's state
    // (COMPLETE, PRUNED, FAIL, RUNNING, WAITING); empty for a sweep folder.
    std::map<int, std::string> trialStates;
};
// Writes sweep.json and configs/ for these tasks (does not run anything).
bool writeSweepManifest(const std::filesystem::path& dir, const std::string& planName,
                        const SweepDesign& design, const std::vector<PlannedRun>& tasks,
                        const std::string& commandLine, std::string* error);
std::optional<SweepFolder> readSweepFolder(const std::filesystem::path& dir, std::string* error);
// The manifest and the tasks' configs only (no outcomes, missing or failed).
std::optional<SweepFolder> readSweepManifest(const std::filesystem::path& dir, std::string* error);
// Whether a folder's manifest is this sweep (plan, design, every task with the same config).
bool sameSweep(const SweepFolder& existing, const std::string& planName, const SweepDesign& design,
               const std::vector<PlannedRun>& tasks, std::string* why);
// A finished run read back from its folder: status, iterations, times from summary.json, the
// history from metrics.csv (the exact numbers: formatNumber round-trips).
std::optional<RunOutcome> readRunOutcome(const std::filesystem::path& runDir,
                                         const PlannedRun& run, std::string* error);

// One task of a sweep folder (a Slurm array task): runs it into runs/<task>/ unless it finished
// already (a failed one is rerun). A run that could not start is written as failed.
enum class TaskRunStatus { Ran, AlreadyDone, Invalid, WriteFailed };
TaskRunStatus runSweepTask(const std::filesystem::path& dir, int index,
                           const std::string& commandLine, RunOutcome* outcome,
                           std::string* error);
// Writes runs/<task>/summary.json of a run that failed before it started (its status and why).
void writeFailedTask(const std::filesystem::path& dir, const std::string& planName,
                     RunOutcome& outcome);
// fit.json's content: one object per series (series, x, y, stat, slope, intercept, r2, points).
nlohmann::json powerLawFitsJson(const std::vector<PowerLawFit>& fits, const std::string& x,
                                const std::string& y, const std::string& stat);
// sweep.csv, timing.csv, fit.json (when design.fitX is set) and session.json (no parameters)
// from the finished runs, sweep.csv first.
bool writeSweepResults(const SweepFolder& folder, std::string* error);

}  // namespace ade
