#include "models/FactorOrbit.h"

#include <algorithm>
#include <cmath>

namespace ade {

BalancedOrbit::BalancedOrbit(const Eigen::MatrixXd& product, int width) {
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(product, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Eigen::Index r = std::min<Eigen::Index>({width, product.rows(), product.cols()});
    Lstar_ = Eigen::MatrixXd::Zero(product.rows(), width);
    Rstar_ = Eigen::MatrixXd::Zero(product.cols(), width);
    const Eigen::VectorXd sq = svd.singularValues().head(r).cwiseSqrt();
    Lstar_.leftCols(r) = svd.matrixU().leftCols(r) * sq.asDiagonal();
    Rstar_.leftCols(r) = svd.matrixV().leftCols(r) * sq.asDiagonal();
    scale_ = std::sqrt(Lstar_.squaredNorm() + Rstar_.squaredNorm());
    if (scale_ <= 0) scale_ = 1.0;
}

double BalancedOrbit::distance(const Eigen::MatrixXd& L, const Eigen::MatrixXd& R) const {
    const Eigen::MatrixXd cross = Lstar_.transpose() * L + Rstar_.transpose() * R;
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(cross, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Eigen::MatrixXd O = svd.matrixU() * svd.matrixV().transpose();
    const double sq = (L - Lstar_ * O).squaredNorm() + (R - Rstar_ * O).squaredNorm();
    return std::sqrt(std::max(sq, 0.0));
}

double factorImbalance(const Eigen::MatrixXd& L, const Eigen::MatrixXd& R) {
    return (L.transpose() * L - R.transpose() * R).norm();
}

double balancingPenalty(const Eigen::MatrixXd& L, const Eigen::MatrixXd& R, double lambda,
                        Eigen::MatrixXd* gL, Eigen::MatrixXd* gR) {
    const Eigen::MatrixXd D = L.transpose() * L - R.transpose() * R;
    if (gL) gL->noalias() += lambda * (L * D);
    if (gR) gR->noalias() -= lambda * (R * D);
    return 0.25 * lambda * D.squaredNorm();
}

}  // namespace ade
