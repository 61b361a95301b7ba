#pragma once
// Experiment A model: f(X)_i = sum_j softmax_j(x_i^T B x_j) A x_j and its finite-data loss
// L_n = 1/(2 P n) sum ||f(X)_i - y_i||^2 with analytic gradients (MODELS.md "Model and
// finite-data loss"). The n x n attention is computed in row blocks, so memory stays
// O(block * n) per thread, never n x n.
#include <Eigen/Dense>
#include <span>
#include <vector>

#include "data/LinearRegressionData.h"
#include "models/Precision.h"

namespace ade {

class WorkerPool;

class SoftmaxAttentionRegression {
  public:
    explicit SoftmaxAttentionRegression(bool excludeSelf = false,
                                        Precision precision = Precision::Float64)
        : excludeSelf_(excludeSelf), precision_(precision) {}

    // Loss over the listed sequences (all when empty); gradients when gA/gB are non-null.
    // The result is bit-identical for any pool size. Under Precision::Float32 the step is
    // computed in single precision on data.Xf / data.Yf (SequenceSet::makeSingleCopies), with
    // A, B rounded to float on entry; the loss and the gradients come back as double.
    double loss(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const SequenceSet& data,
                std::span<const int> units, Eigen::MatrixXd* gA, Eigen::MatrixXd* gB,
                WorkerPool* pool = nullptr) const;

    // Predictions for one sequence (n x k), for tests and exports.
    Eigen::MatrixXd predict(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                            const Eigen::MatrixXd& X) const;

    // Attention weights softmax_j(x_i^T B x_j) of one sequence (n x n; zero diagonal when the
    // model excludes j = i).
    Eigen::MatrixXd attention(const Eigen::MatrixXd& B, const Eigen::MatrixXd& X) const;
    bool excludesSelf() const { return excludeSelf_; }
    Precision precision() const { return precision_; }

    // Rows per block so that a block of the attention matrix stays cache-sized.
    static int blockRows(int n);

  private:
    bool excludeSelf_;
    Precision precision_;
};

}  // namespace ade
