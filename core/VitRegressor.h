#pragma once
// The ViT-style attention regressor of Paper B's Darcy experiment (MODELS.md "Darcy flow data
// and the ViT-style attention regressor"). Per sample, with T patch tokens X (T x (p^2 + 2):
// normalised patch pixels and the patch centre):
//   H = X E + 1 b_E,  Q = H W_Q,  K = H W_K,  V = H W_V,
//   Z = H + RowSoftmax(Q K^T / sqrt(e)) V,  Yhat = Z W_O + 1 b_O   (T x p^2),
//   loss = 1/2 mean over samples, tokens and pixels of (Yhat - Y)^2 (normalised units).
#include <Eigen/Dense>

#include <span>

#include "ParamSet.h"

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

    int width() const { return width_; }

  private:
    int in_ = 18, out_ = 16, width_ = 32;
};

}  // namespace ade
