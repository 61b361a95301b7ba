#pragma once
// The Slurm backend of `sweep` (docs/sweeps.md): the job-array script, its resource requests
// (given or derived from the run's size), submitting it with sbatch and what the queue holds.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "CliArgs.h"
#include "plan/PlanRunner.h"

struct SlurmResources {
    std::string time;  // sbatch --time: "D-HH:MM:SS"
    std::string mem;   // sbatch --mem: "<MiB>M" or as given
    int cpus = 1;
    int throttle = 1;
    std::string how;   // how the defaults were derived (printed)
};

// --time / --mem / --cpus-per-task / --array-throttle as given, else derived: a short
// calibration run of the largest task (at most 10 iterations) measures its set-up time, time
// per iteration and peak memory; time = max(10 min, 5 min + 3 x (set-up + iterations x time per
// iteration)); memory = 256 MiB + snapshot_mb + 2 x the peak resident size, rounded up to 64
// MiB; cpus = the largest "threads" of the tasks; throttle = min(tasks, 32).
std::optional<SlurmResources> slurmResources(const CliArgs& a,
                                             const std::vector<ade::PlannedRun>& tasks,
                                             std::string* error);
// DIR/slurm/array.sbatch for `tasks` tasks, and DIR/slurm/logs/.
bool writeArrayScript(const std::filesystem::path& dir, const std::string& planName, int tasks,
                      const SlurmResources& r, const CliArgs& a, std::string* error);
// "0-3,7,9-10%4": Slurm's --array value for these task indices.
std::string arraySpec(const std::vector<int>& indices, int throttle);
// The sbatch command that submits DIR/slurm/array.sbatch (with --array=SPEC when given).
std::string sbatchCommand(const std::filesystem::path& dir, const std::string& array);
// Runs it; returns the job id and appends "<id> <array> <UTC time>" to DIR/slurm/jobs.txt.
std::optional<std::string> submitArray(const std::filesystem::path& dir, const std::string& array,
                                       std::string* error);
// Job ids in DIR/slurm/jobs.txt, and those of them squeue still lists (pending or running;
// none when squeue is not installed).
std::vector<std::string> recordedJobs(const std::filesystem::path& dir);
std::vector<std::string> queuedJobs(const std::vector<std::string>& jobs);
