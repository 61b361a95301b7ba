#pragma once
// Experiment B (Paper B): single-head softmax attention with trainable W_Q, W_K and a fixed
// W_V, on a synthetic teacher task. MODELS.md "Experiment B".
//   F(X) = RowSoftmax(X W_Q W_K^T X^T / sqrt(d_k)) X W_V,
//   loss = 1/(2|D|) sum_(X,Y) ||F(X) - Y||^2.

#include "config/Config.h"
#include "experiments/FactorPairProblem.h"

namespace ade {

class WorkerPool;

// A data set of samples of N tokens each, stacked: X is (samples*N) x d, Y is (samples*N) x d_v.
struct TokenSamples {
    int samples = 0;
    int tokens = 0;
    Eigen::MatrixXd X, Y;
};

// The single-head attention model with fixed W_V (analytic gradients).
class SingleHeadAttention {
  public:
    SingleHeadAttention() = default;
    SingleHeadAttention(Eigen::MatrixXd WV, int dk) : WV_(std::move(WV)), dk_(dk) {}

    // Loss over the listed samples (all when empty); gradients added to gQ, gK when non-null.
    double loss(const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK, const TokenSamples& data,
                std::span<const int> units, Eigen::MatrixXd* gQ, Eigen::MatrixXd* gK,
                WorkerPool* pool = nullptr) const;
    // Outputs for one sample (N x d_v).
    Eigen::MatrixXd predict(const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK,
                            const Eigen::MatrixXd& X) const;
    // Attention weights RowSoftmax(X W_Q W_K^T X^T / sqrt(d_k)) of one sample (N x N).
    Eigen::MatrixXd attention(const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK,
                              const Eigen::MatrixXd& X) const;
    int dk() const { return dk_; }
    const Eigen::MatrixXd& WV() const { return WV_; }

  private:
    Eigen::MatrixXd WV_;
    int dk_ = 1;
};

// The trained pair is (W_Q, W_K), product W_Q W_K^T.
class ExperimentB final : public FactorPairProblem {
  public:
    explicit ExperimentB(const Config& config);
    ~ExperimentB() override;

    ParamSet initialParams(Rng& initRng) override;
    int trainingUnits() const override { return train_.samples; }
    double loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) override;
    std::vector<std::string> metricNames() const override;
    void evaluate(const ParamSet& p, double trainLoss, std::map<std::string, double>& out) override;
    std::vector<NamedArray> dataArrays() const override;
    // W_Q W_K^T beside the teacher's and their difference; W_Q, W_K beside the teacher's.
    std::vector<MatrixView> matrixViews(const ParamSet& p) override;
    // The first held-out sample's attention beside the teacher's.
    std::optional<AttentionView> attentionView(const ParamSet& p, int maxTokens) override;

    const Eigen::MatrixXd& teacherWQ() const { return WQstar_; }
    const Eigen::MatrixXd& teacherWK() const { return WKstar_; }
    const SingleHeadAttention& model() const { return model_; }
    const TokenSamples& testData() const { return test_; }

  private:
    int d_, dk_, dv_, tokens_;
    Eigen::MatrixXd WQstar_, WKstar_;
    SingleHeadAttention model_;
    TokenSamples train_, test_;
};

}  // namespace ade
