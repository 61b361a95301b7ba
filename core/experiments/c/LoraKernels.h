#pragma once
// The kernel family of Experiment C's loss (LoraNetwork::loss), one table per instruction-set
// level (util/KernelDispatch.h; defined in LoraKernels.cpp).
#include <span>

#include "experiments/c/ExperimentC.h"
#include "util/KernelDispatch.h"

namespace ade {

struct LoraKernels {
    // LoraNetwork::loss of `net`.
    double (*loss)(const LoraNetwork& net, const Eigen::MatrixXd& U, const Eigen::MatrixXd& V,
                   const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, std::span<const int> units,
                   Eigen::MatrixXd* gU, Eigen::MatrixXd* gV, WorkerPool* pool);
};

}  // namespace ade
