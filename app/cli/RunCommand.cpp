// `run` (and `sweep` without a sub-command): a preset's or config's runs, one after the other
// or J at a time, their outputs, the results table and the preset's claims; a plan with a
// sweep, or `sweep`, goes to SweepCommand.cpp.
#include "RunCommand.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>

#include "Interrupt.h"
#include "ProgressBar.h"
#include "SweepCommand.h"
#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"
#include "output/Session.h"
#include "plan/PlanRunner.h"
#include "util/RunControl.h"

using namespace ade;

namespace {

int invalid(const std::string& message) {
    std::cerr << "attention-explorer-cli: " << message << "\n";
    return ExitInvalid;
}

// A file could not be written (exit status 4).
int failed(const std::string& message) {
    std::cerr << "attention-explorer-cli: " << message << "\n";
    return ExitFailed;
}

std::optional<Plan> loadPlan(const CliArgs& a, const PresetLibrary& lib, std::string* error) {
    if (a.preset.empty() == a.configFile.empty()) {
        *error = "give exactly one of --preset NAME or --config FILE.json";
        return std::nullopt;
    }
    PlanError pe;
    auto plan = a.preset.empty() ? loadPlanFile(a.configFile, a.sets, &pe)
                                 : lib.load(a.preset, a.sets, &pe);
    if (!plan) *error = pe.message;
    return plan;
}

// The experiment's headline metric (ExperimentInfo::headlineMetric), then the losses.
std::vector<std::string> headlineCandidates(const std::string& experiment) {
    std::vector<std::string> out = {"test_loss", "train_loss"};
    if (const ExperimentInfo* info = findExperiment(experiment))
        out.insert(out.begin(), info->headlineMetric);
    return out;
}

std::string metricDetail(const std::string& experiment, const std::vector<std::string>& columns,
                         const std::vector<double>* row) {
    if (!row) return "";
    std::ostringstream s;
    for (const std::string& m : headlineCandidates(experiment)) {
        for (std::size_t c = 0; c < columns.size(); ++c)
            if (columns[c] == m) {
                s << m << " " << formatNumber((*row)[c]).substr(0, 10);
                return s.str();
            }
    }
    return "";
}

// Runs planned runs with progress and writes outputs; returns the exit code.
int execute(const std::vector<PlannedRun>& runs, const Plan& plan, const CliArgs& a, int jobs,
            std::vector<RunOutcome>* outcomesOut, bool keepSnapshots) {
    RunControl control;
    const StopOnInterrupt stopOnInterrupt(control);

    ProgressBar bar(!a.quiet);
    std::mutex mutex;
    int finished = 0;
    std::vector<std::string> columns;
    PlanRunOptions o;
    o.outDir = a.outDir;
    o.jobs = jobs;
    o.saveData = a.saveData;
    o.commandLine = a.commandLine;
    o.control = &control;
    o.keepSnapshots = keepSnapshots;
    const int total = static_cast<int>(runs.size());
    o.progress = [&](const ProgressEvent& e) {
        const double frac =
            e.iterations > 0 ? static_cast<double>(e.iteration) / e.iterations : 1.0;
        std::string label;
        {
            std::lock_guard lock(mutex);
            label = total == 1 ? runs[e.runIndex].name
                               : "[" + std::to_string(finished) + "/" + std::to_string(total) +
                                     " done] " + runs[e.runIndex].name;
        }
        std::string detail = std::to_string(e.iteration) + "/" + std::to_string(e.iterations);
        (void)columns;
        bar.update(label, frac, detail);
    };
    o.finished = [&](const RunOutcome& out) {
        std::lock_guard lock(mutex);
        ++finished;
        std::ostringstream s;
        s << out.run.name << ": " << toString(out.result.status) << " after "
          << out.result.iterationsDone << " iterations ("
          << static_cast<long>(out.result.iterationsPerSecond) << " it/s)";
        if (!out.result.history.rows.empty())
            s << ", " << metricDetail(out.run.config.experiment(), out.result.history.columns, &out.result.history.rows.back());
        if (!out.result.message.empty() && out.result.status != RunStatus::Completed)
            s << " - " << out.result.message;
        if (!out.error.empty() && out.result.status == RunStatus::Completed)
            s << " - " << out.error;
        bar.finish(s.str());
    };
    auto outcomes = runPlanned(runs, plan.name, o);

    int code = ExitOk;
    bool diverged = false, writeFailed = false;
    for (const auto& out : outcomes) {
        if (out.result.status == RunStatus::Diverged) diverged = true;
        if (out.result.status == RunStatus::Failed) {
            std::cerr << "attention-explorer-cli: " << out.run.name << ": " << out.error << "\n";
            code = ExitInvalid;
        }
        if (!a.outDir.empty() && !out.written && out.result.status != RunStatus::Failed &&
            !(out.result.status == RunStatus::Cancelled && out.result.history.rows.empty())) {
            std::cerr << "attention-explorer-cli: " << out.error << "\n";
            writeFailed = true;
        }
    }
    if (outcomesOut) *outcomesOut = std::move(outcomes);
    if (interrupted()) {
        std::cerr << "attention-explorer-cli: interrupted; results computed so far are in "
                  << a.outDir << "\n";
        return ExitInterrupted;
    }
    if (code != ExitOk) return code;
    if (writeFailed) return ExitFailed;
    if (diverged) return ExitDiverged;
    return ExitOk;
}

// The headline metric of a run: its experiment's (excess risk for A, test RMSE for Darcy, the
// test loss for B and C), else a loss.
int headlineColumn(const RunOutcome& o) {
    for (const std::string& m : headlineCandidates(o.run.config.experiment()))
        if (o.result.history.column(m) >= 0) return o.result.history.column(m);
    return -1;
}

void printTable(const std::vector<RunOutcome>& outcomes) {
    std::string metric = "metric";
    for (const auto& o : outcomes)
        if (const int c = headlineColumn(o); c >= 0) {
            metric = o.result.history.columns[c];
            break;
        }
    std::printf("%-28s %-10s %8s %10s %18s %18s\n", "run", "status", "iters", "it/s",
                (metric + " first").c_str(), (metric + " last").c_str());
    for (const auto& o : outcomes) {
        const auto& h = o.result.history;
        const int c = headlineColumn(o);
        const bool have = !h.rows.empty() && c >= 0;
        std::printf("%-28s %-10s %8ld %10.0f %18.6g %18.6g\n", o.run.name.c_str(),
                    toString(o.result.status), o.result.iterationsDone,
                    o.result.iterationsPerSecond, have ? h.rows.front()[c] : NAN,
                    have ? h.rows.back()[c] : NAN);
    }
}

// With several seeds: per run of the preset, the headline metric's first and last values as
// mean ± sd over its seeds.
void printSeedTable(const std::vector<RunOutcome>& outcomes) {
    std::vector<std::string> labels;
    std::map<std::string, std::vector<const RunOutcome*>> byLabel;
    for (const auto& o : outcomes) {
        if (!byLabel.count(o.run.label)) labels.push_back(o.run.label);
        byLabel[o.run.label].push_back(&o);
    }
    auto meanSd = [](const std::vector<double>& v) {
        double m = 0, ss = 0;
        for (double x : v)
            m += x;
        m /= static_cast<double>(v.size());
        for (double x : v)
            ss += (x - m) * (x - m);
        const double sd = v.size() > 1 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) : 0;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.4g ± %.2g", m, sd);
        return std::string(buf);
    };
    std::string metric;
    for (const auto& o : outcomes)
        if (const int c = headlineColumn(o); c >= 0 && metric.empty())
            metric = o.result.history.columns[c];
    std::printf("\n%-28s %6s %22s %22s\n", "run (over seeds)", "seeds", (metric + " first").c_str(),
                (metric + " last").c_str());
    for (const auto& label : labels) {
        std::vector<double> first, last;
        for (const RunOutcome* o : byLabel[label]) {
            const int c = headlineColumn(*o);
            if (c < 0 || o->result.history.rows.empty()) continue;
            first.push_back(o->result.history.rows.front()[c]);
            last.push_back(o->result.history.rows.back()[c]);
        }
        if (first.empty()) continue;
        std::printf("%-28s %6zu %22s %22s\n", label.c_str(), first.size(), meanSd(first).c_str(),
                    meanSd(last).c_str());
    }
}

}  // namespace

