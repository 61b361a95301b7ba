// Keys shared by every experiment: run control, initialisation, optimiser, regulariser.
#include <cstdint>
#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"

namespace ade {

namespace {
ParamSpec baseSpec(std::string key, ParamType type, std::string group, std::string label,
                   nlohmann::json def, std::string help) {
    ParamSpec s;
    s.key = std::move(key);
    s.type = type;
    s.group = std::move(group);
    s.label = std::move(label);
    s.defaultValue = std::move(def);
    s.help = std::move(help);
    return s;
}
}  // namespace

ParamSpec makeInt(std::string key, std::string group, std::string label, std::int64_t def,
                  double lo, double hi, std::string help) {
    ParamSpec s = baseSpec(std::move(key), ParamType::Int, std::move(group), std::move(label), def,
                           std::move(help));
    s.min = lo;
    s.max = hi;
    return s;
}

ParamSpec makeReal(std::string key, std::string group, std::string label, double def, double lo,
                   double hi, std::string help, bool logScale, bool minExclusive) {
    ParamSpec s = baseSpec(std::move(key), ParamType::Real, std::move(group), std::move(label), def,
                           std::move(help));
    s.min = lo;
    s.max = hi;
    s.logScale = logScale;
    s.minExclusive = minExclusive;
    return s;
}

ParamSpec makeChoice(std::string key, std::string group, std::string label, std::string def,
                     std::vector<std::string> choices, std::string help) {
    ParamSpec s = baseSpec(std::move(key), ParamType::Choice, std::move(group), std::move(label),
                           std::move(def), std::move(help));
    s.choices = std::move(choices);
    return s;
}

ParamSpec makeBool(std::string key, std::string group, std::string label, bool def,
                   std::string help) {
    return baseSpec(std::move(key), ParamType::Bool, std::move(group), std::move(label), def,
                    std::move(help));
}

void registerCommonParams(ParamRegistry& r) {
    std::vector<std::string> names;
    std::string help = "Which experiment:";
    for (const auto& e : experiments()) {
        names.push_back(e.name);
        help += (names.size() > 1 ? "; " : " ") + e.name + " = " + e.title;
    }
    r.add(makeChoice("experiment", "run", "Experiment", names.front(), names, help + "."));
    r.add(makeInt("seed", "run", "Seed", 1, 0, static_cast<double>(INT64_MAX),
                  "Seed of the run's random generators (data, initialisation, minibatches, SDE "
                  "noise). Same seed and config give bit-identical curves."));
    r.add(makeInt("iterations", "run", "Iterations", 2000, 0, 1e9, "Number of optimiser steps m."));
    r.add(makeReal("stop_tol", "run", "Stop at relative change", 0, 0, 1,
                   "Stopping rule: stop when the means of the stop metric over the last three "
                   "windows each differ from the next by less than this, relative to the larger "
                   "of the two. 0 = off: run all iterations. With the rule on, "
                   "Iterations is a cap, and a run that reaches it is reported as 'cap reached', "
                   "not converged.",
                   true, false));
    r.add([] {
        ParamSpec s;
        s.key = "stop_metric";
        s.type = ParamType::Text;
        s.group = "run";
        s.label = "Stop metric";
        s.defaultValue = "train_loss";
        s.help =
            "The metric the stopping rule watches (a column of the run's metrics, e.g. "
            "train_loss, excess_risk, test_loss).";
        return s;
    }());
    r.add(makeInt("stop_window", "run", "Stop window", 0, 0, 1e9,
                  "The stopping rule's window in iterations: the rule compares the means of the "
                  "last three windows, from three windows on. 0 = a tenth of "
                  "Iterations (the window a run's floor averages); at least one record."));
    r.add(makeInt("log_every", "run", "Log every", 0, 0, 1e9,
                  "Record metrics every this many iterations. 0 = automatic: about 1000 records, "
                  "fewer when evaluating the training and test losses would cost more than about "
                  "half of the training itself (at least 50). Iteration 0, the last iteration "
                  "and every single Step are always recorded."));
    r.add(makeInt("snapshots", "run", "Snapshots", 100, 0, 100000,
                  "Parameter snapshots kept for time travel and animations: iteration 0, the "
                  "last state reached and metric records spread evenly between them. Each costs "
                  "a copy of every weight matrix (8 bytes per entry) in memory and in saved "
                  "sessions; 0 = none. Metrics do not depend on it."));
    r.add(makeReal("snapshot_mb", "run", "Snapshot memory (MiB)", 64, 0, 1e6,
                   "Cap on the snapshots' memory per run in MiB: fewer snapshots are kept when "
                   "`snapshots` copies of the weights would need more."));
    r.add(makeInt("threads", "run", "Threads", 1, 1, 256,
                  "Worker threads for the loss and gradient (results do not depend on it)."));

    r.add(makeChoice(
        "init", "init", "Initialisation", "random", {"spectral", "random", "small", "same"},
        "Starting point. spectral: the SVD of the empirical cross-moment, on the "
        "balanced manifold (Algorithm 1); random: Gaussian entries of scale s; "
        "small: scale 1e-3; same: the initial weights of the run named in init_from."));
    r.add(makeReal("init_scale", "init", "Init scale s", 0.3, 0, 1e3,
                   "Standard deviation of the Gaussian entries of a random initialisation.", true,
                   true));
    r.relevantWhen("init_scale", {{"init", {"random"}}});
    r.add([] {
        ParamSpec s;
        s.key = "init_from";
        s.type = ParamType::Text;
        s.group = "init";
        s.label = "Same start as";
        s.defaultValue = "";
        s.help =
            "With init = same: the run (in the same comparison) whose initial weights this "
            "run starts from, so that two methods are compared from one start.";
        return s;
    }());
    r.relevantWhen("init_from", {{"init", {"same"}}});

    r.add(makeChoice("optimizer", "optimizer", "Optimiser", "gd", {"gd", "sgd", "adam", "sde"},
                     "gd: full-batch gradient descent; sgd: minibatch SGD over sequences; adam: "
                     "Adam on minibatches; sde: Euler-Maruyama for d(theta) = -grad V dt + "
                     "sqrt(s) dB."));
    r.add(makeReal("lr", "optimizer", "Step size eta", 0.5, 0, 1e6,
                   "Step size eta (the SDE step h). With backtracking it is the largest step "
                   "tried.",
                   true, false));
    r.addAlias("step", "lr");
    r.add(makeChoice("step_rule", "optimizer", "Step rule", "fixed", {"fixed", "backtracking"},
                     "fixed: always eta. backtracking (Armijo): halve eta until the objective "
                     "Q = L_n + R decreases enough; recommended at small n, where a fixed eta "
                     "can diverge."));
    r.add(makeInt(
        "batch", "optimizer", "Batch", 8, 1, 1 << 24,
        "Minibatch size (sequences or samples) for sgd and adam; gd and sde use the full data."));
    r.relevantWhen("batch", {{"optimizer", {"sgd", "adam"}}});
    r.add(makeReal("adam.beta1", "optimizer", "Adam beta1", 0.9, 0, 0.999999,
                   "Adam's first-moment decay."));
    r.relevantWhen("adam.beta1", {{"optimizer", {"adam"}}});
    r.add(makeReal("adam.beta2", "optimizer", "Adam beta2", 0.999, 0, 0.99999999,
                   "Adam's second-moment decay."));
    r.relevantWhen("adam.beta2", {{"optimizer", {"adam"}}});
    r.add(makeReal("adam.eps", "optimizer", "Adam epsilon", 1e-8, 0, 1, "Adam's denominator guard.",
                   true, true));
    r.relevantWhen("adam.eps", {{"optimizer", {"adam"}}});
    r.add(makeReal("temperature", "optimizer", "Temperature s", 1e-3, 0, 1e6,
                   "SDE temperature s: noise sqrt(s h) xi per step; the stationary law is the "
                   "Gibbs measure proportional to exp(-2 V / s).",
                   true, false));
    // Experiments b and c also use it in the Villani quantity, whatever the optimiser.
    r.relevantWhen("temperature", {{"optimizer", {"sde"}}, {"experiment", {"b", "c"}}});

    r.add(makeChoice("regularizer", "regularizer", "Regulariser", "none",
                     {"none", "l2", "balancing", "log_amplified", "power"},
                     "none; l2: lambda ||W||^2; balancing (Experiment A): lambda/4 "
                     "||L^T L - R^T R||^2 in the data geometry; log_amplified: lambda ||W||^2 "
                     "log(1 + ||W||^2); power: lambda ||W||^(2+epsilon)."));
    r.add(makeReal("lambda", "regularizer", "lambda", 0.1, 0, 1e12,
                   "Regularisation strength lambda.", true, false));
    r.relevantWhen("lambda", {{"regularizer", {"l2", "balancing", "log_amplified", "power"}}});
    r.add(makeReal("epsilon", "regularizer", "Power epsilon", 0.5, 0, 10,
                   "Exponent excess of the power regulariser lambda ||W||^(2+epsilon)."));
    r.relevantWhen("epsilon", {{"regularizer", {"power"}}});
    // Values that leave an iteration's arithmetic as it is (the shapes, the optimiser, the
    // regulariser's kind and the precision are what it costs).
    r.costNeutral({"seed", "iterations", "log_every", "lr", "init", "init_from", "init_scale",
                   "lambda", "epsilon", "temperature", "adam.beta1", "adam.beta2", "adam.eps"});
}

}  // namespace ade
