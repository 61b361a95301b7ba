#pragma once
// What a model looks like inside, for the explorer's views of issue 15: heatmaps of its
// matrices, its attention on one held-out sequence, its point in the factor plane and the
// symmetry along which its data loss does not change (the loss landscape's orbit axis).
// Each experiment fills these from a ParamSet (Problem's inspection hooks, training/Problem.h);
// the views (ui/inspect/) and `attention-explorer-cli figure` draw them. No Qt here.
#include <Eigen/Dense>

#include <string>
#include <vector>

#include "models/ParamSet.h"

namespace ade {

// One heatmap. Views with the same `row` share one colour scale (symmetric around 0).
struct MatrixView {
    std::string title;    // the papers' symbols: "A", "L Rᵀ", "X*", "L Rᵀ − X*", "W_Q W_Kᵀ"
    std::string meaning;  // one sentence for the tooltip, in the papers' language
    int row = 0;
    Eigen::MatrixXd values;
};

// The attention weights of one held-out sequence: weights(i, j) = attention of query token i on
// key token j (each row sums to 1), first n tokens only.
struct AttentionView {
    std::string title;           // e.g. "softmax(x_iᵀ B x_j / ...)", the experiment's own form
    Eigen::MatrixXd weights;
    std::string referenceTitle;  // "teacher", "n → ∞ limit"; "" when there is none
    Eigen::MatrixXd reference;   // same shape as weights when referenceTitle is set
    // Token features one may sort the tokens by (name, one value per token).
    std::vector<std::string> featureNames;
    std::vector<Eigen::VectorXd> features;
};

// The factor plane: the two factors' Frobenius norms. The same numbers are metric columns
// (xColumn, yColumn) of metrics.csv.
struct FactorPlane {
    std::string xLabel, yLabel;    // "‖L‖_F", "‖W_Q‖_F", "‖U‖_F" ...
    std::string xColumn, yColumn;  // metrics.csv columns with the same values
};

// A run's parameters at one recorded iteration (time travel). Snapshots are taken at metric
// records, spread over the run, at most `snapshots` of them and at most `snapshot_mb` MiB.
struct Snapshot {
    long iteration = 0;
    ParamSet params;
};

}  // namespace ade
