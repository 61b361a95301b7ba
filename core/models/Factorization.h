#pragma once
// The matrix-factorisation view of Experiment A (MODELS.md "The infinite-data limit",
// "The manifold of global minima", "The structure-aware algorithm").
#include <Eigen/Dense>

namespace ade {

// Excess risk E(A, B) = 1/2 || (A Sigma B^T - M) Sigma^{1/2} ||^2 (closed form).
double populationExcessRisk(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                            const Eigen::MatrixXd& sigma, const Eigen::MatrixXd& sigmaHalf,
                            const Eigen::MatrixXd& M);

// Factorisation coordinates in a geometry G^{1/2}: L = A G^{1/2}, R = G^{1/2} B G^{1/2}.
struct Factors {
    Eigen::MatrixXd L, R;
};
Factors toFactors(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                  const Eigen::MatrixXd& geomHalf);
// Inverse map: A = L G^{-1/2}, B = G^{-1/2} R G^{-1/2}.
void fromFactors(const Factors& f, const Eigen::MatrixXd& geomInvHalf, Eigen::MatrixXd& A,
                 Eigen::MatrixXd& B);

// The balanced factorisation of a k x d product X = U D V^T: L = U D^{1/2}, R = V D^{1/2}
// (top `rank` singular pairs, zero columns up to width d).
Factors balancedFactors(const Eigen::MatrixXd& product, int rank);

// The manifold S = {(L* O, R* O)} of global minima and the Procrustes distance to it.
class ManifoldDistance {
  public:
    ManifoldDistance(const Eigen::MatrixXd& M, const Eigen::MatrixXd& sigmaHalf, int rank);
    // dist(theta, S) for factors in the true-Sigma geometry.
    double distance(const Factors& f) const;
    double scale() const { return scale_; }  // ||(L*, R*)||
    const Factors& star() const { return star_; }

  private:
    Factors star_;
    double scale_ = 1.0;
};

// Spectral initialisation: SVD of C Sigmahat^{-1/2} = U D V^T; A0 = U D^{1/2} Sigmahat^{-1/2},
// B0 = Sigmahat^{-1/2} V D^{1/2} Sigmahat^{-1/2}.
void spectralInit(const Eigen::MatrixXd& C, const Eigen::MatrixXd& sigmaHatInvHalf, int rank,
                  Eigen::MatrixXd& A, Eigen::MatrixXd& B);

// Balancing regulariser (lambda/4) ||L^T L - R^T R||^2 in the Sigmahat geometry; adds its
// gradient to gA, gB when non-null; returns its value.
double balancingRegularizer(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                            const Eigen::MatrixXd& sigmaHatHalf, double lambda, Eigen::MatrixXd* gA,
                            Eigen::MatrixXd* gB);

// Imbalance ||L^T L - R^T R|| of factors.
double imbalance(const Factors& f);

}  // namespace ade
