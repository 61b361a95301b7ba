#pragma once
// The kernel family of Experiment B's loss (SingleHeadAttention::loss), one table per
// instruction-set level (util/KernelDispatch.h; defined in HeadKernels.cpp).
#include <span>

#include "experiments/b/ExperimentB.h"
#include "util/KernelDispatch.h"

namespace ade {

struct HeadKernels {
    // SingleHeadAttention::loss of a head with value matrix WV and key width dk.
    double (*loss)(const Eigen::MatrixXd& WV, int dk, const Eigen::MatrixXd& WQ,
                   const Eigen::MatrixXd& WK, const TokenSamples& data, std::span<const int> units,
                   Eigen::MatrixXd* gQ, Eigen::MatrixXd* gK, WorkerPool* pool);
};

}  // namespace ade
