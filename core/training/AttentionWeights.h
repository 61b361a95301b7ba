#pragma once
// Helpers the experiments' attention views share (training/Inspection.h's AttentionView).
#include "training/Inspection.h"

namespace ade {

// Row-wise softmax of a score matrix (the row maximum subtracted before exp); with
// excludeDiagonal, token i gets no weight on itself (Experiment A's exclude-self option).
Eigen::MatrixXd rowSoftmax(const Eigen::MatrixXd& scores, bool excludeDiagonal = false);

// The token features every attention view offers to sort by: "position", "x₁ (first
// coordinate)" and "‖x‖" of the rows of X (one token per row).
void addTokenFeatures(AttentionView& view, const Eigen::MatrixXd& X);

}  // namespace ade
