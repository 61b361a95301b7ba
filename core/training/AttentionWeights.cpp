#include "training/AttentionWeights.h"

#include <limits>

namespace ade {

Eigen::MatrixXd rowSoftmax(const Eigen::MatrixXd& scores, bool excludeDiagonal) {
    Eigen::MatrixXd S = scores;
    if (excludeDiagonal && S.rows() > 1)
        S.diagonal().setConstant(-std::numeric_limits<double>::infinity());
    S = (S.colwise() - S.rowwise().maxCoeff()).array().exp().matrix();
    S.array().colwise() /= S.rowwise().sum().array();
    return S;
}

void addTokenFeatures(AttentionView& view, const Eigen::MatrixXd& X) {
    const Eigen::Index n = X.rows();
    view.featureNames.push_back("position i");
    view.features.push_back(Eigen::VectorXd::LinSpaced(n, 0.0, static_cast<double>(n - 1)));
    if (X.cols() > 0) {
        view.featureNames.push_back("x₁ (first coordinate)");
        view.features.push_back(X.col(0));
    }
    view.featureNames.push_back("‖x‖");
    view.features.push_back(X.rowwise().norm());
}

}  // namespace ade
