#pragma once
// The ViT-style attention regressor of Paper B's Darcy experiment (MODELS.md "Darcy flow data
// and the ViT-style attention regressor"). Per sample, with T patch tokens X (T x (p^2 + 2):
// normalised patch pixels and the patch centre):
//   H = X E + 1 b_E,  Q = H W_Q,  K = H W_K,  V = H W_V,
//   Z = H + RowSoftmax(Q K^T / sqrt(e)) V,  Yhat = Z W_O + 1 b_O   (T x p^2),
//   loss = 1/2 mean over samples, tokens and pixels of (Yhat - Y)^2 (normalised units).
#include <Eigen/Dense>

#include <span>

#include "models/ParamSet.h"

namespace ade {

class Rng;
class WorkerPool;

// Samples in token layout: rows [i*T, (i+1)*T) belong to sample i.
struct PatchTokens {
    int samples = 0;
    int tokens = 0;
    Eigen::MatrixXd X;  // (samples*T) x (p^2 + 2)
    Eigen::MatrixXd Y;  // (samples*T) x p^2
};

class VitRegressor {
  public:
    // Indices of the matrices in the ParamSet.
    enum Index { E = 0, bE = 1, WQ = 2, WK = 3, WV = 4, WO = 5, bO = 6 };

    VitRegressor() = default;
    VitRegressor(int inDim, int outDim, int width) : in_(inDim), out_(outDim), width_(width) {}

    // Gaussian weights of variance 1/fan-in, zero biases.
    ParamSet initialParams(Rng& rng) const;

    // Loss over the listed samples (all when empty). Adds gradients to `grad` when non-null:
    // only for W_Q and W_K when `onlyQK` (stage 2), else for every matrix. Fills `prediction`
    // (rows of the listed samples, in order) when non-null. Bit-identical for any pool size.
    double loss(const ParamSet& p, const PatchTokens& data, std::span<const int> units,
                ParamSet* grad, bool onlyQK = false, WorkerPool* pool = nullptr,
                Eigen::MatrixXd* prediction = nullptr) const;

    // Stage 2 (only W_Q, W_K change): per-sample quantities of the frozen weights, so a step
    // costs S = H (W_Q W_K^T) H^T / sqrt(e) and Yhat = (H W_O + b_O) + A (V W_O) only.
    // Row-major, so that each sample's T rows are one contiguous block (minibatches gather
    // random samples).
    using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    struct FrozenParts {
        ParamSet at;     // the parameters they were computed from (W_Q, W_K ignored)
        RowMatrix H;     // (samples*T) x e
        RowMatrix VO;    // (samples*T) x p^2:  H W_V W_O
        RowMatrix base;  // (samples*T) x p^2:  H W_O + b_O
        RowMatrix Y;     // (samples*T) x p^2:  the targets (data.Y)
    };
    FrozenParts freeze(const ParamSet& p, const PatchTokens& data, WorkerPool* pool) const;
    // True when `frozen` was computed from p's frozen weights (all but W_Q, W_K).
    static bool matches(const FrozenParts& frozen, const ParamSet& p);
    // Same value and W_Q, W_K gradients as loss(..., onlyQK = true), from the frozen parts.
    double lossQK(const ParamSet& p, const PatchTokens& data, const FrozenParts& frozen,
                  std::span<const int> units, ParamSet* grad, WorkerPool* pool = nullptr,
                  Eigen::MatrixXd* prediction = nullptr) const;

    int width() const { return width_; }
    int inDim() const { return in_; }
    int outDim() const { return out_; }

  private:
    int in_ = 18, out_ = 16, width_ = 32;
};

}  // namespace ade
