#include "models/SoftmaxAttentionRegression.h"

#include <algorithm>
#include <limits>

#include "models/SoftmaxAttentionKernels.h"

namespace ade::kernels::attention {
using Table = AttentionKernels;
ADE_KERNEL_CHOOSER
}  // namespace ade::kernels::attention

namespace ade {

int SoftmaxAttentionRegression::blockRows(int n) {
    const int target = 32768 / std::max(n, 1);  // ~256 KiB of doubles per block matrix
    return std::clamp(target, 8, 256);
}

Eigen::MatrixXd SoftmaxAttentionRegression::attention(const Eigen::MatrixXd& B,
                                                      const Eigen::MatrixXd& X) const {
    Eigen::MatrixXd S = (X * B) * X.transpose();
    if (excludeSelf_ && X.rows() > 1)
        S.diagonal().setConstant(-std::numeric_limits<double>::infinity());
    const Eigen::VectorXd mx = S.rowwise().maxCoeff();
    Eigen::MatrixXd W = (S.colwise() - mx).array().exp().matrix();
    W.array().colwise() /= W.rowwise().sum().array();
    return W;
}

Eigen::MatrixXd SoftmaxAttentionRegression::predict(const Eigen::MatrixXd& A,
                                                    const Eigen::MatrixXd& B,
                                                    const Eigen::MatrixXd& X) const {
    return attention(B, X) * X * A.transpose();
}

double SoftmaxAttentionRegression::loss(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                        const SequenceSet& data, std::span<const int> units,
                                        Eigen::MatrixXd* gA, Eigen::MatrixXd* gB,
                                        WorkerPool* pool) const {
    return kernels::attention::running().loss(excludeSelf_, precision_, A, B, data, units, gA, gB,
                                              pool);
}

}  // namespace ade
