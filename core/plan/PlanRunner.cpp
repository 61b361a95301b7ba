#include "plan/PlanRunner.h"

#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"
#include "plan/ScalingModels.h"
#include "util/Rng.h"
#include "util/RunControl.h"

namespace ade {

std::vector<PlannedRun> withSeeds(const std::vector<PlannedRun>& runs, int seeds) {
    if (seeds <= 1) return runs;
    std::vector<PlannedRun> out;
    out.reserve(runs.size() * static_cast<std::size_t>(seeds));
    for (int s = 0; s < seeds; ++s)
        for (const auto& r : runs) {
            PlannedRun p = r;
            const auto seed = r.config.getInt("seed") + s;
            p.config.setJson("seed", seed);
            p.name = safeName(r.label + "_seed" + std::to_string(seed));
            p.seedIndex = s;
            out.push_back(std::move(p));
        }
    return out;
}

std::vector<PlannedRun> plainRuns(const Plan& plan) {
    std::vector<PlannedRun> runs;
    for (const auto& r : plan.runs)
        runs.push_back(PlannedRun{r.name, r.name, r.config, {}, 0});
    return withSeeds(runs, plan.seeds);
}

SessionRun sessionRunOf(const RunOutcome& o, int seeds) {
    SessionRun s = sessionRunFrom(o.run.name, o.run.config, o.result);
    if (seeds > 1 && o.run.varied.empty()) {
        s.group = o.run.label;
        s.seedIndex = o.run.seedIndex;
    }
    return s;
}

std::vector<ClaimRun> claimRuns(const std::vector<RunOutcome>& outcomes) {
    std::vector<ClaimRun> out;
    for (const auto& o : outcomes)
        out.push_back({o.run.label, o.run.config.getInt("seed"), o.run.varied, &o.result.history,
                       true, &o.run.config, o.result.stop == "cap"});
    return out;
}

std::optional<std::vector<PlannedRun>> expandSweep(const Plan& plan, const SweepSpec& sweep,
                                                   std::string* error) {
    std::vector<PlannedRun> points;
    std::vector<std::size_t> idx(sweep.vary.size(), 0);
    for (;;) {
        for (int s = 0; s < sweep.seeds; ++s) {
            for (const auto& run : plan.runs) {
                PlannedRun p{run.name, run.name, run.config, {}, s};
                std::string suffix;
                for (std::size_t v = 0; v < sweep.vary.size(); ++v) {
                    const auto& [key, values] = sweep.vary[v];
                    if (auto e = p.config.setText(key, values[idx[v]])) {
                        if (error) *error = "--vary: " + e->message;
                        return std::nullopt;
                    }
                    p.varied.emplace_back(key, values[idx[v]]);
                    suffix += "_" + key + "=" + values[idx[v]];
                }
                const auto seed = run.config.getInt("seed") + s;
                p.config.setJson("seed", seed);
                p.name = safeName(run.name + suffix + "_seed" + std::to_string(seed));
                const auto errors = validateConfig(p.config);
                if (!errors.empty()) {
                    if (error) *error = p.name + ": " + errors.front().message;
                    return std::nullopt;
                }
                points.push_back(std::move(p));
            }
        }
        std::size_t v = 0;
        for (; v < idx.size(); ++v) {
            if (++idx[v] < sweep.vary[v].second.size()) break;
            idx[v] = 0;
        }
        if (v == idx.size()) break;
    }
    return points;
}

std::optional<ParamSet> resolveSameStart(const std::vector<PlannedRun>& runs, const PlannedRun& run,
                                         std::string* error) {
    const PlannedRun* cur = &run;
    std::set<std::string> visited;
    while (cur->config.getString("init") == "same") {
        if (!visited.insert(cur->label).second) {
            if (error) *error = "run '" + run.label + "': init = same forms a cycle";
            return std::nullopt;
        }
        const std::string from = cur->config.getString("init_from");
        const PlannedRun* next = nullptr;
        // Prefer the grid point with the same varied values and seed.
        for (const auto& r : runs)
            if (r.label == from && r.varied == run.varied &&
                r.config.getInt("seed") == run.config.getInt("seed"))
                next = &r;
        if (!next)
            for (const auto& r : runs)
                if (r.label == from) next = &r;
        if (!next) {
            if (error) *error = "run '" + run.label + "': init_from '" + from + "' is not a run";
            return std::nullopt;
        }
        cur = next;
    }
    auto problem = makeProblem(cur->config, error);
    if (!problem) return std::nullopt;
    Rng initRng(static_cast<std::uint64_t>(cur->config.getInt("seed")), Rng::Init);
    ParamSet p = problem->initialParams(initRng);
    // Shapes must match the run that reuses them.
    auto mine = makeProblem(run.config, error);
    if (!mine) return std::nullopt;
    Rng probe(0, Rng::Init);
    const ParamSet shape = mine->initialParams(probe);
    for (std::size_t i = 0; i < p.size(); ++i)
        if (i >= shape.size() || p[i].rows() != shape[i].rows() || p[i].cols() != shape[i].cols()) {
            if (error)
                *error = "run '" + run.label + "': init_from '" + cur->label +
                         "' has parameters of another shape (different dimensions)";
            return std::nullopt;
        }
    return p;
}

namespace {

class ProgressObserver final : public RunObserver {
  public:
    ProgressObserver(int index, long iterations, const PlanRunOptions& o)
        : index_(index), iterations_(iterations), options_(o) {}
    void onStart(const std::vector<std::string>& columns) override { columns_ = columns; }
    void onRecord(const std::vector<double>& row) override {
        if (options_.progress)
            options_.progress({index_, static_cast<long>(row[0]), iterations_, &row, &columns_});
    }

