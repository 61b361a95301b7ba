#pragma once
// Experiment A (Paper A): softmax self-attention trained on linear regression, with the
// structure-aware algorithm's spectral initialisation, balancing regulariser, Sigmahat-geometry
// preconditioner and renormalisation. MODELS.md "Experiment A".
#include <memory>

#include "config/Config.h"
#include "data/LinearRegressionData.h"
#include "models/Factorization.h"
#include "models/SoftmaxAttentionRegression.h"
#include "training/Problem.h"

namespace ade {

class WorkerPool;

class ExperimentA final : public Problem {
  public:
    explicit ExperimentA(const Config& config);
    ~ExperimentA() override;

    ParamSet initialParams(Rng& initRng) override;
    int trainingUnits() const override { return train_.sequences(); }
    int evaluationUnits() const override { return train_.sequences() + test_.sequences(); }
    double loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) override;
    void beginIteration(Rng& rng) override;
    double structuralRegularizer(const ParamSet& p, ParamSet* grad) override;
    bool hasPreconditioner() const override { return preconditioned_; }
    void precondition(const ParamSet& p, ParamSet& dir) override;
    void renormalize(ParamSet& p) override;
    std::vector<std::string> metricNames() const override;
    void evaluate(const ParamSet& p, double trainLoss, std::map<std::string, double>& out) override;
    std::vector<NamedArray> dataArrays() const override;
    // (e^t A, e^{-t} B), i.e. (L e^t, R e^{-t}) in L = A Σ^{1/2}, R = Σ^{1/2} B Σ^{1/2}: a symmetry
    // of the n → ∞ objective E(θ) only; L_n at finite n changes along it (the softmax sees B).
    std::optional<ParamSet> orbitMove(const ParamSet& p, double t) const override;
    bool orbitIsExactSymmetry() const override { return false; }

    // For tests and the benchmark.
    const RegressionTruth& truth() const { return truth_; }
    const SequenceSet& trainingData() const { return train_; }
    const Eigen::MatrixXd& sigmaHat() const { return sigmaHat_; }
    const Eigen::MatrixXd& crossMoment() const { return crossHat_; }
    const ManifoldDistance& manifold() const { return *manifold_; }
    double irreducibleLoss() const;  // L* = k sigma^2 / 2
    const SoftmaxAttentionRegression& model() const { return model_; }

  private:
    void computeMoments();

    RegressionDataSpec spec_;
    std::string init_;
    double initScale_ = 0.3;
    std::string regularizer_;
    double lambda_ = 0.0;
    bool preconditioned_ = false;
    double damping_ = 1e-3;
    bool fresh_ = false;

    RegressionTruth truth_;
    SequenceSet train_, test_;
    Eigen::MatrixXd sigmaHat_, sigmaHatHalf_, sigmaHatInvHalf_, crossHat_;
    std::unique_ptr<ManifoldDistance> manifold_;
    SoftmaxAttentionRegression model_;
    std::unique_ptr<WorkerPool> pool_;
};

}  // namespace ade
