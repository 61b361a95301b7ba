// The local backend: a sweep's tasks on this machine's threads (runPlanned), resuming from the
// sweep folder, with successive halving when the design asks for it.
#include <algorithm>
#include <cmath>
#include <set>

#include "sweep/Sweep.h"
#include "util/RunControl.h"

namespace ade {

namespace fs = std::filesystem;

std::vector<long> halvingBudgets(const HalvingSpec& halving, long iterations, int configs) {
    const int eta = std::max(2, halving.eta);
    // Rungs while the smallest budget stays >= minIterations (default 100) and every rung
    // but the last has more than one config to halve.
    const long floorBudget = halving.minIterations > 0 ? halving.minIterations : 100;
    int rungs = 1;
    double budget = static_cast<double>(iterations);
    long n = configs;
    while (budget / eta >= static_cast<double>(floorBudget) && n > 1) {
        budget /= eta;
        n = (n + eta - 1) / eta;
        ++rungs;
    }
    std::vector<long> out;
    for (int r = 0; r < rungs; ++r) {
        const double b = static_cast<double>(iterations) / std::pow(eta, rungs - 1 - r);
        out.push_back(r == rungs - 1 ? iterations : std::max(1L, std::lround(b)));
    }
    return out;
}

namespace {

using ConfigKey = std::pair<std::string, std::vector<std::pair<std::string, std::string>>>;

// Runs `tasks` (reading back those already finished in the folder); appends to `all`.
bool runTasks(const std::vector<PlannedRun>& tasks, const std::vector<PlannedRun>& context,
              const Plan& plan, const PlanRunOptions& options, std::vector<RunOutcome>& all,
              SweepLocalStats* stats, std::string* error) {
    std::vector<RunOutcome> done(tasks.size());
    std::vector<bool> have(tasks.size(), false);
    std::vector<PlannedRun> pending;
    std::vector<std::size_t> pendingIndex;
    std::error_code ec;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        if (!options.outDir.empty()) {
            const fs::path runDir = options.outDir / "runs" / tasks[i].name;
            if (fs::exists(runDir / "summary.json", ec)) {
                std::string err;
                auto o = readRunOutcome(runDir, tasks[i], &err);
                if (o && o->result.status != RunStatus::Failed) {
                    done[i] = std::move(*o);
                    have[i] = true;
                    if (stats) ++stats->skipped;
                    continue;
                }
            }
        }
        pending.push_back(tasks[i]);
        pendingIndex.push_back(i);
    }
    PlanRunOptions o = options;
    if (!options.outDir.empty()) o.outDir = options.outDir / "runs";
    o.context = &context;
    auto ran = runPlanned(pending, plan.name, o);
    bool ok = true;
    for (std::size_t k = 0; k < ran.size(); ++k) {
        if (!options.outDir.empty() && ran[k].result.status == RunStatus::Failed && !ran[k].written)
            writeFailedTask(options.outDir, plan.name, ran[k]);
        if (!options.outDir.empty() && !ran[k].written &&
            ran[k].result.status != RunStatus::Cancelled && ok) {
            ok = false;
            if (error) *error = ran[k].error;
        }
        if (stats) ++stats->ran;
        done[pendingIndex[k]] = std::move(ran[k]);
    }
    for (auto& d : done)
        all.push_back(std::move(d));
    return ok;
}

// At the end of a local sweep: the folder's results, read back as collect reads them (so they
// are the same bytes whichever backend ran the tasks).
void writeResults(const PlanRunOptions& options, std::string* error) {
    if (options.outDir.empty() || (options.control && options.control->stopRequested())) return;
    auto folder = readSweepFolder(options.outDir, error);
    if (folder) writeSweepResults(*folder, error);
}

}  // namespace

