#pragma once
// One experiment = data source x model x metrics, behind one interface that the Trainer drives.
// Regularisers, optimisers and step rules are shared (models/Regularizer.h,
// training/Optimizer.h); structure that only one experiment has (Experiment A's balancing
// regulariser, preconditioner and renormalisation) enters through the optional hooks below.
#include <map>
#include <span>
#include <string>
#include <vector>

#include <optional>

#include "io/Npy.h"
#include "models/ParamSet.h"
#include "training/Inspection.h"

namespace ade {

class Rng;

// A matrix as a named array for .npy output (NamedArray, io/Npy.h).
NamedArray toNamedArray(const std::string& name, const Eigen::MatrixXd& m);

class Problem {
  public:
    virtual ~Problem() = default;

    // Initial parameters following the config's init keys.
    virtual ParamSet initialParams(Rng& initRng) = 0;
    // Indices of the matrices the optimiser may change (default: all).
    virtual std::vector<int> trainable(const ParamSet& p) const;

    // Number of independent training units (sequences, samples) for minibatching.
    virtual int trainingUnits() const = 0;
    // Units one metric record evaluates (training + test sets), relative to trainingUnits():
    // sets the automatic logging interval so that records cost at most about half the training.
    virtual int evaluationUnits() const { return 2 * trainingUnits(); }
    // Data loss on the listed units (empty = all, the full training loss), normalised as the
    // full loss is; fills the gradient when `grad` is non-null.
    virtual double loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) = 0;
    // Called before each iteration; a fresh-data mode draws new training data here.
    virtual void beginIteration(Rng& /*rng*/) {}

    // Experiment-specific regulariser (Experiment A's balancing); 0 when none applies.
    virtual double structuralRegularizer(const ParamSet& /*p*/, ParamSet* /*grad*/) { return 0; }
    // Preconditioner: transforms a gradient into a descent direction in place.
    virtual bool hasPreconditioner() const { return false; }
    virtual void precondition(const ParamSet& /*p*/, ParamSet& /*dir*/) {}
    // Renormalisation hook, called every `renormalize_every` iterations when enabled.
    virtual void renormalize(ParamSet& /*p*/) {}

    // Metric columns this problem reports, in CSV order (without iteration, time_s, step_size,
    // reg_value, which the Trainer adds).
    virtual std::vector<std::string> metricNames() const = 0;
    // Fills the metric values; `trainLoss` is the full-data training loss at p.
    virtual void evaluate(const ParamSet& p, double trainLoss,
                          std::map<std::string, double>& out) = 0;

    // Arrays written by --save-data (training data, true matrices).
    virtual std::vector<NamedArray> dataArrays() const { return {}; }

    // --- Inspection (training/Inspection.h): what the explorer's inside views draw. ---
    // Heatmaps of the model's matrices at p beside their targets (empty: none).
    virtual std::vector<MatrixView> matrixViews(const ParamSet& /*p*/) { return {}; }
    // Attention of one held-out sequence at p, first `maxTokens` tokens (nullopt: none).
    virtual std::optional<AttentionView> attentionView(const ParamSet& /*p*/, int /*maxTokens*/) {
        return std::nullopt;
    }
    // The factor plane's axes (nullopt: the model has no factor pair).
    virtual std::optional<FactorPlane> factorPlane() const { return std::nullopt; }
    // The point (‖L‖_F, ‖R‖_F) of p in the factor plane.
    virtual Eigen::Vector2d factorPoint(const ParamSet& /*p*/) const { return {0.0, 0.0}; }
    // The symmetry group's action g_t on p (g_0 = identity), e.g. (W_Q e^{t}, W_K e^{-t}): the
    // landscape's orbit axis. nullopt when the model has none.
    virtual std::optional<ParamSet> orbitMove(const ParamSet& /*p*/, double /*t*/) const {
        return std::nullopt;
    }
    // True when the data loss is exactly invariant under orbitMove (B, C, Darcy: the model sees
    // the product only); false when only a limit is (A at finite n: E(theta) is, L_n is not).
    virtual bool orbitIsExactSymmetry() const { return false; }
};

}  // namespace ade
