#pragma once
// The kernel family of the ViT regressor (VitRegressor::loss, freeze, lossQK: Darcy's hot path),
// one table per instruction-set level (util/KernelDispatch.h; defined in VitKernels.cpp).
#include <span>

#include "models/VitRegressor.h"
#include "util/KernelDispatch.h"

namespace ade {

struct VitKernels {
    double (*loss)(const VitRegressor& net, const ParamSet& p, const PatchTokens& data,
                   std::span<const int> units, ParamSet* grad, bool onlyQK, WorkerPool* pool,
                   Eigen::MatrixXd* prediction);
    VitRegressor::FrozenParts (*freeze)(const VitRegressor& net, const ParamSet& p,
                                        const PatchTokens& data, WorkerPool* pool);
    double (*lossQK)(const VitRegressor& net, const ParamSet& p, const PatchTokens& data,
                     const VitRegressor::FrozenParts& fz, std::span<const int> units,
                     ParamSet* grad, WorkerPool* pool, Eigen::MatrixXd* prediction);
};

}  // namespace ade
