#pragma once
// Paper B's Darcy-flow experiment (MODELS.md "Darcy flow data and the ViT-style attention
// regressor"): data from data/DarcyFlow.h, the regressor of models/VitRegressor.h, stage 1 (Adam
// on every weight, run once and cached) and stage 2 (only W_Q, W_K, driven by the generic
// Trainer).
#include <memory>
#include <string>

#include "config/Config.h"
#include "data/DarcyFlow.h"
#include "models/VitRegressor.h"
#include "training/Problem.h"

namespace ade {

class WorkerPool;

// The prepared data: normalised patch tokens and what is needed to measure errors in
// physical units. Immutable once built; shared by the runs of one process.
struct DarcyTask {
    DarcySpec spec;
    int patch = 4;
    int tokens = 64;
    PatchTokens train, test;
    Eigen::MatrixXd uStd;                 // tokens x p^2: per-pixel std of u (token layout)
    Eigen::VectorXd trainNorm, testNorm;  // ||u|| per sample (physical units)
    double seconds = 0.0;                 // time spent generating (0 when loaded from the cache)
};

// Builds (or loads from the cache) the data of a darcy config.
std::shared_ptr<const DarcyTask> darcyTask(const Config& config, std::string* error);

// Stage-1 weights for a darcy config: from this process's memory, the disk cache, or trained
// now (Adam on all weights for stage1.epochs epochs). `seconds` > 0 when trained now.
std::optional<ParamSet> darcyStage1(const Config& config,
                                    const std::shared_ptr<const DarcyTask>& task,
                                    std::string* error, double* seconds = nullptr);

class DarcyRegression final : public Problem {
  public:
    // stage2: start from `start`, train only W_Q and W_K; otherwise (stage 1) random start,
    // every weight trainable.
    DarcyRegression(std::shared_ptr<const DarcyTask> task, int width, bool stage2, ParamSet start,
                    int threads, std::string regularizer, double lambda);
    ~DarcyRegression() override;

    ParamSet initialParams(Rng& initRng) override;
    std::vector<int> trainable(const ParamSet& p) const override;
    int trainingUnits() const override { return task_->train.samples; }
    double loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) override;
    double structuralRegularizer(const ParamSet& p, ParamSet* grad) override;
    // (e^t W_Q, e^{-t} W_K): the model sees W_Q W_K^T only, so the data loss does not change.
    std::optional<ParamSet> orbitMove(const ParamSet& p, double t) const override;
    bool orbitIsExactSymmetry() const override { return true; }
    std::vector<std::string> metricNames() const override;
    void evaluate(const ParamSet& p, double trainLoss, std::map<std::string, double>& out) override;

    // Test loss, RMSE and mean relative L2 error (physical units) at p.
    struct Errors {
        double loss = 0, rmse = 0, relL2 = 0;
    };
    Errors testErrors(const ParamSet& p);
    const VitRegressor& model() const { return model_; }
    const DarcyTask& task() const { return *task_; }

  private:
    std::shared_ptr<const DarcyTask> task_;
    VitRegressor model_;
    bool stage2_;
    ParamSet start_;
    std::string regularizer_;
    double lambda_;
    std::unique_ptr<WorkerPool> pool_;
    // Stage 2: frozen-weight parts of the training and test sets (recomputed if those weights
    // ever differ from the ones they were made from).
    VitRegressor::FrozenParts trainFrozen_, testFrozen_;
    const VitRegressor::FrozenParts* frozenFor(const ParamSet& p, bool test);
};

}  // namespace ade