std::vector<RunOutcome> runSweepLocal(const Plan& plan, const SweepDesign& design,
                                      const PlanRunOptions& options,
                                      std::vector<HalvingRung>* rungs, std::string* error,
                                      SweepLocalStats* stats) {
    if (rungs) rungs->clear();
    auto tasks = expandDesign(plan, design, error);
    if (!tasks) return {};
    std::vector<PlannedRun> base = *tasks;
    std::vector<long> budgets;
    if (design.halving.enabled) {
        if (design.halving.eta < 2) {
            if (error) *error = "successive halving needs eta >= 2";
            return {};
        }
        std::set<long> its;
        for (const auto& t : base)
            its.insert(t.config.getInt("iterations"));
        if (its.size() != 1) {
            if (error) *error = "successive halving needs one iteration count (iterations is varied)";
            return {};
        }
        std::set<ConfigKey> configs;
        for (const auto& t : base)
            configs.insert({t.label, t.varied});
        budgets = halvingBudgets(design.halving, *its.begin(), static_cast<int>(configs.size()));
    }
    // A rung's tasks: the base tasks of the kept configs, with the rung's budget.
    auto rungTasks = [&](int r, const std::set<ConfigKey>* keep) {
        std::vector<PlannedRun> out;
        for (const auto& t : base) {
            if (keep && !keep->count({t.label, t.varied})) continue;
            PlannedRun p = t;
            p.config.setJson("iterations", budgets[static_cast<std::size_t>(r)]);
            p.name = t.name + "_r" + std::to_string(r);
            out.push_back(std::move(p));
        }
        return out;
    };
    std::vector<PlannedRun> known = design.halving.enabled ? rungTasks(0, nullptr) : base;
    if (!options.outDir.empty()) {
        std::error_code ec;
        if (fs::exists(options.outDir / "sweep.json", ec)) {
            std::string why;
            auto existing = readSweepManifest(options.outDir, error);
            if (!existing) return {};
            if (!sameSweep(*existing, plan.name, design, known, &why)) {
                if (error)
                    *error = options.outDir.string() + " holds another sweep (" + why +
                             "): give another --out folder, or delete it";
                return {};
            }
            // Later halving rungs were added to it as they started: keep them (same order).
            for (const auto& t : existing->tasks)
                if (std::none_of(known.begin(), known.end(),
                                 [&](const PlannedRun& k) { return k.name == t.name; }))
                    known.push_back(t);
            if (existing->tasks.size() != known.size() &&
                !writeSweepManifest(options.outDir, plan.name, design, known, options.commandLine,
                                    error))
                return {};
        } else if (!writeSweepManifest(options.outDir, plan.name, design, known,
                                       options.commandLine, error)) {
            return {};
        }
    }
    std::vector<RunOutcome> all;
    if (!design.halving.enabled) {
        if (runTasks(base, base, plan, options, all, stats, error)) writeResults(options, error);
        return all;
    }
    std::set<ConfigKey> keep;
    for (const auto& t : base)
        keep.insert({t.label, t.varied});
    for (int r = 0; r < static_cast<int>(budgets.size()); ++r) {
        const auto rt = rungTasks(r, r == 0 ? nullptr : &keep);
        if (!options.outDir.empty()) {
            bool added = false;
            for (const auto& t : rt)
                if (std::none_of(known.begin(), known.end(),
                                 [&](const PlannedRun& k) { return k.name == t.name; }))
                    known.push_back(t), added = true;
            if (added && !writeSweepManifest(options.outDir, plan.name, design, known,
                                             options.commandLine, error))
                return all;
        }
        std::vector<RunOutcome> rungOut;
        if (!runTasks(rt, rungTasks(r, nullptr), plan, options, rungOut, stats, error)) {
            all.insert(all.end(), rungOut.begin(), rungOut.end());
            return all;
        }
        const auto ranked = aggregateConfigs(rungOut, design.objective);
        HalvingRung row;
        row.iterations = budgets[static_cast<std::size_t>(r)];
        row.configs = static_cast<int>(ranked.size());
        const bool last = r + 1 == static_cast<int>(budgets.size());
        row.kept = last ? 0
                        : std::max(1, static_cast<int>((ranked.size() + design.halving.eta - 1) /
                                                       static_cast<std::size_t>(design.halving.eta)));
        keep.clear();
        for (int k = 0; k < row.kept && k < static_cast<int>(ranked.size()); ++k)
            keep.insert({ranked[static_cast<std::size_t>(k)].label,
                         ranked[static_cast<std::size_t>(k)].values});
        if (rungs) rungs->push_back(row);
        all.insert(all.end(), std::make_move_iterator(rungOut.begin()),
                   std::make_move_iterator(rungOut.end()));
        if (options.control && options.control->stopRequested()) return all;
    }
    writeResults(options, error);
    return all;
}

}  // namespace ade
