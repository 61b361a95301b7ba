// Experiment A's inspection hooks (training/Inspection.h): heatmaps in the factorisation's
// coordinates, the attention of one held-out sequence, the factor plane and the orbit.
#include <cmath>

#include "experiments/a/ExperimentA.h"
#include "training/AttentionWeights.h"

namespace ade {

std::vector<MatrixView> ExperimentA::matrixViews(const ParamSet& p) {
    const Factors f = toFactors(p[0], p[1], truth_.sigmaHalf);
    const Eigen::MatrixXd product = f.L * f.R.transpose();
    const Eigen::MatrixXd target = truth_.M * truth_.sigmaHalf;
    return {
        {"A", "The value/output matrix (k × d).", 0, p[0]},
        {"B", "The merged key-query matrix (d × d): score x_iᵀ B x_j.", 0, p[1]},
        {"L Rᵀ", "The product L Rᵀ = A Σ Bᵀ Σ^{1/2} that the n → ∞ loss sees.", 1, product},
        {"X*", "The target X* = M Σ^{1/2}: every global minimum has L Rᵀ = X*.", 1, target},
        {"L Rᵀ − X*", "Its distance to the target: ½‖L Rᵀ − X*‖² is the excess risk E(θ).", 1,
         product - target}};
}

std::optional<AttentionView> ExperimentA::attentionView(const ParamSet& p, int maxTokens) {
    if (test_.sequences() == 0) return std::nullopt;
    const Eigen::MatrixXd& full = test_.X[0];
    const Eigen::Index n = std::min<Eigen::Index>(full.rows(), std::max(1, maxTokens));
    const Eigen::MatrixXd X = full.topRows(n);
    AttentionView v;
    v.title = "softmax_j(x_iᵀ B x_j), held-out sequence 1";
    if (n < full.rows())
        v.title += " (first " + std::to_string(n) + " of " + std::to_string(full.rows()) +
                   " tokens, renormalised)";
    v.title += ". No n → ∞ attention to compare: the weights spread over all n tokens; only the "
               "output tends to A Σ Bᵀ x_i.";
    v.weights = model_.attention(p[1], X);
    addTokenFeatures(v, X);
    return v;
}

std::optional<FactorPlane> ExperimentA::factorPlane() const {
    return FactorPlane{"‖L‖_F", "‖R‖_F", "norm_L", "norm_R"};
}

Eigen::Vector2d ExperimentA::factorPoint(const ParamSet& p) const {
    const Factors f = toFactors(p[0], p[1], truth_.sigmaHalf);
    return {f.L.norm(), f.R.norm()};
}

std::optional<ParamSet> ExperimentA::orbitMove(const ParamSet& p, double t) const {
    // L = A Σ^{1/2} -> L e^t is A -> e^t A; R = Σ^{1/2} B Σ^{1/2} -> R e^{-t} is B -> e^{-t} B.
    ParamSet q = p;
    q[0] *= std::exp(t);
    q[1] *= std::exp(-t);
    return q;
}

}  // namespace ade
