// The Darcy regressor's inspection hooks (training/Inspection.h).
#include <cmath>

#include "experiments/darcy/ExperimentDarcy.h"
#include "training/AttentionWeights.h"

namespace ade {

std::vector<MatrixView> DarcyRegression::matrixViews(const ParamSet& p) {
    const Eigen::MatrixXd& WQ = p[VitRegressor::WQ];
    const Eigen::MatrixXd& WK = p[VitRegressor::WK];
    const Eigen::MatrixXd product = WQ * WK.transpose();
    std::vector<MatrixView> v;
    v.push_back({"W_Q W_Kᵀ", "The product the scores see: (H W_Q)(H W_K)ᵀ / √e (e × e).", 0,
                 product});
    if (stage2_ && start_.size() > static_cast<std::size_t>(VitRegressor::WK)) {
        const Eigen::MatrixXd start = start_[VitRegressor::WQ] * start_[VitRegressor::WK].transpose();
        v.push_back({"W_Q W_Kᵀ (stage 1)", "The product stage 2 started from (after stage 1).", 0,
                     start});
        v.push_back({"W_Q W_Kᵀ − stage 1", "How far stage 2 has moved the product.", 0,
                     product - start});
    }
    v.push_back({"W_Q", "The query matrix (e × e).", 1, WQ});
    v.push_back({"W_K", "The key matrix (e × e).", 1, WK});
    return v;
}

std::optional<AttentionView> DarcyRegression::attentionView(const ParamSet& p, int maxTokens) {
    const PatchTokens& t = task_->test;
    if (t.samples == 0) return std::nullopt;
    const Eigen::Index n = std::min<Eigen::Index>(t.tokens, std::max(1, maxTokens));
    const Eigen::MatrixXd X = t.X.topRows(n);
    // H = X E + 1 b_E; scores (H W_Q)(H W_K)ᵀ / √e.
    const Eigen::MatrixXd H =
        (X * p[VitRegressor::E]).rowwise() + p[VitRegressor::bE].row(0);
    const Eigen::MatrixXd S = (H * p[VitRegressor::WQ]) * (H * p[VitRegressor::WK]).transpose() /
                              std::sqrt(static_cast<double>(model_.width()));
    AttentionView v;
    v.title = "softmax((H W_Q)(H W_K)ᵀ / √e), patches of held-out field 1";
    if (n < t.tokens)
        v.title += " (first " + std::to_string(n) + " of " + std::to_string(t.tokens) +
                   " patches, renormalised)";
    v.title += ". No reference: Darcy has no teacher attention.";
    v.weights = rowSoftmax(S);
    const Eigen::Index P = X.cols() - 2;
    v.featureNames = {"patch index", "patch row", "patch column", "mean coefficient a (normalised)"};
    v.features = {Eigen::VectorXd::LinSpaced(n, 0.0, static_cast<double>(n - 1)), X.col(P),
                  X.col(P + 1), X.leftCols(P).rowwise().mean()};
    return v;
}

std::optional<FactorPlane> DarcyRegression::factorPlane() const {
    return FactorPlane{"‖W_Q‖_F", "‖W_K‖_F", "norm_WQ", "norm_WK"};
}

Eigen::Vector2d DarcyRegression::factorPoint(const ParamSet& p) const {
    return {p[VitRegressor::WQ].norm(), p[VitRegressor::WK].norm()};
}

std::optional<ParamSet> DarcyRegression::orbitMove(const ParamSet& p, double t) const {
    ParamSet q = p;
    q[VitRegressor::WQ] *= std::exp(t);
    q[VitRegressor::WK] *= std::exp(-t);
    return q;
}

}  // namespace ade
