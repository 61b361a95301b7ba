// `sweep`, `sweep task DIR`, `sweep collect DIR`: wiring the CLI's options to core/sweep (the
// design, the local backend, the sweep folder) and to the Slurm backend (SweepSlurm.h).
#include "SweepCommand.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <set>
#include <thread>

#include "Interrupt.h"
#include "ProgressBar.h"
#include "SweepSlurm.h"
#include "SweepTable.h"
#include "experiments/ExperimentRegistry.h"
#include "io/Files.h"
#include "sweep/Sweep.h"
#include "util/RunControl.h"

namespace fs = std::filesystem;
using namespace ade;

namespace {

int say(int code, const std::string& message) {
    std::cerr << "attention-explorer-cli: " << message << "\n";
    return code;
}

// The sweep the options ask for (core/sweep: SweepAsk).
SweepAsk askOf(const CliArgs& a) {
    SweepAsk ask;
    ask.varies = a.varies;
    ask.seeds = a.seeds;
    ask.samples = a.samples;
    ask.sampleSeed = a.sampleSeed;
    ask.metric = a.metric;
    ask.stat = a.stat;
    ask.higherBetter = a.higherBetter;
    ask.halving = a.halving;
    ask.eta = a.eta;
    ask.minIterations = a.minIterations;
    return ask;
}

int reportOutcomes(const Plan& plan, const SweepDesign& design,
                   const std::vector<RunOutcome>& outcomes, const std::vector<HalvingRung>& rungs,
                   bool presetSweep) {
    const auto configs = aggregateConfigs(outcomes, design.objective);
    const std::string metric =
        outcomes.empty() ? design.objective.metric : objectiveMetric(design.objective, outcomes[0]);
    printRungs(rungs, design.halving.eta);
    printResults(configs, design.objective, metric, plan.runs.size() > 1);
    printFits(outcomes, design);
    // The preset's slope claims hold for its own sweep (not for a grid given with --vary).
    if (presetSweep && !plan.claims.empty() && design.seeds == plan.sweep->seeds)
        printClaims(plan, outcomes, design.seeds);
    int code = ExitOk;
    for (const auto& o : outcomes) {
        if (o.result.status == RunStatus::Failed) {
            std::cerr << "attention-explorer-cli: " << o.run.name << ": " << o.error << "\n";
            code = ExitInvalid;
        }
        if (o.result.status == RunStatus::Diverged && code == ExitOk) code = ExitDiverged;
    }
    return code;
}

int runLocal(const CliArgs& a, const Plan& plan, const SweepDesign& design) {
    RunControl control;
    StopOnInterrupt stopOnInterrupt(control);
    ProgressBar bar(!a.quiet);
    std::mutex mutex;
    int finished = 0;
    PlanRunOptions o;
    o.outDir = a.outDir;
    o.jobs = a.jobs > 0 ? a.jobs
                        : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    o.saveData = a.saveData;
    o.commandLine = a.commandLine;
    o.control = &control;
    o.keepSnapshots = false;
    o.progress = [&](const ProgressEvent& e) {
        const double frac = e.iterations > 0 ? static_cast<double>(e.iteration) / e.iterations : 1;
        std::string label;
        {
            std::lock_guard lock(mutex);
            label = "[" + std::to_string(finished) + " done] run " + std::to_string(e.runIndex + 1);
        }
        bar.update(label, frac, std::to_string(e.iteration) + "/" + std::to_string(e.iterations));
    };
    o.finished = [&](const RunOutcome& out) {
        std::lock_guard lock(mutex);
        ++finished;
        bar.finish(out.run.name + ": " + toString(out.result.status) + " after " +
                   std::to_string(out.result.iterationsDone) + " iterations");
    };
    const bool hadManifest = fs::exists(fs::path(a.outDir) / "sweep.json");
    std::vector<HalvingRung> rungs;
    SweepLocalStats stats;
    std::string error;
    const auto outcomes = runSweepLocal(plan, design, o, &rungs, &error, &stats);
    // Nothing run: the folder's manifest (another sweep's) was refused, or it could not be
    // written.
    if (outcomes.empty() && !error.empty()) return say(hadManifest ? ExitInvalid : ExitFailed, error);
    if (stats.skipped > 0)
        std::printf("resumed %s: skipped %d finished task%s, ran %d\n", a.outDir.c_str(),
                    stats.skipped, stats.skipped == 1 ? "" : "s", stats.ran);
    if (interrupted())
        return say(ExitInterrupted, "interrupted; finished runs are in " + a.outDir +
                                        "/runs (run the same command again to resume)");
    if (!error.empty()) return say(ExitFailed, error);
    std::printf("wrote %s/sweep.csv (%zu runs)%s, %s/timing.csv and %s/session.json\n",
                a.outDir.c_str(), outcomes.size(),
                design.fitX.empty() ? "" : (", " + a.outDir + "/fit.json").c_str(),
                a.outDir.c_str(), a.outDir.c_str());
    return reportOutcomes(plan, design, outcomes, rungs,
                          a.varies.empty() && plan.sweep.has_value());
}

// The tasks not finished (missing or failed), in index order.
std::vector<int> pendingOf(const SweepFolder& f) {
    std::vector<int> out = f.missing;
    out.insert(out.end(), f.failed.begin(), f.failed.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// A varied key that one of the plan's runs does not use (lambda of a run without a
// regulariser, batch under gd) repeats the same run for each of its values: say so once per run
// and key, before anything runs (the runs still go ahead, as asked).
void noteUnusedKeys(const std::vector<PlannedRun>& tasks, const SweepDesign& design) {
    std::set<std::pair<std::string, std::string>> said;
    for (const PlannedRun& t : tasks)
        for (const AxisSpec& axis : design.axes) {
            std::string why;
            if (t.config.isRelevant(axis.key, &why) || !said.insert({t.label, axis.key}).second)
                continue;
            std::cerr << "attention-explorer-cli: note: run " << t.label << ": " << axis.key
                      << " is " << (why.empty() ? "not used" : why)
                      << ", so its values repeat the same run\n";
        }
}

int runSlurm(const CliArgs& a, const Plan& plan, const SweepDesign& design) {
    if (design.halving.enabled)
        return say(ExitInvalid,
                   "--halving runs with --backend local only: each rung needs the previous "
                   "rung's results before it starts (a job array starts every task at once)");
    std::string error;
    const auto tasks = expandDesign(plan, design, &error);
    if (!tasks) return say(ExitInvalid, error);
    const fs::path dir = a.outDir;
    std::error_code ec;
    const bool existing = fs::exists(dir / "sweep.json", ec);
    if (existing) {
        auto old = readSweepManifest(dir, &error);
        if (!old) return say(ExitInvalid, error);
        std::string why;
        if (!sameSweep(*old, plan.name, design, *tasks, &why))
            return say(ExitInvalid, a.outDir + " holds another sweep (" + why +
                                        "): give another --out folder, or delete it");
    }
    const auto res = slurmResources(a, *tasks, &error);
    if (!res) return say(ExitInvalid, error);
    if (!prepareOutputFolder(dir, &error)) return say(ExitFailed, error);
    if (!existing &&
        !writeSweepManifest(dir, plan.name, design, *tasks, a.commandLine, &error))
        return say(ExitFailed, error);
    auto folder = readSweepFolder(dir, &error);
    if (!folder) return say(ExitFailed, error);
    const auto pending = pendingOf(*folder);
    if (pending.empty()) {
        std::printf("all %zu tasks of %s are finished; gather them with: "
                    "attention-explorer-cli sweep collect %s\n",
                    tasks->size(), a.outDir.c_str(), shellQuote(a.outDir).c_str());
        return ExitOk;
    }
    if (!writeArrayScript(dir, plan.name, static_cast<int>(tasks->size()), *res, a, &error))
        return say(ExitFailed, error);
    const std::string array =
        pending.size() == tasks->size() ? "" : arraySpec(pending, res->throttle);
    std::printf("wrote %s/sweep.json, %zu configs in %s/configs and %s/slurm/array.sbatch\n",
                a.outDir.c_str(), tasks->size(), a.outDir.c_str(), a.outDir.c_str());
    std::printf("  --time=%s --mem=%s --cpus-per-task=%d, at most %d tasks at once\n",
                res->time.c_str(), res->mem.c_str(), res->cpus, res->throttle);
    if (!res->how.empty()) std::printf("  defaults %s\n", res->how.c_str());
    if (pending.size() != tasks->size())
        std::printf("  %zu of %zu tasks finished already: submitting the other %zu\n",
                    tasks->size() - pending.size(), tasks->size(), pending.size());
    if (a.dryRun) {
        std::printf("dry run: nothing submitted; submit with:\n  %s\n",
                    sbatchCommand(dir, array).c_str());
        return ExitOk;
    }
    const auto job = submitArray(dir, array, &error);
    if (!job) return say(ExitFailed, error);
    std::printf("submitted job %s (%zu tasks); logs in %s/slurm/logs; when done: "
                "attention-explorer-cli sweep collect %s\n",
                job->c_str(), pending.size(), a.outDir.c_str(), shellQuote(a.outDir).c_str());
    return ExitOk;
}

int runTask(const CliArgs& a, const fs::path& dir) {
    long index = a.index;
    if (index < 0) {
        const char* env = std::getenv("SLURM_ARRAY_TASK_ID");
        char* end = nullptr;
        if (env && *env) index = std::strtol(env, &end, 10);
        if (!env || !*env || *end || index < 0)
            return say(ExitInvalid, "sweep task: give --index I (or run it as a Slurm array "
                                    "task, which sets SLURM_ARRAY_TASK_ID)");
    }
    RunOutcome out;
    std::string error;
    switch (runSweepTask(dir, static_cast<int>(index), a.commandLine, &out, &error)) {
        case TaskRunStatus::Invalid: return say(ExitInvalid, error);
        case TaskRunStatus::WriteFailed: return say(ExitFailed, error);
        case TaskRunStatus::AlreadyDone:
            std::printf("task %ld (%s) finished already (%s); nothing to do\n", index,
                        out.run.name.c_str(), toString(out.result.status));
            return ExitOk;
        case TaskRunStatus::Ran: break;
    }
    std::printf("task %ld (%s): %s after %ld iterations (%.1f s)\n", index, out.run.name.c_str(),
                toString(out.result.status), out.result.iterationsDone, out.result.seconds);
    if (out.result.status == RunStatus::Failed)
        return say(ExitInvalid, "task " + std::to_string(index) + " failed: " + out.error);
    return ExitOk;
}

int collect(const CliArgs& a, const fs::path& dir) {
    std::string error;
    auto folder = readSweepFolder(dir, &error);
    if (!folder) return say(ExitInvalid, error);
    // Tasks of jobs still in the queue are not failed (yet), only missing.
    const auto queued = queuedJobs(recordedJobs(dir));
    if (!queued.empty()) {
        for (int i : folder->failed)
            if (!fs::exists(dir / "runs" / folder->tasks[static_cast<std::size_t>(i)].name /
                            "summary.json"))
                folder->missing.push_back(i);
        std::erase_if(folder->failed, [&](int i) {
            return std::find(folder->missing.begin(), folder->missing.end(), i) !=
                   folder->missing.end();
        });
        std::sort(folder->missing.begin(), folder->missing.end());
    }
    if (!writeSweepResults(*folder, &error)) return say(ExitFailed, error);
    const std::size_t n = folder->tasks.size();
    const auto done = std::count_if(folder->finished.begin(), folder->finished.end(),
                                    [](const RunOutcome& o) {
                                        return o.result.status != RunStatus::Failed;
                                    });
    std::printf("collected %s: %ld of %zu tasks finished; wrote sweep.csv, timing.csv%s and "
                "session.json\n",
                dir.string().c_str(), static_cast<long>(done), n,
                folder->design.fitX.empty() ? "" : ", fit.json");
    SweepDesign shown = folder->design;
    shown.objective = objectiveOf(askOf(a), folder->design.objective);
    if (!folder->finished.empty() &&
        !checkObjectiveMetric(folder->finished.front().run.config.experiment(),
                              shown.objective.metric, &error))
        return say(ExitInvalid, error);
    const auto finished = [&] {
        std::vector<RunOutcome> ok;
        for (const auto& o : folder->finished)
            if (o.result.status != RunStatus::Failed) ok.push_back(o);
        return ok;
    }();
    const auto configs = aggregateConfigs(finished, shown.objective);
    printResults(configs, shown.objective,
                 finished.empty() ? shown.objective.metric
                                  : objectiveMetric(shown.objective, finished.front()),
                 std::any_of(folder->tasks.begin(), folder->tasks.end(),
                             [&](const PlannedRun& t) { return t.label != folder->tasks[0].label; }));
    printFits(finished, folder->design);
    auto list = [&](const char* what, const std::vector<int>& indices) {
        if (indices.empty()) return;
        std::printf("\n%zu %s task%s:\n", indices.size(), what, indices.size() == 1 ? "" : "s");
        for (int i : indices) {
            std::printf("  %4d  %s", i, folder->tasks[static_cast<std::size_t>(i)].name.c_str());
            if (folder->logs.count(i)) std::printf("  (log %s)", folder->logs[i].string().c_str());
            std::printf("\n");
        }
    };
    list("missing", folder->missing);
    list("failed", folder->failed);
    if (!queued.empty()) {
        std::string ids;
        for (const auto& j : queued)
            ids += (ids.empty() ? "" : ", ") + j;
        std::printf("jobs still queued or running: %s\n", ids.c_str());
    }
    const auto pending = pendingOf(*folder);
    if (pending.empty()) return ExitOk;
    if (a.resubmit) {
        if (!queued.empty())
            return say(ExitIncomplete, "--resubmit: jobs of this sweep are still queued or "
                                       "running; wait for them (or scancel them) first");
        if (!fs::exists(dir / "slurm" / "array.sbatch"))
            return say(ExitInvalid, "--resubmit: " + dir.string() +
                                        " has no slurm/array.sbatch (a local sweep: run its "
                                        "sweep command again to resume it)");
        const int throttle = a.arrayThrottle > 0 ? a.arrayThrottle
                                                 : std::min<int>(static_cast<int>(pending.size()), 32);
        const std::string array = arraySpec(pending, throttle);
        if (a.dryRun) {
            std::printf("dry run: resubmit with:\n  %s\n", sbatchCommand(dir, array).c_str());
            return ExitIncomplete;
        }
        const auto job = submitArray(dir, array, &error);
        if (!job) return say(ExitFailed, error);
        std::printf("resubmitted %zu task%s as job %s (--array=%s)\n", pending.size(),
                    pending.size() == 1 ? "" : "s", job->c_str(), array.c_str());
    }
    return ExitIncomplete;
}

}  // namespace

int runSweepCommand(const CliArgs& a, const Plan& plan) {
    if (!a.positional.empty())
        return say(ExitInvalid, "unexpected argument '" + a.positional.front() +
                                    "'; sweep subcommands: sweep task DIR, sweep collect DIR");
    const bool slurm = a.backend == "slurm";
    if (!slurm && (a.dryRun || a.arrayThrottle > 0 || a.cpusPerTask > 0 || !a.time.empty() ||
                   !a.mem.empty() || !a.partition.empty() || !a.account.empty() ||
                   !a.sbatchArgs.empty() || !a.setupCmds.empty()))
        return say(ExitInvalid, "--dry-run, --array-throttle, --time, --mem, --cpus-per-task, "
                                "--partition, --account, --sbatch-arg and --setup-cmd belong to "
                                "--backend slurm");
    std::string error;
    bool presetSweep = false;
    const auto design = sweepDesignOf(plan, askOf(a), &presetSweep, &error);
    if (!design) return say(ExitInvalid, error);
    const auto tasks = expandDesign(plan, *design, &error);
    if (!tasks) return say(ExitInvalid, error);
    noteUnusedKeys(*tasks, *design);
    if (slurm) return runSlurm(a, plan, *design);
    // Before any file is written: a folder holding another sweep is refused.
    if (!fs::exists(fs::path(a.outDir) / "sweep.json") && !prepareOutputFolder(a.outDir, &error))
        return say(ExitFailed, error);
    return runLocal(a, plan, *design);
}

int runSweepSubcommand(const CliArgs& a) {
    const std::string& sub = a.positional.front();
    if (sub != "task" && sub != "collect")
        return say(ExitInvalid, "unknown sweep subcommand '" + sub + "'; give sweep task DIR or "
                                "sweep collect DIR (or options for a new sweep)");
    if (a.positional.size() != 2)
        return say(ExitInvalid, "sweep " + sub + " takes one folder: sweep " + sub + " DIR");
    if (sub == "task") return runTask(a, a.positional[1]);
    return collect(a, a.positional[1]);
}
