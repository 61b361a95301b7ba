#pragma once
// Experiment C (Paper B): LoRA on a depth-2 network, MODELS.md "Experiment C".
//   f(x) = W2 sigma((W_pre + alpha U V) x),  W_pre (h x d), W2 (o x h) frozen,
//   U (h x r), V (r x d) trained; loss = 1/(2n) sum ||f(x) - y||^2.

#include "config/Config.h"
#include "experiments/FactorPairProblem.h"

namespace ade {

class WorkerPool;

enum class Activation { Tanh, Softplus };

class LoraNetwork {
  public:
    LoraNetwork() = default;
    LoraNetwork(Eigen::MatrixXd Wpre, Eigen::MatrixXd W2, double alpha, Activation act)
        : Wpre_(std::move(Wpre)), W2_(std::move(W2)), alpha_(alpha), act_(act) {}

    // X: samples x d, Y: samples x o. Loss over the listed rows (all when empty); gradients
    // added to gU, gV when non-null.
    double loss(const Eigen::MatrixXd& U, const Eigen::MatrixXd& V, const Eigen::MatrixXd& X,
                const Eigen::MatrixXd& Y, std::span<const int> units, Eigen::MatrixXd* gU,
                Eigen::MatrixXd* gV, WorkerPool* pool = nullptr) const;
    // Outputs (samples x o) for inputs X (samples x d).
    Eigen::MatrixXd predict(const Eigen::MatrixXd& U, const Eigen::MatrixXd& V,
                            const Eigen::MatrixXd& X) const;
    const Eigen::MatrixXd& Wpre() const { return Wpre_; }
    const Eigen::MatrixXd& W2() const { return W2_; }
    double alpha() const { return alpha_; }
    Activation activation() const { return act_; }

  private:
    Eigen::MatrixXd Wpre_, W2_;
    double alpha_ = 1.0;
    Activation act_ = Activation::Tanh;
};

// The trained pair is (U, V), product U V = U (V^T)^T.
class ExperimentC final : public FactorPairProblem {
  public:
    explicit ExperimentC(const Config& config);
    ~ExperimentC() override;

    ParamSet initialParams(Rng& initRng) override;
    int trainingUnits() const override { return static_cast<int>(Xtrain_.rows()); }
    double loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) override;
    std::vector<std::string> metricNames() const override;
    void evaluate(const ParamSet& p, double trainLoss, std::map<std::string, double>& out) override;
    std::vector<NamedArray> dataArrays() const override;
    // The LoRA update alpha U V beside its target alpha U* V* and their difference; U, V.
    // No attention view: the network has none.
    std::vector<MatrixView> matrixViews(const ParamSet& p) override;

    const Eigen::MatrixXd& teacherU() const { return Ustar_; }
    const Eigen::MatrixXd& teacherV() const { return Vstar_; }
    const LoraNetwork& network() const { return net_; }

  private:
    int d_, h_, o_, r_;
    Eigen::MatrixXd Ustar_, Vstar_;
    LoraNetwork net_;
    Eigen::MatrixXd Xtrain_, Ytrain_, Xtest_, Ytest_;
};

}  // namespace ade
