#pragma once
// The kernel family of Experiment A's loss (SoftmaxAttentionRegression::loss), one table per
// instruction-set level (util/KernelDispatch.h; defined in SoftmaxAttentionKernels.cpp).
#include <span>

#include "models/SoftmaxAttentionRegression.h"
#include "util/KernelDispatch.h"

namespace ade {

struct AttentionKernels {
    // SoftmaxAttentionRegression::loss of a model with these settings.
    double (*loss)(bool excludeSelf, Precision precision, const Eigen::MatrixXd& A,
                   const Eigen::MatrixXd& B, const SequenceSet& data, std::span<const int> units,
                   Eigen::MatrixXd* gA, Eigen::MatrixXd* gB, WorkerPool* pool);
};

}  // namespace ade
