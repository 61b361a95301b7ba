#pragma once
// The training loop shared by every experiment: (minibatch) gradient of Q = L + R, optional
// preconditioner, optimiser direction, fixed or backtracking step, optional renormalisation,
// metric records, divergence detection, pause/step/stop through RunControl.
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "config/Config.h"
#include "models/ParamSet.h"
#include "training/Inspection.h"
#include "training/Problem.h"

namespace ade {

class RunControl;
class Regularizer;

enum class RunStatus { Completed, Diverged, Cancelled, Failed };
const char* toString(RunStatus s);

struct MetricHistory {
    std::vector<std::string> columns;
    std::vector<std::vector<double>> rows;
    int column(const std::string& name) const;  // -1 when absent
};

struct RunResult {
    RunStatus status = RunStatus::Completed;
    std::string message;  // why it diverged / failed
    long iterationsDone = 0;
    long divergedAt = -1;  // iteration whose step produced NaN/Inf
    double seconds = 0.0;  // wall time of the loop
    double iterationsPerSecond = 0.0;
    // The stopping rule (stop_tol > 0; StopRule): "converged" when it stopped the run, "cap"
    // when the run reached `iterations` first; "" without a rule or when the run ended
    // otherwise (diverged, cancelled). `stopChange` is the last relative change it measured.
    std::string stop;
    double stopChange = std::numeric_limits<double>::quiet_NaN();
    ParamSet initialParams, finalParams;
    MetricHistory history;
    // Parameter snapshots, oldest first (SnapshotPlan): iteration 0, records spread evenly over
    // the run, and the last state reached.
    std::vector<Snapshot> snapshots;
};

// Which iterations a run keeps parameter snapshots of. Decided from the config and the size of
// the parameters only, so one config always snapshots the same iterations: at most `snapshots`
// of them and at most `snapshot_mb` MiB; iteration 0, every `stride`-th regular metric record
// (iterations that are multiples of stride * logEvery), and the last state reached.
struct SnapshotPlan {
    int count = 0;        // the most snapshots a run keeps (0 = none)
    long every = 0;       // snapshot at the regular records whose iteration is a multiple of it
    std::size_t bytes = 0;  // of one snapshot's matrices

    static SnapshotPlan make(const Config& config, const ParamSet& p, long iterations,
                             long logEvery);
    bool takesFirst() const { return count >= 2; }
    bool at(long iteration) const { return every > 0 && iteration > 0 && iteration % every == 0; }
};
// The bytes of the matrices of one ParamSet (8 per entry).
std::size_t paramBytes(const ParamSet& p);

// The stopping rule: with tol > 0 a run stops at the first regular record (iteration t >= 3w)
// where the means of `metric` over the records in the three windows (t - w, t], (t - 2w, t - w]
// and (t - 3w, t - 2w] each differ from the next by less than tol, relative to the larger of the
// two in magnitude (three windows, not two: a metric that rises and falls again, as the excess
// risk of a spectral start does, can have two equal window means on either side of its peak);
// `iterations` is then a cap, and a run that reaches it is "cap", not converged.
// w = stop_window, or a tenth of `iterations` when 0 (the window the runs' floors average), and
// at least one record apart.
struct StopRule {
    std::string metric;
    double tol = 0.0;
    long window = 0;
    static StopRule make(const Config& config, long iterations, long logEvery);
    bool on() const { return tol > 0.0 && window > 0; }
    // The larger relative change of the two window pairs at the last row of `h` (NaN while
    // fewer than 3w iterations are on record); `col` is the metric's column.
    double change(const MetricHistory& h, int col) const;
    // The same over the records' iterations and the metric's values, oldest first.
    double change(std::span<const double> iterations, std::span<const double> values) const;
};

// Receives records as they are made (from the training thread).
class RunObserver {
  public:
    virtual ~RunObserver() = default;
    virtual void onStart(const std::vector<std::string>& /*columns*/) {}
    virtual void onRecord(const std::vector<double>& /*row*/) {}
    virtual void onParams(long /*iteration*/, const ParamSet& /*p*/) {}
    // True when the observer keeps every record itself (the explorer's store): the trainer then
    // keeps none in RunResult::history (its columns are set, its rows stay empty).
    virtual bool keepsRecords() const { return false; }
};

class Trainer {
  public:
    // `initial` overrides the config's initialisation ("same start as another run").
    Trainer(Config config, std::unique_ptr<Problem> problem,
            std::optional<ParamSet> initial = std::nullopt);
    ~Trainer();

    RunResult run(RunObserver* observer = nullptr, RunControl* control = nullptr);

    Problem& problem() { return *problem_; }
    const Config& config() const { return config_; }
    // The objective Q = data loss + regularisers on `units`; gradient when grad != nullptr.
    double objective(const ParamSet& p, ParamSet* grad, std::span<const int> units,
                     double* regValue = nullptr);

  private:
    Config config_;
    std::unique_ptr<Problem> problem_;
    std::optional<ParamSet> initial_;
    std::unique_ptr<Regularizer> regularizer_;
    std::vector<int> trainable_;
};

}  // namespace ade