  private:
    std::vector<std::string> columns_;
    int index_;
    long iterations_;
    const PlanRunOptions& options_;
};

}  // namespace

std::vector<RunOutcome> runPlanned(const std::vector<PlannedRun>& runs, const std::string& planName,
                                   const PlanRunOptions& options) {
    std::vector<RunOutcome> outcomes(runs.size());
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= runs.size()) return;
            RunOutcome& out = outcomes[i];
            out.run = runs[i];
            if (options.control && options.control->stopRequested()) {
                out.result.status = RunStatus::Cancelled;
                out.result.message = "not started (cancelled)";
                continue;
            }
            std::string error;
            std::optional<ParamSet> initial;
            if (runs[i].config.getString("init") == "same") {
                initial = resolveSameStart(options.context ? *options.context : runs, runs[i],
                                           &error);
                if (!initial) {
                    out.result.status = RunStatus::Failed;
                    out.error = out.result.message = error;
                    if (options.finished) options.finished(out);
                    continue;
                }
            }
            std::unique_ptr<Trainer> trainer;
            {
                AmbientRunControl ambient(options.control);  // Ctrl-C reaches set-up work too
                trainer = makeTrainer(runs[i].config, &error, initial);
            }
            if (!trainer) {
                out.result.status = options.control && options.control->stopRequested()
                                        ? RunStatus::Cancelled
                                        : RunStatus::Failed;
                out.error = out.result.message = error;
                if (options.finished) options.finished(out);
                continue;
            }
            ProgressObserver obs(static_cast<int>(i),
                                 static_cast<long>(runs[i].config.getInt("iterations")), options);
            out.result = trainer->run(&obs, options.control);
            if (!options.keepSnapshots) std::vector<Snapshot>().swap(out.result.snapshots);
            if (!options.outDir.empty()) {
                std::vector<NamedArray> data;
                if (options.saveData) data = trainer->problem().dataArrays();
                const auto files =
                    writeRunFolder(options.outDir / runs[i].name, runs[i].name, planName,
                                   runs[i].config, out.result, options.commandLine, data);
                out.written = files.ok;
                if (!files.ok) out.error = files.error;
            }
            if (options.finished) options.finished(out);
        }
    };
    const int jobs = std::max(1, std::min<int>(options.jobs, static_cast<int>(runs.size())));
    std::vector<std::thread> threads;
    for (int j = 1; j < jobs; ++j)
        threads.emplace_back(worker);
    worker();
    for (auto& t : threads)
        t.join();
    return outcomes;
}

