#include "models/VitRegressor.h"

#include <cmath>

#include "models/VitKernels.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

namespace ade::kernels::vit {
using Table = VitKernels;
ADE_KERNEL_CHOOSER
}  // namespace ade::kernels::vit

namespace ade {

ParamSet VitRegressor::initialParams(Rng& rng) const {
    ParamSet p;
    p.names = {"E", "b_E", "W_Q", "W_K", "W_V", "W_O", "b_O"};
    const double se = 1.0 / std::sqrt(static_cast<double>(in_));
    const double sw = 1.0 / std::sqrt(static_cast<double>(width_));
    p.mats = {rng.normalMatrix(in_, width_, se),    Eigen::MatrixXd::Zero(1, width_),
              rng.normalMatrix(width_, width_, sw), rng.normalMatrix(width_, width_, sw),
              rng.normalMatrix(width_, width_, sw), rng.normalMatrix(width_, out_, sw),
              Eigen::MatrixXd::Zero(1, out_)};
    return p;
}

double VitRegressor::loss(const ParamSet& p, const PatchTokens& data, std::span<const int> units,
                          ParamSet* grad, bool onlyQK, WorkerPool* pool,
                          Eigen::MatrixXd* prediction) const {
    return kernels::vit::running().loss(*this, p, data, units, grad, onlyQK, pool, prediction);
}

VitRegressor::FrozenParts VitRegressor::freeze(const ParamSet& p, const PatchTokens& data,
                                               WorkerPool* pool) const {
    return kernels::vit::running().freeze(*this, p, data, pool);
}

bool VitRegressor::matches(const FrozenParts& frozen, const ParamSet& p) {
    if (frozen.at.size() != p.size()) return false;
    for (int i : {E, bE, WV, WO, bO}) {
        const auto& a = frozen.at[i];
        if (a.rows() != p[i].rows() || a.cols() != p[i].cols() || a != p[i]) return false;
    }
    return true;
}

double VitRegressor::lossQK(const ParamSet& p, const PatchTokens& data, const FrozenParts& fz,
                            std::span<const int> units, ParamSet* grad, WorkerPool* pool,
                            Eigen::MatrixXd* prediction) const {
    return kernels::vit::running().lossQK(*this, p, data, fz, units, grad, pool, prediction);
}

}  // namespace ade
