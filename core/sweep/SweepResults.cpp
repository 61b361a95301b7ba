// What a tuner asks of a sweep and reads from its outcomes: the design and objective asked for
// (SweepAsk), each config's objective over its seeds (mean, sd) and the ranking, best first.
#include <algorithm>
#include <cmath>
#include <map>

#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"
#include "sweep/Sweep.h"

namespace ade {

Objective objectiveOf(const SweepAsk& ask, Objective o) {
    if (!ask.metric.empty()) o.metric = ask.metric;
    if (!ask.stat.empty()) o.stat = ask.stat;
    if (ask.higherBetter) o.lowerIsBetter = false;
    return o;
}

bool checkObjectiveMetric(const std::string& experiment, const std::string& metric,
                          std::string* error) {
    if (metric.empty()) return true;
    std::string names;
    for (const auto& m : metricsOf(experiment)) {
        if (m.column == metric) return true;
        names += (names.empty() ? "" : ", ") + m.column;
    }
    *error = "--metric: experiment " + experiment + " has no metric '" + metric + "'; it has " +
             names;
    return false;
}

std::optional<SweepDesign> sweepDesignOf(const Plan& plan, const SweepAsk& ask, bool* presetSweep,
                                         std::string* error) {
    SweepDesign d;
    *presetSweep = ask.varies.empty() && plan.sweep.has_value();
    if (*presetSweep) {
        d = designFromSweepSpec(*plan.sweep);
    } else {
        if (ask.varies.empty()) {
            *error = "sweep needs at least one --vary KEY=VALUES (the preset has no sweep)";
            return std::nullopt;
        }
        bool random = false;
        for (const auto& v : ask.varies) {
            auto axis = parseAxis(v, error);
            if (!axis) return std::nullopt;
            random = random || axis->kind == AxisSpec::Kind::Random;
            d.axes.push_back(std::move(*axis));
        }
        // The power law of the first key (the scaling-law view), for grids of numbers.
        if (!random && !ask.halving) {
            d.fitX = d.axes.front().key;
            const ExperimentInfo* info = findExperiment(plan.runs.front().config.experiment());
            d.fitY = plan.sweep ? plan.sweep->fitY
                     : !ask.metric.empty() ? ask.metric
                     : info ? info->headlineMetric : "excess_risk";
        }
    }
    if (ask.seeds > 0) d.seeds = ask.seeds;
    d.samples = ask.samples;
    if (ask.sampleSeed >= 0) d.sampleSeed = static_cast<std::uint64_t>(ask.sampleSeed);
    d.objective = objectiveOf(ask);
    if (!checkObjectiveMetric(plan.runs.front().config.experiment(), d.objective.metric, error))
        return std::nullopt;
    d.halving.enabled = ask.halving;
    if (ask.eta > 0) d.halving.eta = ask.eta;
    d.halving.minIterations = ask.minIterations;
    if (!ask.halving && (ask.eta > 0 || ask.minIterations > 0)) {
        *error = "--eta and --min-iterations belong to --halving";
        return std::nullopt;
    }
    return d;
}

std::string objectiveMetric(const Objective& objective, const RunOutcome& outcome) {
    if (!objective.metric.empty()) return objective.metric;
    // The experiment's headline metric, then the losses (as the CLI's tables).
    std::vector<std::string> candidates;
    if (const ExperimentInfo* info = findExperiment(outcome.run.config.experiment()))
        candidates.push_back(info->headlineMetric);
    candidates.insert(candidates.end(), {"test_loss", "train_loss"});
    for (const auto& m : candidates)
        if (!m.empty() && outcome.result.history.column(m) >= 0) return m;
    if (const ExperimentInfo* info = findExperiment(outcome.run.config.experiment()))
        return info->headlineMetric;
    return "train_loss";
}

double objectiveValue(const RunOutcome& outcome, const Objective& objective) {
    const auto s = summaryMetrics(outcome.result.history);
    const std::string metric = objectiveMetric(objective, outcome);
    if (!s.contains(objective.stat) || !s[objective.stat].contains(metric)) return NAN;
    const auto& v = s[objective.stat][metric];
    if (!v.is_number()) return NAN;
    // "best" in summaryMetrics is the minimum; a higher-is-better objective's best is the max.
    if (objective.stat == "best" && !objective.lowerIsBetter) {
        const int c = outcome.result.history.column(metric);
        double best = -INFINITY;
        for (const auto& row : outcome.result.history.rows)
            if (std::isfinite(row[c])) best = std::max(best, row[c]);
        return std::isfinite(best) ? best : NAN;
    }
    return v.get<double>();
}

int rungOfTask(const std::string& name) {
    const auto p = name.rfind("_r");
    if (p == std::string::npos || p + 2 >= name.size()) return -1;
    int r = 0;
    for (std::size_t i = p + 2; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9') return -1;
        r = r * 10 + (name[i] - '0');
    }
    return r;
}

bool configRanksBefore(const ConfigResult& a, const ConfigResult& b, bool lowerIsBetter) {
    const bool va = std::isfinite(a.mean), vb = std::isfinite(b.mean);
    if (va != vb) return va;
    if (!va) return false;
    if (a.iterations != b.iterations) return a.iterations > b.iterations;
    if ((a.seedsFailed > 0) != (b.seedsFailed > 0)) return b.seedsFailed > 0;
    return lowerIsBetter ? a.mean < b.mean : a.mean > b.mean;
}

std::vector<ConfigResult> aggregateConfigs(const std::vector<RunOutcome>& outcomes,
                                           const Objective& objective) {
    using Key = std::pair<std::string, std::vector<std::pair<std::string, std::string>>>;
    std::map<Key, std::size_t> index;
    std::vector<ConfigResult> configs;
    std::vector<std::vector<const RunOutcome*>> members;
    for (const auto& o : outcomes) {
        const Key key{o.run.label, o.run.varied};
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, configs.size()).first;
            ConfigResult c;
            c.label = o.run.label;
            c.values = o.run.varied;
            configs.push_back(std::move(c));
            members.emplace_back();
        }
        members[it->second].push_back(&o);
    }
    for (std::size_t i = 0; i < configs.size(); ++i) {
        ConfigResult& c = configs[i];
        // Successive halving: a config's result is its latest (largest) rung.
        long budget = 0;
        for (const RunOutcome* o : members[i])
            budget = std::max<long>(budget, o->run.config.getInt("iterations"));
        c.iterations = budget;
        for (const RunOutcome* o : members[i]) {
            if (o->run.config.getInt("iterations") != budget) continue;
            c.rung = std::max(c.rung, rungOfTask(o->run.name));
            const RunStatus st = o->result.status;
            if (st == RunStatus::Diverged || st == RunStatus::Failed) {
                ++c.seedsFailed;
                continue;
            }
            if (st != RunStatus::Completed) continue;
            const double v = objectiveValue(*o, objective);
            const long done = o->result.iterationsDone;
            c.doneMin = c.seedsDone == 0 ? done : std::min(c.doneMin, done);
            c.doneMax = c.seedsDone == 0 ? done : std::max(c.doneMax, done);
            ++c.seedsDone;
            if (o->result.stop == "cap") ++c.seedsCapped;
            if (o->result.stop == "converged") ++c.seedsConverged;
            if (o->result.stop == "pruned") ++c.seedsPruned;
            c.runNames.push_back(o->run.name);
            if (std::isfinite(v)) c.perSeed.push_back(v);
        }
        if (!c.perSeed.empty()) {
            double m = 0, ss = 0;
            for (double v : c.perSeed)
                m += v;
            m /= static_cast<double>(c.perSeed.size());
            for (double v : c.perSeed)
                ss += (v - m) * (v - m);
            c.mean = m;
            c.sd = c.perSeed.size() > 1 ? std::sqrt(ss / static_cast<double>(c.perSeed.size() - 1))
                                        : 0.0;
        }
    }
    // Best first, compared only at equal budget (values at different budgets do not compare):
    // configs with a value before those without; among them a config that ran a larger budget
    // (a later rung of successive halving, which kept it) before one stopped earlier, whatever
    // either's value or failed seeds; at one budget, those without a failed seed before those
    // with one (diverged on some seed), then by the objective; ties keep the sweep's order.
    std::stable_sort(configs.begin(), configs.end(),
                     [&](const ConfigResult& a, const ConfigResult& b) {
                         return configRanksBefore(a, b, objective.lowerIsBetter);
                     });
    return configs;
}

}  // namespace ade
