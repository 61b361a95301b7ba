#include "training/Trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <utility>

#include "models/Regularizer.h"
#include "training/Optimizer.h"
#include "util/Rng.h"
#include "util/RunControl.h"

namespace ade {

const char* toString(RunStatus s) {
    switch (s) {
        case RunStatus::Completed:
            return "completed";
        case RunStatus::Diverged:
            return "diverged";
        case RunStatus::Cancelled:
            return "cancelled";
        case RunStatus::Failed:
            return "failed";
    }
    return "unknown";
}

int MetricHistory::column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i] == name) return static_cast<int>(i);
    return -1;
}

std::size_t paramBytes(const ParamSet& p) {
    std::size_t entries = 0;
    for (const auto& m : p.mats)
        entries += static_cast<std::size_t>(m.size());
    return entries * sizeof(double);
}

SnapshotPlan SnapshotPlan::make(const Config& config, const ParamSet& p, long iterations,
                                long logEvery) {
    SnapshotPlan plan;
    plan.bytes = std::max<std::size_t>(paramBytes(p), 1);
    const double capBytes = config.getReal("snapshot_mb") * 1024.0 * 1024.0;
    const double fit = std::floor(capBytes / static_cast<double>(plan.bytes));
    plan.count = static_cast<int>(
        std::max(0.0, std::min<double>(static_cast<double>(config.getInt("snapshots")), fit)));
    // Slots: iteration 0, the last state, and count - 2 regular records between them.
    const long between = plan.count - 2;
    const long records = logEvery > 0 ? iterations / logEvery : 0;
    if (between > 0 && records > 0) {
        // The smallest stride (in records) whose regular snapshots before the last iteration
        // fit the `between` slots: about records / (between + 1), so they split the run evenly.
        auto regular = [&](long stride) {
            long n = records / stride;
            if (n * stride * logEvery >= iterations) --n;  // that one is the last state
            return n;
        };
        long stride = (records + between) / (between + 1);
        while (regular(stride) > between)
            ++stride;
        plan.every = stride * logEvery;
    }
    return plan;
}

StopRule StopRule::make(const Config& config, long iterations, long logEvery) {
    StopRule r;
    r.metric = config.getString("stop_metric");
    r.tol = config.getReal("stop_tol");
    r.window = static_cast<long>(config.getInt("stop_window"));
    if (r.window <= 0) r.window = iterations / 10;
    r.window = std::max(r.window, std::max(logEvery, 1L));
    if (r.tol <= 0.0) r.window = 0;
    return r;
}

namespace {
// The larger relative change of the two window pairs at the last of `count` records; `at(k)`
// gives the iteration and the metric of the k-th record from the end.
template <class At>
double windowChange(std::size_t count, long window, At at) {
    if (count == 0 || window <= 0) return std::nan("");
    const double t = at(0).first, w = static_cast<double>(window);
    if (t < 3.0 * w) return std::nan("");
    // Means over the windows (t - w, t], (t - 2w, t - w], (t - 3w, t - 2w], newest first.
    double sum[3] = {0, 0, 0};
    int n[3] = {0, 0, 0};
    for (std::size_t j = 0; j < count; ++j) {
        const auto [it, v] = at(j);
        if (it <= t - 3.0 * w) break;
        const int k = it > t - w ? 0 : it > t - 2.0 * w ? 1 : 2;
        sum[k] += v;
        ++n[k];
    }
    if (n[0] == 0 || n[1] == 0 || n[2] == 0) return std::nan("");
    const double m[3] = {sum[0] / n[0], sum[1] / n[1], sum[2] / n[2]};
    double change = 0;
    for (int k = 0; k < 2; ++k) {
        const double scale = std::max(std::abs(m[k]), std::abs(m[k + 1]));
        if (!std::isfinite(scale)) return std::nan("");
        change = std::max(change, scale > 0 ? std::abs(m[k] - m[k + 1]) / scale : 0.0);
    }
    return change;
}
}  // namespace

