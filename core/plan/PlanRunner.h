#pragma once
// Runs a Plan: its runs (a comparison) or its sweep grid, in parallel when asked, resolving
// "same start as run X", writing each run's folder and the sweep table. Used by the CLI; the
// GUI drives Trainers itself but shares Plan, Trainer and RunOutput.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "output/Session.h"
#include "plan/Preset.h"
#include "training/Trainer.h"

namespace ade {

class RunControl;

struct PlannedRun {
    std::string name;   // folder name, unique in the plan
    std::string label;  // run name of the preset (same for every grid point of that run)
    Config config;
    std::vector<std::pair<std::string, std::string>> varied;  // sweep values of this point
    int seedIndex = 0;  // 0 .. seeds − 1: the run's seed is the preset's seed + seedIndex
};

// Expands a sweep into grid points (values x seeds x runs). Returns an error message for an
// unknown key or a bad value.
std::optional<std::vector<PlannedRun>> expandSweep(const Plan& plan, const SweepSpec& sweep,
                                                   std::string* error);
// Each run `seeds` times, seed by seed: the i-th copy has the run's seed + i, seedIndex i and
// the name "<label>_seed<N>" (made safe for a folder); one seed leaves the runs as they are.
// The CLI's and the report's plans (plainRuns) and the GUI's Seeds box expand seeds here.
std::vector<PlannedRun> withSeeds(const std::vector<PlannedRun>& runs, int seeds);
// The runs of a comparison, each `plan.seeds` times (withSeeds).
std::vector<PlannedRun> plainRuns(const Plan& plan);


// Initial parameters for a run with init = same (built from the referenced run's config).
std::optional<ParamSet> resolveSameStart(const std::vector<PlannedRun>& runs, const PlannedRun& run,
                                         std::string* error);

struct RunOutcome {
    PlannedRun run;
    RunResult result;
    bool written = false;
    std::string error;  // construction or write error
};

// A run's outcome as a session run. A seed of a comparison with several seeds (`seeds` > 1, no
// sweep) keeps its group (the run's label) and seed index: the window and the figures draw the
// seeds of one run as their mean with a band.
SessionRun sessionRunOf(const RunOutcome& outcome, int seeds);

// What a claim sees of the outcomes: label, seed, sweep values, history (all ended).
std::vector<ClaimRun> claimRuns(const std::vector<RunOutcome>& outcomes);

struct ProgressEvent {
    int runIndex;
    long iteration;
    long iterations;
    const std::vector<double>* row;                     // latest record, may be null
    const std::vector<std::string>* columns = nullptr;  // the record's column names
};

struct PlanRunOptions {
    std::filesystem::path outDir;
    int jobs = 1;
    bool saveData = false;
    std::string commandLine;
    RunControl* control = nullptr;
    // Keep each run's parameter snapshots in its outcome (a session of the runs saves them);
    // false drops them as each run ends (sweeps and the report, which never save them).
    bool keepSnapshots = true;
    std::function<void(const ProgressEvent&)> progress;  // called from worker threads
    std::function<void(const RunOutcome&)> finished;     // called from worker threads
    // The runs "init = same" may refer to (default: the runs given): a sweep running a subset
    // of its tasks (resuming, one Slurm array task) resolves starts from all of them.
    const std::vector<PlannedRun>* context = nullptr;
};

std::vector<RunOutcome> runPlanned(const std::vector<PlannedRun>& runs, const std::string& planName,
                                   const PlanRunOptions& options);

// Sweep table (one row per run: varied values, seed, status, iterations done, final / best /
// floor of each metric) and the fitted power law y ~ x^slope. sweep.csv holds only what the
// same seeds reproduce (identical bytes whichever machine ran it); the wall times are in
// timingCsv (run, label, seconds, iterations_per_second).
std::string sweepCsv(const std::vector<RunOutcome>& outcomes);
std::string timingCsv(const std::vector<RunOutcome>& outcomes);
struct PowerLawFit {
    std::string series;  // run label
    double slope = 0, intercept = 0, r2 = 0;
    int points = 0;
    std::vector<std::pair<double, double>> xy;  // geometric means over seeds
};
std::vector<PowerLawFit> fitPowerLaw(const std::vector<RunOutcome>& outcomes,
                                     const std::string& xKey, const std::string& yMetric,
                                     const std::string& stat = "floor");

}  // namespace ade
