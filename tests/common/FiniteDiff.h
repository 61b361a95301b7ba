#pragma once
// Central finite differences for gradient checks.
#include <Eigen/Dense>
#include <functional>

namespace adetest {

// Numerical gradient of f at W (f reads W by reference, so W is perturbed in place).
inline Eigen::MatrixXd numericGradient(Eigen::MatrixXd& W, const std::function<double()>& f,
                                       double h = 1e-6) {
    Eigen::MatrixXd g(W.rows(), W.cols());
    for (Eigen::Index j = 0; j < W.cols(); ++j)
        for (Eigen::Index i = 0; i < W.rows(); ++i) {
            const double w = W(i, j);
            W(i, j) = w + h;
            const double fp = f();
            W(i, j) = w - h;
            const double fm = f();
            W(i, j) = w;
            g(i, j) = (fp - fm) / (2 * h);
        }
    return g;
}

// Relative error ||a - b|| / max(||a||, ||b||, 1e-6): gradients that vanish (e.g. d/dB with one
// token per softmax row) compare absolutely against finite-difference noise.
inline double relError(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return (a - b).norm() / std::max({a.norm(), b.norm(), 1e-6});
}

}  // namespace adetest