double StopRule::change(const MetricHistory& h, int col) const {
    if (col < 0) return std::nan("");
    const std::size_t n = h.rows.size(), c = static_cast<std::size_t>(col);
    return windowChange(n, window, [&](std::size_t k) {
        const auto& row = h.rows[n - 1 - k];
        return std::pair{row[0], row[c]};
    });
}

double StopRule::change(std::span<const double> iterations, std::span<const double> values) const {
    const std::size_t n = std::min(iterations.size(), values.size());
    return windowChange(n, window, [&](std::size_t k) {
        return std::pair{iterations[n - 1 - k], values[n - 1 - k]};
    });
}

Trainer::Trainer(Config config, std::unique_ptr<Problem> problem, std::optional<ParamSet> initial)
    : config_(std::move(config)),
      problem_(std::move(problem)),
      initial_(std::move(initial)),
      regularizer_(makeRegularizer(config_.getString("regularizer"), config_.getReal("lambda"),
                                   config_.getReal("epsilon"))) {}

Trainer::~Trainer() = default;

double Trainer::objective(const ParamSet& p, ParamSet* grad, std::span<const int> units,
                          double* regValue) {
    double q = problem_->loss(p, grad, units);
    double reg = problem_->structuralRegularizer(p, grad);
    if (trainable_.empty()) trainable_ = problem_->trainable(p);
    if (regularizer_)
        for (int i : trainable_) {
            reg += regularizer_->value(p[i]);
            if (grad) regularizer_->addGradient(p[i], (*grad)[i]);
        }
    if (regValue) *regValue = reg;
    return q + reg;
}

