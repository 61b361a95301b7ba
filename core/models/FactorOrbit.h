#pragma once
// The rescaling orbit of a factorised product L R^T (Paper B): W_Q W_K^T in Experiment B and
// the Darcy regressor, U V in Experiment C. MODELS.md "Experiment B", "Experiment C": the
// balanced factorisations of a teacher product, the Procrustes distance to them (unweighted),
// the imbalance ||L^T L - R^T R|| and the balancing regulariser (lambda/4) ||L^T L - R^T R||^2.
#include <Eigen/Dense>

namespace ade {

// S = {(L* O, R* O) : O in O(r)} with L* = U_r D_r^{1/2}, R* = V_r D_r^{1/2} from the SVD of the
// product (rows(L) x rows(R)); r = width of the factors.
class BalancedOrbit {
  public:
    BalancedOrbit() = default;
    BalancedOrbit(const Eigen::MatrixXd& product, int width);
    // min_O ||L - L* O||^2 + ||R - R* O||^2, square-rooted (O: polar factor of L*^T L + R*^T R).
    double distance(const Eigen::MatrixXd& L, const Eigen::MatrixXd& R) const;
    double scale() const { return scale_; }  // ||(L*, R*)||
    const Eigen::MatrixXd& Lstar() const { return Lstar_; }
    const Eigen::MatrixXd& Rstar() const { return Rstar_; }

  private:
    Eigen::MatrixXd Lstar_, Rstar_;
    double scale_ = 1.0;
};

// ||L^T L - R^T R||
double factorImbalance(const Eigen::MatrixXd& L, const Eigen::MatrixXd& R);

// (lambda/4) ||L^T L - R^T R||^2; adds lambda L D to gL and -lambda R D to gR (D = L^T L - R^T R).
double balancingPenalty(const Eigen::MatrixXd& L, const Eigen::MatrixXd& R, double lambda,
                        Eigen::MatrixXd* gL, Eigen::MatrixXd* gR);

}  // namespace ade
