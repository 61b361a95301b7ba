#pragma once
// The training loop shared by every experiment: (minibatch) gradient of Q = L + R, optional
// preconditioner, optimiser direction, fixed or backtracking step, optional renormalisation,
// metric records, divergence detection, pause/step/stop through RunControl.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/Config.h"
#include "models/ParamSet.h"
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
    ParamSet initialParams, finalParams;
    MetricHistory history;
};

// Receives records as they are made (from the training thread).
class RunObserver {
  public:
    virtual ~RunObserver() = default;
    virtual void onStart(const std::vector<std::string>& /*columns*/) {}
    virtual void onRecord(const std::vector<double>& /*row*/) {}
    virtual void onParams(long /*iteration*/, const ParamSet& /*p*/) {}
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
