// ade-bench: times the core's full training step (loss + gradient over all sequences + the
// gradient-descent update) for the benchmark cases, and one epoch of the Darcy experiment's
// stage 2 (minibatch SGD on W_Q, W_K of the stage-1 ViT); measures the machine's dense-matmul
// peak, and checks the analytic gradient (finite differences, thread-count invariance). With
// --out it writes each case's data, parameters, loss and gradients as .npy so that the
// references in bench/ can be checked against the core on the same numbers. See
// docs/performance.md.
#include <sys/resource.h>
#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include "util/Allocator.h"
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "config/Config.h"
#include "data/LinearRegressionData.h"
#include "experiments/a/ExperimentA.h"
#include "experiments/darcy/ExperimentDarcy.h"
#include "experiments/ExperimentRegistry.h"
#include "io/Npy.h"
#include "models/SoftmaxAttentionRegression.h"
#include "training/Optimizer.h"
#include "training/Trainer.h"
#include "util/CpuLevel.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

#include "Roofline.h"

namespace {

using Clock = std::chrono::steady_clock;
using ade::NamedArray;

struct Case {
    std::string name, experiment;
    int n = 0, prompts = 0, d = 0;                          // Experiment A's sizes (flop count)
    std::vector<std::pair<std::string, std::string>> sets;  // config beyond the common keys
};

Case caseA(int n, int prompts, int d) {
    Case c{"a-n" + std::to_string(n) + "-P" + std::to_string(prompts) + "-d" + std::to_string(d),
           "a",
           n,
           prompts,
           d,
           {}};
    c.sets = {{"data.d", std::to_string(d)}, {"data.k", std::to_string(d)},
              {"data.n", std::to_string(n)}, {"data.prompts", std::to_string(prompts)},
              {"data.test_prompts", "1"},    {"lr", "0.1"}};
    return c;
}

// Experiment B synthetic: the b-regularizers preset's task (d = d_k = d_v = 4, N = 8 tokens,
// 256 samples, teacher sharpness 6), full-batch gradient descent.
Case caseB() {
    Case c{"b-synthetic", "b", 0, 0, 0, {}};
    c.sets = {{"data.d", "4"},       {"data.n", "256"}, {"data.test_n", "16"},
              {"data.noise", "0.1"}, {"b.tokens", "8"}, {"b.dk", "4"},
              {"b.dv", "4"},         {"b.tau", "6"},    {"lr", "0.05"}};
    return c;
}

// Experiment C: the c-lora-drift preset's network (d = 8, 512 training samples, hidden width 16,
// 4 outputs, rank-2 adapter, tanh, alpha 1) from its small random start (init_scale 0.1),
// full-batch gradient descent.
Case caseC() {
    Case c{"c-lora", "c", 0, 0, 0, {}};
    c.sets = {{"data.d", "8"},         {"data.n", "512"},         {"data.test_n", "16"},
              {"data.noise", "0.05"},  {"lora.hidden", "16"},     {"lora.out", "4"},
              {"lora.rank", "2"},      {"lora.alpha", "1"},       {"lora.activation", "tanh"},
              {"init_scale", "0.1"},   {"lr", "0.05"}};
    return c;
}

// Darcy stage 2, one epoch at 32 x 32 (MODELS.md "Darcy flow data and the ViT-style attention
// regressor"): the darcy-stage2 preset's data (1000 training pairs, seed 1, 4 x 4 patches -> 64
// tokens, width 32) and stage-1 weights (Adam, 60 epochs, batch 32; from the cache, trained
// untimed when missing); stage 2 by minibatch SGD (the product's default batch of 8, step 1) on
// W_Q, W_K under the log-amplified regulariser at the preset's lambda. One iteration = one pass
// over the training set: 125 minibatch steps of Trainer::run.
Case caseDarcy() {
    Case c{"darcy-stage2-epoch-32", "darcy", 0, 0, 0, {}};
    c.sets = {{"darcy.resolution", "32"},
              {"darcy.train", "1000"},
              {"darcy.test", "200"},
              {"darcy.patch", "4"},
              {"darcy.width", "32"},
              {"stage1.epochs", "60"},
              {"stage1.lr", "0.003"},
              {"stage1.batch", "32"},
              {"optimizer", "sgd"},
              {"batch", "8"},
              {"lr", "1"},
              {"regularizer", "log_amplified"},
              {"lambda", "1e-4"}};
    return c;
}

const std::vector<Case> kCases = {
    caseA(256, 16, 4),  caseA(1024, 4, 4),  caseA(4096, 1, 4), caseA(256, 16, 16),
    caseA(1024, 4, 16), caseA(4096, 1, 16), caseB(),           caseC(),
    caseDarcy()};

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

double processCpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Useful floating-point work of one training step of Experiment A (dense-formulation count):
// per sequence S = X B X^T, W X, dW = G A X^T, dS X: 4 products of 2 n^2 d each; softmax and
// dS: about 5 n^2 (an exp counted as one). Lower-order O(n d^2) terms are ignored.
double flopsA(const Case& c) {
    if (c.experiment != "a") return 0.0;
    const double n = c.n;
    return c.prompts * (8.0 * n * n * c.d + 5.0 * n * n);
}

// Darcy stage 2, one epoch (VitRegressor::lossQK): per sample H B (T e e, shared by the chunk of
// two samples but counted per sample), S = (H B) H^T (T T e), A (V W_O) and dA = G (V W_O)^T
// (T T o each), dS H (T T e), H^T M (T e e), two flops per multiply-add; softmax and dS about
// 5 T^2. T = 64 tokens, e = 32, o = 16 at the case's 32 x 32 resolution and 4 x 4 patches.
double flopsDarcyEpoch(int samples, int tokens, int width, int outputs) {
    const double T = tokens, e = width, o = outputs;
    return samples * (2.0 * (2 * T * e * e + 2 * T * T * e + 2 * T * T * o) + 5 * T * T);
}

void writeNpy(const std::filesystem::path& file, const NamedArray& a) {
    std::ofstream out(file, std::ios::binary);
    const std::string bytes = ade::encodeNpy(a);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

ade::Config configFor(const Case& c, int threads, const std::string& precision = "float64") {
    ade::Config cfg;
    std::vector<std::pair<std::string, std::string>> sets = {
        {"experiment", c.experiment}, {"seed", "1"},           {"threads", std::to_string(threads)},
        {"init", "random"},           {"init_scale", "0.3"},   {"optimizer", "gd"},
        {"step_rule", "fixed"},       {"regularizer", "none"},
    };
    if (c.experiment == "darcy")
        sets = {{"experiment", "darcy"},
                {"seed", "1"},
                {"threads", std::to_string(threads)},
                {"step_rule", "fixed"}};
    sets.insert(sets.end(), c.sets.begin(), c.sets.end());
    if (c.experiment == "a") sets.emplace_back("precision", precision);
    for (const auto& [k, v] : sets)
        if (auto e = cfg.setText(k, v)) throw std::runtime_error(e->message);
    return cfg;
}

struct Timing {
    int iters = 1;  // steps per repetition
    std::vector<double> rates, cpuRates;
};

// Calibrates the number of steps per repetition (>= minTime seconds), then times `reps`
// repetitions, each after reset() (the case's starting point).
Timing timeSteps(const std::function<void()>& step, const std::function<void()>& reset, int reps,
                 double minTime) {
    Timing t;
    step();  // warm-up
    int iters = 1;
    for (;;) {
        const auto t0 = Clock::now();
        for (int i = 0; i < iters; ++i)
            step();
        const double s = seconds(t0, Clock::now());
        if (s >= 0.2 * minTime || iters >= (1 << 24)) {
            iters = std::max(1, static_cast<int>(iters * minTime / std::max(s, 1e-9)));
            break;
        }
        iters *= 4;
    }
    t.iters = iters;
    for (int r = 0; r < reps; ++r) {
        reset();
        const double c0 = processCpuSeconds();
        const auto t0 = Clock::now();
        for (int i = 0; i < iters; ++i)
            step();
        t.rates.push_back(iters / seconds(t0, Clock::now()));
        t.cpuRates.push_back(iters / std::max(processCpuSeconds() - c0, 1e-9));
    }
    return t;
}

// One case: median iterations per second over `reps` repetitions of at least `minTime` seconds.
nlohmann::json benchCase(const Case& c, int threads, int reps, double minTime,
                         const std::filesystem::path& outDir, const std::string& precision) {
    const ade::Config cfg = configFor(c, threads, precision);
    std::string error;
    auto trainer = ade::makeTrainer(cfg, &error);
    if (!trainer) throw std::runtime_error(error);
    ade::Problem& problem = trainer->problem();
    ade::Rng initRng(1, ade::Rng::Init);
    ade::ParamSet p = problem.initialParams(initRng);
    const ade::ParamSet p0 = p;
    ade::ParamSet grad = p.zerosLike();
    const double lr = cfg.getReal("lr");
    const std::vector<int> trainable = problem.trainable(p);

    // The training step the references time too: loss and gradient over all training data,
    // then theta <- theta - lr grad (the Trainer's gradient-descent step).
    auto step = [&] {
        grad.setZero();
        const double q = trainer->objective(p, &grad, {});
        for (int i : trainable)
            p[i].noalias() -= lr * grad[i];
        return q;
    };

    const double q0 = trainer->objective(p0, &grad, {});
    // float32: its loss and gradients against the float64 step's on the same data and start.
    nlohmann::json f32err;
    if (precision != "float64") {
        auto reference = ade::makeTrainer(configFor(c, threads), &error);
        if (!reference) throw std::runtime_error(error);
        ade::ParamSet g64 = p0.zerosLike();
        const double q64 = reference->objective(p0, &g64, {});
        f32err["loss"] = std::abs(q0 - q64) / std::abs(q64);
        for (int i : trainable)
            f32err["grad_" + p0.names[i]] = (grad[i] - g64[i]).norm() / g64[i].norm();
    }
    if (!outDir.empty()) {
        const auto dir = outDir / c.name;
        std::filesystem::create_directories(dir);
        // Data as (units, tokens, features); parameters and gradients by name.
        for (const auto& a : problem.dataArrays()) {
            if (a.name == "X_train") writeNpy(dir / "X.npy", a);
            if (a.name == "Y_train") writeNpy(dir / "Y.npy", a);
            if (a.name == "W_V") writeNpy(dir / "W_V.npy", a);
            if (c.experiment == "c" && (a.name == "W_pre" || a.name == "W2"))
                writeNpy(dir / (a.name + ".npy"), a);
        }
        for (std::size_t i = 0; i < p0.size(); ++i) {
            writeNpy(dir / (p0.names[i] + ".npy"), ade::toNamedArray(p0.names[i], p0[i]));
            writeNpy(dir / ("g" + p0.names[i] + ".npy"), ade::toNamedArray(p0.names[i], grad[i]));
        }
        nlohmann::json meta = {{"experiment", c.experiment}, {"params", p0.names}};
        for (const auto& [k, v] : c.sets)
            meta["config"][k] = v;
        if (c.experiment == "c") {
            meta["alpha"] = cfg.getReal("lora.alpha");
            meta["activation"] = cfg.getString("lora.activation");
        }
        std::ofstream(dir / "meta.json") << meta.dump(2) << "\n";
        NamedArray l{"loss", {1}, {q0}};
        writeNpy(dir / "loss.npy", l);
    }

    const Timing t = timeSteps(
        step, [&] { p = p0; }, reps, minTime);
    const auto& rates = t.rates;
    const int iters = t.iters;
    const double rate = median(rates);
    nlohmann::json j;
    j["case"] = c.name;
    j["experiment"] = c.experiment;
    j["n"] = c.n;
    j["P"] = c.prompts;
    j["d"] = c.d;

    j["lr"] = lr;
    j["threads"] = threads;
    j["precision"] = c.experiment == "a" ? precision : "float64";
    if (!f32err.is_null()) j["error_vs_float64"] = f32err;
    j["iters_per_rep"] = iters;
    j["rates"] = rates;
    j["it_per_s"] = rate;
    j["cpu_level"] = ade::cpu::levelName();  // the kernels' instruction-set level (util/CpuLevel.h)
    // Iterations per CPU-second of the whole process (all threads): a load-independent view
    // of the work, useful on a shared machine; equals it_per_s / threads on an idle one.
    j["it_per_cpu_s"] = median(t.cpuRates);
    j["flops_per_it"] = flopsA(c);
    j["gflops"] = rate * flopsA(c) * 1e-9;
    j["loss"] = q0;
    return j;
}

// Writes a (samples*T) x F token matrix as a (samples, T, F) array.
void writeTokens(const std::filesystem::path& file, const std::string& name,
                 const Eigen::MatrixXd& m, int tokens) {
    NamedArray a = ade::toNamedArray(name, m);
    a.shape = {static_cast<std::size_t>(m.rows() / tokens), static_cast<std::size_t>(tokens),
               static_cast<std::size_t>(m.cols())};
    writeNpy(file, a);
}

// Darcy stage 2: epochs per second of the product's stage-2 loop. The problem, its stage-1
// weights (the start) and the objective come from makeTrainer, as for a CLI run; one epoch is
// what Trainer::run does for trainingUnits / batch iterations of minibatch SGD: a fresh
// permutation of the samples, then per minibatch the objective's gradient (Trainer::objective:
// DarcyRegression's stage-2 loss plus the regulariser), the optimiser's direction, the step
// p -= lr dir on W_Q, W_K, the optimiser's perturbation and the finiteness checks. The records
// (train and test losses, which a run makes about 1000 times in all) are not part of the epoch.
nlohmann::json benchDarcy(const Case& c, int threads, int reps, double minTime,
                          const std::filesystem::path& outDir) {
    const ade::Config cfg = configFor(c, threads);
    std::string error;
    auto trainer = ade::makeTrainer(cfg, &error);  // data and stage 1 (cached); not timed
    if (!trainer) throw std::runtime_error(error);
    auto* problem = dynamic_cast<ade::DarcyRegression*>(&trainer->problem());
    if (!problem) throw std::runtime_error("darcy case: not a DarcyRegression");
    const auto seed = static_cast<std::uint64_t>(cfg.getInt("seed"));
    ade::Rng initRng(seed, ade::Rng::Init);
    const ade::ParamSet p0 = problem->initialParams(initRng);  // the stage-1 weights
    ade::ParamSet p = p0, grad = p0.zerosLike(), dir = grad, previous = p0;
    const std::vector<int> trainable = problem->trainable(p0);
    const double lr = cfg.getReal("lr");
    const int unitsTotal = problem->trainingUnits();
    const int batch = static_cast<int>(cfg.getInt("batch"));
    const int steps = unitsTotal / batch;
    auto optimizer = ade::makeOptimizer(cfg);
    if (!optimizer->usesMinibatches() || batch >= unitsTotal)
        throw std::runtime_error("darcy case: expects minibatches");
    ade::Rng optRng(seed, ade::Rng::Optimizer);
    std::vector<int> order(unitsTotal), units;
    for (int i = 0; i < unitsTotal; ++i)
        order[i] = i;

    // Trainer::run's loop body for one epoch (its permutation at the epoch's start).
    auto epoch = [&] {
        for (int i = unitsTotal - 1; i > 0; --i)
            std::swap(order[i], order[optRng.below(static_cast<std::uint64_t>(i) + 1)]);
        for (int s = 0; s < steps; ++s) {
            units.assign(order.begin() + s * batch, order.begin() + (s + 1) * batch);
            grad.setZero();
            const double q = trainer->objective(p, &grad, units);
            if (!std::isfinite(q) || !grad.allFinite())
                throw std::runtime_error("darcy case: objective not finite");
            dir = grad;
            problem->precondition(p, dir);
            optimizer->direction(dir, trainable);
            previous = p;
            for (int i : trainable)
                p[i].noalias() -= lr * dir[i];
            optimizer->perturb(p, lr, trainable, optRng);
            if (!p.allFinite()) throw std::runtime_error("darcy case: parameters not finite");
        }
    };

    // The starting point: objective and gradient over the whole training set, then one epoch
    // from there (the references check both).
    const double q0 = trainer->objective(p0, &grad, {});
    const ade::ParamSet g0 = grad;
    epoch();
    const std::vector<int> firstOrder = order;
    const ade::ParamSet p1 = p;
    const double q1 = trainer->objective(p1, nullptr, {});
    if (!outDir.empty()) {
        const auto caseDir = outDir / c.name;
        std::filesystem::create_directories(caseDir);
        const ade::DarcyTask& task = problem->task();
        writeTokens(caseDir / "X.npy", "X", task.train.X, task.tokens);
        writeTokens(caseDir / "Y.npy", "Y", task.train.Y, task.tokens);
        for (std::size_t i = 0; i < p0.size(); ++i)
            writeNpy(caseDir / (p0.names[i] + ".npy"), ade::toNamedArray(p0.names[i], p0[i]));
        std::vector<std::string> trained, frozen;
        for (std::size_t i = 0; i < p0.size(); ++i) {
            const bool t = std::find(trainable.begin(), trainable.end(), static_cast<int>(i)) !=
                           trainable.end();
            (t ? trained : frozen).push_back(p0.names[i]);
            if (!t) continue;
            writeNpy(caseDir / ("g" + p0.names[i] + ".npy"), ade::toNamedArray(p0.names[i], g0[i]));
            writeNpy(caseDir / (p0.names[i] + "_epoch.npy"), ade::toNamedArray(p0.names[i], p1[i]));
        }
        NamedArray perm{"perm", {static_cast<std::size_t>(unitsTotal)}, {}};
        for (int u : firstOrder)
            perm.values.push_back(u);
        writeNpy(caseDir / "perm.npy", perm);
        writeNpy(caseDir / "loss.npy", NamedArray{"loss", {1}, {q0}});
        nlohmann::json meta = {{"experiment", "darcy"},
                               {"params", trained},
                               {"frozen", frozen},
                               {"lr", lr},
                               {"batch", batch},
                               {"steps_per_epoch", steps},
                               {"regularizer", cfg.getString("regularizer")},
                               {"lambda", cfg.getReal("lambda")},
                               {"width", problem->model().width()},
                               {"loss_after_epoch", q1}};
        for (const auto& [k, v] : c.sets)
            meta["config"][k] = v;
        std::ofstream(caseDir / "meta.json") << meta.dump(2) << "\n";
    }

    const Timing t = timeSteps(
        epoch, [&] { p = p0; }, reps, minTime);
    nlohmann::json j;
    j["case"] = c.name;
    j["experiment"] = c.experiment;
    j["n"] = unitsTotal;
    j["P"] = 0;
    j["d"] = problem->model().width();
    j["lr"] = lr;
    j["batch"] = batch;
    j["steps_per_epoch"] = steps;
    j["threads"] = threads;
    j["iters_per_rep"] = t.iters;
    j["rates"] = t.rates;
    j["it_per_s"] = median(t.rates);  // epochs per second
    j["cpu_level"] = ade::cpu::levelName();
    j["it_per_cpu_s"] = median(t.cpuRates);
    const double flops = flopsDarcyEpoch(unitsTotal, problem->task().tokens,
                                         problem->model().width(),
                                         static_cast<int>(problem->task().train.Y.cols()));
    j["flops_per_it"] = flops;
    j["gflops"] = median(t.rates) * flops * 1e-9;
    j["loss"] = q0;
    j["loss_after_epoch"] = q1;
    return j;
}

// The machine's dense matmul rate: Eigen GEMM (m = 1536) on `threads` threads at once, each
// on its own matrices (the core's threads are independent workers too). Median of `reps`.
double measurePeak(int threads, int reps) {
    const int m = 1536;
    auto one = [m](double* gflops) {
        Eigen::MatrixXd a = Eigen::MatrixXd::Random(m, m), b = Eigen::MatrixXd::Random(m, m),
                        c(m, m);
        c.noalias() = a * b;  // warm up
        const int rounds = 4;
        const auto t0 = Clock::now();
        for (int r = 0; r < rounds; ++r)
            c.noalias() = a * b;
        *gflops = rounds * 2.0 * m * m * m / seconds(t0, Clock::now()) * 1e-9;
    };
    std::vector<double> totals;
    for (int r = 0; r < reps; ++r) {
        std::vector<double> g(threads, 0.0);
        std::vector<std::thread> ts;
        for (int t = 1; t < threads; ++t)
            ts.emplace_back(one, &g[t]);
        one(&g[0]);
        for (auto& t : ts)
            t.join();
        double sum = 0;
        for (double x : g)
            sum += x;
        totals.push_back(sum);
    }
    return median(totals);
}

// Finite-difference and determinism checks of the kernel on small and medium problems.
bool checkGradients() {
    bool ok = true;
    struct Check {
        int n, P, d, k;
        bool excludeSelf;
        double scale;
    };
    const std::vector<Check> checks = {
        {37, 3, 4, 4, false, 0.5},  {37, 3, 4, 4, true, 0.5},     {29, 2, 16, 16, false, 0.3},
        {50, 2, 3, 5, true, 0.5},   {300, 2, 4, 4, false, 2.0},   {130, 2, 7, 2, false, 0.5},
        {1000, 3, 4, 4, true, 0.8}, {700, 2, 16, 16, false, 0.4}, {1, 2, 4, 4, false, 0.5},
        {5, 3, 4, 4, true, 0.5},    {9, 2, 2, 3, true, 3.0},      {2, 2, 1, 1, true, 0.5}};
    for (const auto& ch : checks) {
        ade::RegressionDataSpec spec;
        spec.d = ch.d;
        spec.k = ch.k;
        spec.n = ch.n;
        spec.prompts = ch.P;
        ade::Rng rng(7, ade::Rng::Data);
        const auto truth = ade::makeRegressionTruth(spec, rng);
        const auto data = ade::sampleSequences(truth, spec, ch.P, rng);
        const Eigen::MatrixXd A = rng.normalMatrix(ch.k, ch.d, ch.scale);
        const Eigen::MatrixXd B = rng.normalMatrix(ch.d, ch.d, ch.scale);
        const ade::SoftmaxAttentionRegression model(ch.excludeSelf);
        Eigen::MatrixXd gA, gB, gA2, gB2;
        const double l1 = model.loss(A, B, data, {}, &gA, &gB, nullptr);
        ade::WorkerPool pool(2);
        const double l2 = model.loss(A, B, data, {}, &gA2, &gB2, &pool);
        const double l0 = model.loss(A, B, data, {}, nullptr, nullptr, &pool);
        const bool same = l1 == l2 && l0 == l1 && gA == gA2 && gB == gB2;
        // Direct dense loss for reference (full n x n per sequence).
        double dense = 0;
        for (int s = 0; s < ch.P; ++s) {
            const auto F = model.predict(A, B, data.X[s]);
            dense += (F - data.Y[s]).squaredNorm();
        }
        dense *= 0.5 / (static_cast<double>(ch.P) * ch.n);
        double maxRel = 0;
        // Error relative to the largest gradient entry of A and B together (dL/dB is exactly 0
        // when every row attends to one token, e.g. n = 1).
        const double den = std::max({gA.cwiseAbs().maxCoeff(), gB.cwiseAbs().maxCoeff(), 1e-300});
        auto fd = [&](const Eigen::MatrixXd& g, bool isA) {
            Eigen::MatrixXd Ap = A, Bp = B;
            double num = 0;
            for (Eigen::Index i = 0; i < g.size(); ++i) {
                const double h = 1e-5;
                Eigen::MatrixXd& M = isA ? Ap : Bp;
                const double orig = M(i);
                M(i) = orig + h;
                const double lp = model.loss(Ap, Bp, data, {}, nullptr, nullptr, nullptr);
                M(i) = orig - h;
                const double lm = model.loss(Ap, Bp, data, {}, nullptr, nullptr, nullptr);
                M(i) = orig;
                const double e = (lp - lm) / (2 * h);
                num = std::max(num, std::abs(e - g(i)));
            }
            return num / den;
        };
        maxRel = std::max(fd(gA, true), fd(gB, false));
        const double lossRel = std::abs(dense - l1) / std::abs(dense);
        const bool pass = same && maxRel < 1e-6 && lossRel < 1e-12;
        std::printf(
            "check n=%d P=%d d=%d k=%d exclude_self=%d: loss %.12g (dense rel diff %.1e), "
            "FD rel err %.2e, threads 1 vs 2 %s -> %s\n",
            ch.n, ch.P, ch.d, ch.k, ch.excludeSelf, l1, lossRel, maxRel,
            same ? "bit-identical" : "DIFFER", pass ? "ok" : "FAIL");
        ok = ok && pass;
    }
    return ok;
}

void usage() {
    std::puts(
        "usage: ade-bench [--threads T] [--reps R] [--min-time S] [--out DIR] [--json FILE]\n"
        "                 [--cases name,name,...] [--peak] [--roofline] [--check] [--list]\n"
        "                 [--precision float64|float32]\n"
        "  --check   finite-difference and thread-invariance checks of the kernel only\n"
        "  --peak    also measure the dense matmul peak (Eigen GEMM on T threads)\n"
        "  --roofline  the roofline's micro-benchmarks on T threads instead of timing the cases:\n"
        "            FMA rate, exp rates and errors, L2 rate, the parts of the listed cases\n"
        "            (bench/Roofline.h)\n"
        "  --precision  the Experiment A cases' precision key (default float64); float32 also\n"
        "            reports its loss and gradient errors against float64");
}

}  // namespace

int main(int argc, char** argv) {
    ade::keepFreedMemoryForReuse();  // as the programs users run do
    int threads = 1, reps = 5;
    double minTime = 0.5;
    std::filesystem::path outDir, jsonFile;
    std::vector<std::string> only;
    bool peak = false, check = false, roofline = false;
    std::string precision = "float64";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                usage();
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--threads")
            threads = std::stoi(next());
        else if (a == "--reps")
            reps = std::stoi(next());
        else if (a == "--min-time")
            minTime = std::stod(next());
        else if (a == "--out")
            outDir = next();
        else if (a == "--json")
            jsonFile = next();
        else if (a == "--peak")
            peak = true;
        else if (a == "--check")
            check = true;
        else if (a == "--roofline")
            roofline = true;
        else if (a == "--precision") {
            precision = next();
            if (precision != "float64" && precision != "float32") {
                usage();
                return 2;
            }
        }
        else if (a == "--cases") {
            std::string s = next();
            std::size_t pos = 0;
            while (pos <= s.size()) {
                const auto comma = s.find(',', pos);
                only.push_back(s.substr(pos, comma == std::string::npos ? comma : comma - pos));
                if (comma == std::string::npos) break;
                pos = comma + 1;
            }
        } else if (a == "--list") {
            for (const auto& c : kCases)
                std::puts(c.name.c_str());
            return 0;
        } else {
            usage();
            return a == "--help" || a == "-h" ? 0 : 2;
        }
    }
    try {
        if (check) return checkGradients() ? 0 : 1;
        nlohmann::json out;
        out["threads"] = threads;
        out["cases"] = nlohmann::json::array();
        for (const auto& c : kCases) {
            if (roofline) break;  // the roofline's micro-benchmarks replace the timed cases
            if (!only.empty() && std::find(only.begin(), only.end(), c.name) == only.end())
                continue;
            auto j = c.experiment == "darcy"
                         ? benchDarcy(c, threads, reps, minTime, outDir)
                         : benchCase(c, threads, reps, minTime, outDir, precision);
            std::printf("%-16s core %10.2f it/s  %7.2f GFlop/s  (%.2f it per CPU-second)\n",
                        c.name.c_str(), j["it_per_s"].get<double>(), j["gflops"].get<double>(),
                        j["it_per_cpu_s"].get<double>());
            std::fflush(stdout);
            out["cases"].push_back(j);
        }
        if (peak) {
            const double g = measurePeak(threads, std::max(1, reps));
            out["peak_gflops"] = g;
            std::printf("dense matmul peak (Eigen GEMM, %d threads): %.2f GFlop/s\n", threads, g);
        }
        if (roofline) {
            std::vector<adebench::RooflineCase> rc;
            for (const auto& c : kCases)
                if (only.empty() || std::find(only.begin(), only.end(), c.name) != only.end())
                    rc.push_back({c.name, c.experiment, c.n, c.prompts, c.d});
            out["roofline"] = adebench::measureRoofline(rc, threads, minTime);
            const auto& r = out["roofline"];
            std::printf("FMA rate (%d threads): float64 %.1f GFlop/s, float32 %.1f GFlop/s\n",
                        threads, r["fma_gflops"]["float64"].get<double>(),
                        r["fma_gflops"]["float32"].get<double>());
            for (const auto& e : r["exp"])
                std::printf("exp %-10s %s  %6.2f Gexp/s  max rel error %.1e  (%s)\n",
                            e["name"].get<std::string>().c_str(),
                            e["precision"].get<std::string>().c_str(),
                            e["gexp_per_s"].get<double>(), e["max_rel_error"].get<double>(),
                            e["note"].get<std::string>().c_str());
            std::printf("L2 stream (y += a x, 256 KiB per thread): %.0f GB/s\n",
                        r["l2_gbytes_per_s"].get<double>());
            for (const auto& [name, cj] : r["cases"].items()) {
                if (!cj.contains("parts")) continue;
                double total = 0;
                for (const auto& p : cj["parts"])
                    total += p["seconds_per_step"].get<double>();
                std::printf("parts of %s (%.3g ms per step in all):\n", name.c_str(), 1e3 * total);
                for (const auto& p : cj["parts"])
                    std::printf("  %-32s %5.1f%%  %6.1f GFlop/s on one thread\n",
                                p["part"].get<std::string>().c_str(),
                                100 * p["seconds_per_step"].get<double>() / total,
                                p["gflops_one_thread"].get<double>());
            }
        }
        if (!jsonFile.empty()) std::ofstream(jsonFile) << out.dump(2) << "\n";
    } catch (const std::exception& e) {
        std::fprintf(stderr, "ade-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
