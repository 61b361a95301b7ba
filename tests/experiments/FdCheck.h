#pragma once
// Central finite-difference check of a Problem-style gradient, shared by the experiment tests.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>

#include "models/ParamSet.h"

namespace adetest {

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
