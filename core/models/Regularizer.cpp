#include "models/Regularizer.h"

#include <cmath>

namespace ade {

double L2Regularizer::value(const Eigen::MatrixXd& W) const {
    return lambda_ * W.squaredNorm();
}
void L2Regularizer::addGradient(const Eigen::MatrixXd& W, Eigen::MatrixXd& g) const {
    g.noalias() += 2.0 * lambda_ * W;
}

double LogAmplifiedRegularizer::value(const Eigen::MatrixXd& W) const {
    const double s = W.squaredNorm();
    return lambda_ * s * std::log1p(s);
}
void LogAmplifiedRegularizer::addGradient(const Eigen::MatrixXd& W, Eigen::MatrixXd& g) const {
    const double s = W.squaredNorm();
    g.noalias() += 2.0 * lambda_ * (std::log1p(s) + s / (1.0 + s)) * W;
}

double PowerRegularizer::value(const Eigen::MatrixXd& W) const {
    return lambda_ * std::pow(W.squaredNorm(), 1.0 + 0.5 * epsilon_);
}
void PowerRegularizer::addGradient(const Eigen::MatrixXd& W, Eigen::MatrixXd& g) const {
    g.noalias() += lambda_ * (2.0 + epsilon_) * std::pow(W.norm(), epsilon_) * W;
}

std::unique_ptr<Regularizer> makeRegularizer(const std::string& name, double lambda,
                                             double epsilon) {
    if (name == "l2") return std::make_unique<L2Regularizer>(lambda);
    if (name == "log_amplified") return std::make_unique<LogAmplifiedRegularizer>(lambda);
    if (name == "power") return std::make_unique<PowerRegularizer>(lambda, epsilon);
    return nullptr;
}

}  // namespace ade