int runPlanCommand(const CliArgs& a, const PresetLibrary& lib) {
    std::string error;
    if (a.outDir.empty()) return invalid("--out DIR is required");
    auto plan = loadPlan(a, lib, &error);
    if (!plan) return invalid(error);

    // A preset that defines a sweep runs its sweep (run; --vary is sweep's only, Commands.cpp);
    // sweep options: SweepCommand.cpp.
    if (a.command == "sweep" || plan->sweep) return runSweepCommand(a, *plan);

    if (a.seeds > 0) plan->seeds = a.seeds;
    if (!prepareOutputFolder(a.outDir, &error)) return failed(error);
    std::vector<RunOutcome> outcomes;
    // --jobs J: J of the comparison's runs at a time (default 1: one after the other). Results
    // do not depend on it (each run has its own seed and start; init = same recomputes the
    // start of the run it names).
    int code = execute(plainRuns(*plan), *plan, a, std::max(1, a.jobs), &outcomes, true);
    if (code != ExitInvalid) {
        // All runs in one session file: the GUI opens it, `figure --session` renders it.
        Session session;
        session.preset = plan->name;
        for (const auto& o : outcomes)
            if (!o.result.history.rows.empty())
                session.runs.push_back(sessionRunOf(o, plan->seeds));
        std::string err;
        if (!writeSessionFile(std::filesystem::path(a.outDir) / "session.json", session, true,
                              &err)) {
            std::cerr << "attention-explorer-cli: " << err << "\n";
            if (code == ExitOk) code = ExitFailed;
        }
    }
    if (!a.quiet || code == ExitOk) printTable(outcomes);
    if ((!a.quiet || code == ExitOk) && plan->seeds > 1) printSeedTable(outcomes);
    if (!plan->claims.empty() && code != ExitInvalid) printClaims(*plan, outcomes, plan->seeds);
    return code;
}
