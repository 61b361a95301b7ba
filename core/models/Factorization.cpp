#include "models/Factorization.h"

namespace ade {

double populationExcessRisk(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                            const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& sigmaHalf,
                            const Eigen::MatrixXd& M) {
    const Eigen::MatrixXd diff = A * sigma * B.transpose() - M;
    return 0.5 * (diff * sigmaHalf).squaredNorm();
}

Factors toFactors(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                  const Eigen::MatrixXd& geomHalf) {
    return {A * geomHalf, geomHalf * B * geomHalf};
}

void fromFactors(const Factors& f, const Eigen::MatrixXd& geomInvHalf, Eigen::MatrixXd& A,
                 Eigen::MatrixXd& B) {
    A = f.L * geomInvHalf;
    B = geomInvHalf * f.R * geomInvHalf;
}

Factors balancedFactors(const Eigen::MatrixXd& product, int rank) {
    const Eigen::Index k = product.rows(), d = product.cols();
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(product, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const int r = static_cast<int>(std::min<Eigen::Index>({rank, k, d}));
    Factors f{Eigen::MatrixXd::Zero(k, d), Eigen::MatrixXd::Zero(d, d)};
    const Eigen::VectorXd sq = svd.singularValues().head(r).cwiseSqrt();
    f.L.leftCols(r) = svd.matrixU().leftCols(r) * sq.asDiagonal();
    f.R.leftCols(r) = svd.matrixV().leftCols(r) * sq.asDiagonal();
    return f;
}

ManifoldDistance::ManifoldDistance(const Eigen::MatrixXd& M, const Eigen::MatrixXd& sigmaHalf,
                                   int rank)
    : star_(balancedFactors(M * sigmaHalf, rank)) {
    scale_ = std::sqrt(star_.L.squaredNorm() + star_.R.squaredNorm());
    if (scale_ <= 0) scale_ = 1.0;
}

double ManifoldDistance::distance(const Factors& f) const {
    // Orthogonal Procrustes: O = P Q^T from the SVD of L*^T L + R*^T R.
    const Eigen::MatrixXd cross = star_.L.transpose() * f.L + star_.R.transpose() * f.R;
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(cross, Eigen::ComputeFullU | Eigen::ComputeFullV);
    const Eigen::MatrixXd O = svd.matrixU() * svd.matrixV().transpose();
    const double sq = (f.L - star_.L * O).squaredNorm() + (f.R - star_.R * O).squaredNorm();
    return std::sqrt(std::max(sq, 0.0));
}

void spectralInit(const Eigen::MatrixXd& C, const Eigen::MatrixXd& sigmaHatInvHalf, int rank,
                  Eigen::MatrixXd& A, Eigen::MatrixXd& B) {
    const Factors f = balancedFactors(C * sigmaHatInvHalf, rank);
    fromFactors(f, sigmaHatInvHalf, A, B);
}

double balancingRegularizer(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                            const Eigen::MatrixXd& sigmaHatHalf, double lambda, Eigen::MatrixXd* gA,
                            Eigen::MatrixXd* gB) {
    const Factors f = toFactors(A, B, sigmaHatHalf);
    const Eigen::MatrixXd D = f.L.transpose() * f.L - f.R.transpose() * f.R;
    if (gA) gA->noalias() += lambda * (f.L * D * sigmaHatHalf);
    if (gB) gB->noalias() -= lambda * (sigmaHatHalf * f.R * D * sigmaHatHalf);
    return 0.25 * lambda * D.squaredNorm();
}

double imbalance(const Factors& f) {
    return (f.L.transpose() * f.L - f.R.transpose() * f.R).norm();
}

}  // namespace ade