std::string sweepCsv(const std::vector<RunOutcome>& outcomes) {
    if (outcomes.empty()) return "";
    std::vector<std::string> varied;
    for (const auto& [k, v] : outcomes.front().run.varied)
        varied.push_back(k);
    // Metric columns: union over outcomes, in first-seen order; not the wall time (time_s),
    // which no seed reproduces (timingCsv has the runs' times).
    std::vector<std::string> metrics;
    std::set<std::string> seen = {"time_s"};
    for (const auto& o : outcomes)
        for (std::size_t c = 1; c < o.result.history.columns.size(); ++c)
            if (seen.insert(o.result.history.columns[c]).second)
                metrics.push_back(o.result.history.columns[c]);
    std::string out = "run,label";
    for (const auto& k : varied)
        out += "," + k;
    out += ",seed,status,iterations_done,stop";
    for (const auto& m : metrics)
        out += ",final_" + m + ",best_" + m + ",floor_" + m;
    out += "\n";
    for (const auto& o : outcomes) {
        out += o.run.name + "," + o.run.label;
        for (const auto& [k, v] : o.run.varied)
            out += "," + v;
        out += "," + std::to_string(o.run.config.getInt("seed")) + "," + toString(o.result.status) +
               "," + std::to_string(o.result.iterationsDone) + "," +
               (o.result.stop.empty() ? std::string("none") : o.result.stop);
        const auto s = summaryMetrics(o.result.history);
        for (const auto& m : metrics)
            for (const char* stat : {"final", "best", "floor"}) {
                const auto& v = s[stat].contains(m) ? s[stat][m] : nlohmann::json();
                out += "," + (v.is_number() ? formatNumber(v.get<double>()) : std::string("nan"));
            }
        out += "\n";
    }
    return out;
}

std::string timingCsv(const std::vector<RunOutcome>& outcomes) {
    std::string out = "run,label,seconds,iterations_per_second\n";
    for (const auto& o : outcomes)
        out += o.run.name + "," + o.run.label + "," + formatNumber(o.result.seconds) + "," +
               formatNumber(o.result.iterationsPerSecond) + "\n";
    return out;
}

std::vector<PowerLawFit> fitPowerLaw(const std::vector<RunOutcome>& outcomes,
                                     const std::string& xKey, const std::string& yMetric,
                                     const std::string& stat) {
    // label -> x -> list of log y
    std::map<std::string, std::map<double, std::vector<double>>> groups;
    std::vector<std::string> order;
    for (const auto& [label, pts] : scalingPoints(outcomes, xKey, yMetric, stat)) {
        order.push_back(label);
        for (const auto& [x, y] : pts)
            groups[label][x].push_back(std::log(y));
    }
    std::vector<PowerLawFit> fits;
    for (const auto& label : order) {
        PowerLawFit f;
        f.series = label;
        std::vector<double> lx, ly;
        for (const auto& [x, logs] : groups[label]) {
            double m = 0;
            for (double l : logs)
                m += l;
            m /= static_cast<double>(logs.size());
            lx.push_back(std::log(x));
            ly.push_back(m);
            f.xy.emplace_back(x, std::exp(m));
        }
        f.points = static_cast<int>(lx.size());
        if (f.points >= 2) {
            double mx = 0, my = 0;
            for (int i = 0; i < f.points; ++i)
                mx += lx[i], my += ly[i];
            mx /= f.points;
            my /= f.points;
            double sxx = 0, sxy = 0, syy = 0;
            for (int i = 0; i < f.points; ++i) {
                sxx += (lx[i] - mx) * (lx[i] - mx);
                sxy += (lx[i] - mx) * (ly[i] - my);
                syy += (ly[i] - my) * (ly[i] - my);
            }
            f.slope = sxx > 0 ? sxy / sxx : 0;
            f.intercept = my - f.slope * mx;
            f.r2 = (sxx > 0 && syy > 0) ? (sxy * sxy) / (sxx * syy) : 1.0;
        }
        fits.push_back(f);
    }
    return fits;
}

}  // namespace ade
