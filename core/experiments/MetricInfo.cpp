#include "experiments/MetricInfo.h"

#include <stdexcept>

namespace ade {

namespace {
const char* kLoss = "loss (½ MSE)";
}  // namespace

const char* toString(AxisScale s) {
    switch (s) {
        case AxisScale::Log: return "log";
        case AxisScale::Linear: return "linear";
        case AxisScale::SymLog: return "symlog";
    }
    return "log";
}

const std::vector<MetricInfo>& trainerMetrics() {
    static const std::vector<MetricInfo> list = {
        {"iteration", "iteration", "iterations", "", false, false,
         "Optimiser steps taken (the x axis)."},
        {"time_s", "wall time (s)", "seconds", "", false, false,
         "Seconds since the run started, metric evaluation included."},
        {"step_size", "step size η (as used)", "step size", "step", false, true,
         "The step actually taken: the configured η or h, or what Armijo backtracking accepted."},
        {"reg_value", "regulariser R(θ)", kLoss, "regulariser", false, true,
         "Value of the regulariser added to the data loss (balancing, L2, log-amplified or "
         "power); 0 when none."},
        {"data_passes", "passes over the training data", "passes", "", false, false,
         "Training work so far, counted rather than timed: every evaluation of the objective on "
         "b of the N training units (a gradient step's, and each backtracking trial's) adds "
         "b / N. SGD with batch 8 of 32 prompts adds 1/4 per iteration; full-batch GD with "
         "backtracking 1 + its trials. The metric records and the preconditioner's d x d work "
         "are not counted."},
    };
    return list;
}

namespace {
const std::vector<ChartInfo>& sharedCharts() {
    static const std::vector<ChartInfo> charts = {
        {"loss", "Loss", kLoss, AxisScale::Log, true},
        {"gap", "Generalisation gap (test − train)", kLoss, AxisScale::Linear, true},
        {"excess", "Excess test loss over the teacher's", kLoss, AxisScale::Log, true},
        {"norms", "Weight norms", "Frobenius norm", AxisScale::Linear, true},
        {"manifold", "Distance to the minimisers", "Frobenius distance", AxisScale::Log, true},
        {"manifold_rel", "Relative distance to the minimisers", "ratio", AxisScale::Log, true},
        {"imbalance", "Imbalance of the factors", "Frobenius norm", AxisScale::Log, true},
        {"step", "Step size", "step size", AxisScale::Log, true},
        {"regulariser", "Regulariser value", kLoss, AxisScale::Log, true},
        {"villani", "Villani expression", "−ΔṼ + ‖∇Ṽ‖²/s", AxisScale::SymLog, true},
    };
    return charts;
}
}  // namespace

bool isSharedChart(const std::string& id) {
    for (const ChartInfo& c : sharedCharts())
        if (c.id == id) return true;
    return false;
}

ChartInfo sharedChart(const std::string& id, bool shown) {
    for (ChartInfo c : sharedCharts())
        if (c.id == id) {
            c.shownByDefault = shown;
            return c;
        }
    throw std::logic_error("sharedChart: no chart '" + id + "'");
}

std::vector<ChartInfo> factorPairCharts() {
    return {sharedChart("loss"),
            sharedChart("norms"),
            sharedChart("manifold"),
            sharedChart("gap"),
            sharedChart("excess", false),
            sharedChart("imbalance", false),
            sharedChart("manifold_rel", false),
            sharedChart("villani", false),
            sharedChart("step", false),
            sharedChart("regulariser", false)};
}

MetricInfo sharedMetric(const std::string& column) {
    static const std::vector<MetricInfo> list = {
        {"train_loss", "train loss L_n(θ)", kLoss, "loss", false, true,
         "Mean loss on the training set the optimiser sees."},
        {"test_loss", "test loss", kLoss, "loss", false, true,
         "Mean loss on held-out data drawn like the training set."},
        {"gen_gap", "test − train loss", kLoss, "gap", true, false,
         "Generalisation gap: how much worse the model does on unseen data (can be negative)."},
        {"excess_test_loss", "test loss − the teacher's", kLoss, "excess", false, true,
         "The test loss above the teacher's own on the same held-out set (its noise, the "
         "irreducible floor): what training has still to learn, and what a regulariser costs. "
         "Spans decades (a log axis); below 0 only by chance on a finite test set, drawn at "
         "the axis floor then."},
        {"manifold_distance_rel", "dist(θ, S) / ‖θ*‖_F", "ratio", "manifold_rel", false, true,
         "Distance to the set S of minimisers, relative to the size of a minimiser."},
        {"villani", "−ΔṼ + ‖∇Ṽ‖²/s (Hutchinson)", "−ΔṼ + ‖∇Ṽ‖²/s", "villani", true, true,
         "The Villani expression along the run (Laplacian by Hutchinson's estimator): Paper B's "
         "condition asks it to grow without bound far out; noisy, spans decades, either sign."},
    };
    for (const MetricInfo& m : list)
        if (m.column == column) return m;
    throw std::logic_error("sharedMetric: no metric '" + column + "'");
}

MetricInfo normMetric(const std::string& column, const std::string& symbol,
                      const std::string& role) {
    return {column, "‖" + symbol + "‖_F", "Frobenius norm", "norms", false, false,
            "Frobenius norm of " + role + " " + symbol + "."};
}

}  // namespace ade