RunResult Trainer::run(RunObserver* observer, RunControl* control) {
    using Clock = std::chrono::steady_clock;
    RunResult result;
    const long iterations = static_cast<long>(config_.getInt("iterations"));
    const double lr = config_.getReal("lr");
    const bool backtracking = config_.getString("step_rule") == "backtracking";
    const long renormEvery = static_cast<long>(config_.getInt("renormalize_every"));
    const auto seed = static_cast<std::uint64_t>(config_.getInt("seed"));

    Rng initRng(seed, Rng::Init), optRng(seed, Rng::Optimizer);
    ParamSet p = initial_ ? *initial_ : problem_->initialParams(initRng);
    result.initialParams = p;
    trainable_ = problem_->trainable(p);
    const std::vector<int>& trainable = trainable_;
    auto optimizer = makeOptimizer(config_);

    auto& hist = result.history;
    hist.columns = {"iteration", "time_s"};
    for (auto& m : problem_->metricNames())
        hist.columns.push_back(m);
    hist.columns.push_back("step_size");
    hist.columns.push_back("reg_value");
    hist.columns.push_back("data_passes");
    if (observer) observer->onStart(hist.columns);

    const auto t0 = Clock::now();
    double lastStep = lr;
    // Training work so far, in passes over the training data: every evaluation of the
    // objective on b of the N training units (the gradient step's, and each backtracking
    // trial's) adds b / N. A count, not a clock: the same on every machine.
    double passes = 0.0;
    std::map<std::string, double> values;
    // Where the records go: into the history, or only to an observer that keeps them itself
    // (then the iterations and the stopping rule's metric are all the run keeps of them).
    const bool keepRows = !(observer && observer->keepsRecords());
    long lastRecorded = -1;
    std::vector<double> row, recordedIterations, recordedStopMetric;
    row.reserve(hist.columns.size());
    // The stopping rule's column, set below once the rule is known: after record(0), which
    // never lies in its windows (the rule needs t >= 3w, and 0 <= t - 3w).
    int stopCol = -1;
    // Returns false when the metrics are not finite (divergence).
    auto record = [&](long it) {
        double reg = 0.0;
        const double train = objective(p, nullptr, {}, &reg) - reg;
        values.clear();
        problem_->evaluate(p, train, values);
        row.clear();
        row.push_back(static_cast<double>(it));
        row.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        for (std::size_t c = 2; c + 3 < hist.columns.size(); ++c)
            row.push_back(values.count(hist.columns[c]) ? values[hist.columns[c]] : std::nan(""));
        row.push_back(lastStep);
        row.push_back(reg);
        row.push_back(passes);
        if (!std::isfinite(train) || !std::isfinite(reg)) return false;
        lastRecorded = it;
        if (keepRows) {
            hist.rows.push_back(row);
        } else if (stopCol >= 0) {
            recordedIterations.push_back(row[0]);
            recordedStopMetric.push_back(row[static_cast<std::size_t>(stopCol)]);
        }
        if (observer) observer->onRecord(row);
        return true;
    };
    auto diverge = [&](long it, const std::string& why) {
        result.status = RunStatus::Diverged;
        result.divergedAt = it;
        result.message =
            "diverged at iteration " + std::to_string(it) + ": " + why +
            "; metrics up to iteration " + std::to_string(std::max(lastRecorded, 0L)) +
            " are kept (try a smaller step size or step_rule = backtracking)";
    };

    if (!p.allFinite() || !record(0)) {
        diverge(0, "the initial loss is not finite");
        result.finalParams = p;
        return result;
    }

    // Minibatch order: a fresh permutation of the training units every epoch.
    const int unitsTotal = problem_->trainingUnits();
    const int batch =
        static_cast<int>(std::min<std::int64_t>(config_.getInt("batch"), std::max(unitsTotal, 1)));
    const bool minibatch = optimizer->usesMinibatches() && batch < unitsTotal;
    const double passPerEvaluation =
        minibatch ? static_cast<double>(batch) / std::max(unitsTotal, 1) : 1.0;
    // Automatic logging: about 1000 records, but no more often than keeps the records' cost
    // (full training and test losses) under about half of the training work. Depends on the
    // config only, so the recorded iterations are the same in every run of it.
    long logEvery = static_cast<long>(config_.getInt("log_every"));
    if (logEvery <= 0) {
        const double stepUnits = (minibatch ? batch : unitsTotal) * (backtracking ? 2.0 : 1.0);
        const double costRatio = problem_->evaluationUnits() / std::max(0.5 * stepUnits, 1.0);
        logEvery = std::max<long>({1, iterations / 1000, static_cast<long>(std::ceil(costRatio))});
        logEvery = std::min<long>(logEvery, std::max<long>(1, iterations / 50));  // >= 50 records
    }
    const SnapshotPlan snap = SnapshotPlan::make(config_, p, iterations, logEvery);
    auto snapshot = [&](long it) {
        if (snap.count <= 0) return;
        if (!result.snapshots.empty() && result.snapshots.back().iteration == it) return;
        result.snapshots.push_back(Snapshot{it, p});
        if (observer) observer->onParams(it, p);
    };
    if (snap.takesFirst()) snapshot(0);
    const StopRule stopRule = StopRule::make(config_, iterations, logEvery);
    stopCol = stopRule.on() ? hist.column(stopRule.metric) : -1;
    if (stopRule.on() && stopCol < 0) {  // validateConfig refuses it; a Problem may not record it
        result.status = RunStatus::Failed;
        result.message = "stop_metric '" + stopRule.metric + "' is not recorded by this run";
        result.finalParams = p;
        return result;
    }
    auto windowText = [&] {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "the means of %s over the last three windows of %ld iterations differ by "
                      "at most %.3g (relative) from one window to the next (stop_tol %g)",
                      stopRule.metric.c_str(), stopRule.window, result.stopChange, stopRule.tol);
        return std::string(buf);
    };
    std::vector<int> order(unitsTotal);
    std::iota(order.begin(), order.end(), 0);
    int cursor = unitsTotal;
    std::vector<int> units;

    ParamSet grad = p.zerosLike(), dir = p.zerosLike(), trial = p, previous = p;
    long done = 0;
    for (long it = 1; it <= iterations; ++it) {
        if (control && !control->checkpoint()) {
            result.status = RunStatus::Cancelled;
            result.message = "cancelled at iteration " + std::to_string(it - 1);
            break;
        }
        // A step granted while paused (GUI "Step") is always recorded, so it shows at once.
        const bool stepped = control && control->isPaused();
        problem_->beginIteration(optRng);
        units.clear();
        if (minibatch) {
            if (cursor + batch > unitsTotal) {
                for (int i = unitsTotal - 1; i > 0; --i)
                    std::swap(order[i], order[optRng.below(static_cast<std::uint64_t>(i) + 1)]);
                cursor = 0;
            }
            units.assign(order.begin() + cursor, order.begin() + cursor + batch);
            cursor += batch;
        }
        grad.setZero();
        const double q = objective(p, &grad, units);
        passes += passPerEvaluation;
        if (!std::isfinite(q) || !grad.allFinite()) {
            diverge(it, "the objective or its gradient is not finite");
            break;
        }
        dir = grad;
        problem_->precondition(p, dir);
        optimizer->direction(dir, trainable);

        double eta = lr;
        if (backtracking) {
            // Armijo: halve eta until Q(p - eta dir) <= Q(p) - 1e-4 eta <grad, dir>.
            eta = std::min(lr, 2.0 * lastStep);
            double slope = 0.0;
            for (int i : trainable)
                slope += grad[i].cwiseProduct(dir[i]).sum();
            for (int halvings = 0; halvings < 60; ++halvings) {
                trial = p;
                for (int i : trainable)
                    trial[i].noalias() -= eta * dir[i];
                const double qt = objective(trial, nullptr, units);
                passes += passPerEvaluation;
                if (std::isfinite(qt) && qt <= q - 1e-4 * eta * std::max(slope, 0.0)) break;
                eta *= 0.5;
            }
        }
        previous = p;
        for (int i : trainable)
            p[i].noalias() -= eta * dir[i];
        optimizer->perturb(p, eta, trainable, optRng);
        lastStep = eta;
        if (renormEvery > 0 && it % renormEvery == 0) problem_->renormalize(p);
        if (!p.allFinite()) {
            diverge(it, "the parameters are not finite");
            p = previous;  // the last finite parameters are what is kept
            break;
        }
        done = it;
        if (it % logEvery == 0 || it == iterations || stepped) {
            if (!record(it)) {
                diverge(it, "the loss is not finite");
                p = previous;
                done = it - 1;
                break;
            }
            if (stopRule.on() && it % logEvery == 0) {
                const double change =
                    keepRows ? stopRule.change(hist, stopCol)
                             : stopRule.change(recordedIterations, recordedStopMetric);
                if (std::isfinite(change)) result.stopChange = change;
                if (change < stopRule.tol) {
                    result.stop = "converged";
                    result.message =
                        "converged at iteration " + std::to_string(it) + ": " + windowText();
                    break;
                }
            }
            if (snap.at(it) && it % logEvery == 0 && it != iterations) snapshot(it);
        }
    }
    result.iterationsDone = done;
    if (stopRule.on() && result.status == RunStatus::Completed && result.stop.empty()) {
        result.stop = "cap";
        result.message = "reached the iteration cap (" + std::to_string(iterations) +
                         ") before the stopping rule: " +
                         (std::isfinite(result.stopChange)
                              ? windowText()
                              : "fewer than three windows of " + std::to_string(stopRule.window) +
                                    " iterations were run");
    }
    // Make sure the last state reached is on record (e.g. after a cancel between records).
    if (result.status == RunStatus::Cancelled && lastRecorded >= 0 &&
        lastRecorded != result.iterationsDone)
        record(result.iterationsDone);
    snapshot(result.iterationsDone);  // the last state reached (the last finite parameters)
    result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    result.iterationsPerSecond =
        result.seconds > 0 ? static_cast<double>(result.iterationsDone) / result.seconds : 0.0;
    result.finalParams = p;
    return result;
}

}  // namespace ade
