#pragma once
// Central finite differences for gradient checks: of one matrix (numericGradient) and of a
// Problem-style gradient over a whole ParamSet (fdRelativeError).
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "models/ParamSet.h"

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

// Largest relative error between the analytic gradient `grad` and central differences of `f`
// over the listed matrices (all when empty), relative to the gradient's largest entry.
inline double fdRelativeError(const std::function<double(const ade::ParamSet&)>& f,
                              const ade::ParamSet& p, const ade::ParamSet& grad,
                              std::vector<int> which = {}, double h = 1e-5) {
    if (which.empty())
        for (std::size_t i = 0; i < p.size(); ++i)
            which.push_back(static_cast<int>(i));
    double maxErr = 0.0, maxG = 1e-12;
    for (int m : which)
        maxG = std::max(maxG, grad[m].cwiseAbs().maxCoeff());
    ade::ParamSet q = p;
    for (int m : which)
        for (Eigen::Index j = 0; j < p[m].size(); ++j) {
            const double x = p[m].data()[j];
            q[m].data()[j] = x + h;
            const double fp = f(q);
            q[m].data()[j] = x - h;
            const double fm = f(q);
            q[m].data()[j] = x;
            maxErr = std::max(maxErr, std::abs((fp - fm) / (2 * h) - grad[m].data()[j]));
        }
    return maxErr / maxG;
}

}  // namespace adetest
