#include "experiments/b/ExperimentB.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <span>
#include <sstream>
#include <vector>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "experiments/b/HeadKernels.h"
#include "training/AttentionWeights.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

namespace ade::kernels::head {
using Table = HeadKernels;
ADE_KERNEL_CHOOSER
}  // namespace ade::kernels::head

namespace ade {

void registerExperimentBParams(ParamRegistry& r) {
    for (const char* e : {"b", "c"}) {
        r.extend("data.d", e);
        r.extend("data.n", e);
        r.extend("data.noise", e);
    }
    r.extend("experiment", "b",
             "b = stochastic training of single-head attention with weak regularisers (Paper B); "
             "c = LoRA on a depth-2 network (Paper B); darcy = ViT-style attention regressor on "
             "Darcy flow, stage 2 training only W_Q, W_K (Paper B).");
    r.extend("data.d", "b", "Experiment c: input dimension d of x.");
    r.extend("data.n", "b",
             "Experiments b and c: number of training samples |D| (full-batch gd and sde use all "
             "of them, sgd and adam draw minibatches of `batch`).");
    r.extend("data.noise", "b", "Experiments b and c: targets are teacher outputs + sigma eps.");
    auto bc = keysFor(r, {"b", "c"});
    bc(makeInt("data.test_n", "data", "Test samples", 256, 1, 1 << 22,
               "Held-out samples from the same teacher for the test loss and the "
               "generalisation gap."));
    bc(makeInt("villani.probes", "regularizer", "Villani probes", 4, 0, 1024,
               "Hutchinson probes for the Villani quantity -Lap V + ||grad V||^2 / s (column "
               "'villani', V = loss + regulariser, s = temperature); 0 = not computed."));
    auto b = keysFor(r, {"b"});
    b(makeInt("b.tokens", "data", "Tokens N", 8, 1, 4096,
              "Tokens per sample N: X is N x d with N(0, I) rows."));
    b(makeInt("b.dk", "model", "Key dim d_k", 4, 1, 1024,
              "Width d_k of W_Q and W_K (d x d_k); the score is x_i^T W_Q W_K^T x_j / sqrt(d_k)."));
    b(makeInt("b.dv", "model", "Value dim d_v", 4, 1, 1024,
              "Width d_v of the fixed value matrix W_V (d x d_v, shared with the teacher)."));
    b(makeReal("b.tau", "data", "Teacher sharpness tau", 6.0, 0, 1e4,
               "Teacher W_Q* = sqrt(tau) Q1, W_K* = sqrt(tau) Q2 with orthonormal columns, so the "
               "teacher's scores have standard deviation about tau. A sharp teacher makes the "
               "unregularised student keep sharpening its attention (growing norms)."));
}

namespace {

void validateB(const Config& c, std::vector<ConfigError>& errors) {
    validatePaperBCommon(c, errors);
    const double values = static_cast<double>(c.getInt("data.n") + c.getInt("data.test_n")) *
                          static_cast<double>(c.getInt("b.tokens")) *
                          static_cast<double>(c.getInt("data.d") + c.getInt("b.dv"));
    if (values * 8.0 > 8.0 * 1024 * 1024 * 1024)
        errors.push_back({"data.n", std::to_string(c.getInt("data.n")),
                          "configuration needs more than 8 GiB for the data: lower data.n, "
                          "data.test_n or b.tokens"});
}

std::string briefB(const Config& c) {
    std::ostringstream s;
    s << "n=" << c.getInt("data.n") << " N=" << c.getInt("b.tokens");
    briefOptimizerAndRegularizer(s, c);
    return s.str();
}

// Orthonormal columns (d x k) when k <= d, Gaussian columns of norm about 1 otherwise.
Eigen::MatrixXd teacherFactor(int d, int k, Rng& rng) {
    if (k <= d) return randomOrthogonal(d, rng).leftCols(k);
    return rng.normalMatrix(d, k, 1.0 / std::sqrt(static_cast<double>(d)));
}

TokenSamples sampleTokens(int samples, int tokens, int d, const SingleHeadAttention& teacher,
                          const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK, double noise,
                          Rng& rng) {
    TokenSamples s;
    s.samples = samples;
    s.tokens = tokens;
    s.X = rng.normalMatrix(static_cast<Eigen::Index>(samples) * tokens, d);
    s.Y.resize(s.X.rows(), teacher.WV().cols());
    for (int i = 0; i < samples; ++i) {
        const auto rows = Eigen::seqN(static_cast<Eigen::Index>(i) * tokens, tokens);
        s.Y(rows, Eigen::all) = teacher.predict(WQ, WK, s.X(rows, Eigen::all));
    }
    if (noise > 0) s.Y += rng.normalMatrix(s.Y.rows(), s.Y.cols(), noise);
    return s;
}

}  // namespace

Eigen::MatrixXd SingleHeadAttention::attention(const Eigen::MatrixXd& WQ,
                                               const Eigen::MatrixXd& WK,
                                               const Eigen::MatrixXd& X) const {
    return rowSoftmax((X * WQ) * (X * WK).transpose() / std::sqrt(static_cast<double>(dk_)));
}

Eigen::MatrixXd SingleHeadAttention::predict(const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK,
                                             const Eigen::MatrixXd& X) const {
    return attention(WQ, WK, X) * (X * WV_);
}

double SingleHeadAttention::loss(const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK,
                                 const TokenSamples& data, std::span<const int> units,
                                 Eigen::MatrixXd* gQ, Eigen::MatrixXd* gK, WorkerPool* pool) const {
    return kernels::head::running().loss(WV_, dk_, WQ, WK, data, units, gQ, gK, pool);
}

void describeExperimentB(ExperimentInfo& info);  // DescribeB.cpp: About, metrics, charts

ExperimentInfo experimentBInfo() {
    ExperimentInfo info;
    info.registerParams = registerExperimentBParams;
    describeExperimentB(info);
    info.name = "b";
    info.title = "Stochastic training of single-head attention with weak regularisers (Paper B)";
    info.make = [](const Config& c, std::string*) -> std::unique_ptr<Problem> {
        return std::make_unique<ExperimentB>(c);
    };
    info.validate = validateB;
    info.brief = briefB;
    return info;
}

ExperimentB::ExperimentB(const Config& c)
    : FactorPairProblem(c, FactorPair{}),
      d_(static_cast<int>(c.getInt("data.d"))),
      dk_(static_cast<int>(c.getInt("b.dk"))),
      dv_(static_cast<int>(c.getInt("b.dv"))),
      tokens_(static_cast<int>(c.getInt("b.tokens"))) {
    const auto seed = static_cast<std::uint64_t>(c.getInt("seed"));
    Rng teacherRng(seed, Rng::Teacher);
    const double tau = c.getReal("b.tau");
    WQstar_ = std::sqrt(tau) * teacherFactor(d_, dk_, teacherRng);
    WKstar_ = std::sqrt(tau) * teacherFactor(d_, dk_, teacherRng);
    model_ = SingleHeadAttention(
        teacherRng.normalMatrix(d_, dv_, 1.0 / std::sqrt(static_cast<double>(d_))), dk_);
    const double noise = c.getReal("data.noise");
    Rng dataRng(seed, Rng::Data), testRng(seed, Rng::TestData);
    train_ = sampleTokens(static_cast<int>(c.getInt("data.n")), tokens_, d_, model_, WQstar_,
                          WKstar_, noise, dataRng);
    test_ = sampleTokens(static_cast<int>(c.getInt("data.test_n")), tokens_, d_, model_, WQstar_,
                         WKstar_, noise, testRng);
    setTeacherProduct(WQstar_ * WKstar_.transpose(), dk_);
    setTeacherTestLoss(model_.loss(WQstar_, WKstar_, test_, {}, nullptr, nullptr, pool_.get()));
    setFactorPlane({"‖W_Q‖_F", "‖W_K‖_F", "norm_WQ", "norm_WK"});
}

ExperimentB::~ExperimentB() = default;

ParamSet ExperimentB::initialParams(Rng& rng) {
    return initialFactors(rng, "W_Q", d_, dk_, "W_K", d_, dk_);
}

double ExperimentB::loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) {
    return model_.loss(p[0], p[1], train_, units, grad ? &(*grad)[0] : nullptr,
                       grad ? &(*grad)[1] : nullptr, pool_.get());
}

std::vector<std::string> ExperimentB::metricNames() const {
    std::vector<std::string> names = {
        "train_loss", "test_loss", "gen_gap",   "excess_test_loss",  "norm_WQ",
        "norm_WK",    "norm_sq",   "imbalance", "manifold_distance", "manifold_distance_rel"};
    if (villaniProbes_ > 0) names.push_back("villani");
    return names;
}

void ExperimentB::evaluate(const ParamSet& p, double trainLoss,
                           std::map<std::string, double>& out) {
    const double testLoss = model_.loss(p[0], p[1], test_, {}, nullptr, nullptr, pool_.get());
    evaluateFactors(p, trainLoss, testLoss, "norm_WQ", "norm_WK", out);
    out["norm_sq"] = p[0].squaredNorm() + p[1].squaredNorm();
}

std::vector<NamedArray> ExperimentB::dataArrays() const {
    auto stacked = [&](const std::string& name, const Eigen::MatrixXd& m, int samples) {
        NamedArray a = toNamedArray(name, m);
        a.shape = {static_cast<std::size_t>(samples), static_cast<std::size_t>(tokens_),
                   static_cast<std::size_t>(m.cols())};
        return a;
    };
    return {stacked("X_train", train_.X, train_.samples),
            stacked("Y_train", train_.Y, train_.samples),
            stacked("X_test", test_.X, test_.samples),
            stacked("Y_test", test_.Y, test_.samples),
            toNamedArray("W_Q_star", WQstar_),
            toNamedArray("W_K_star", WKstar_),
            toNamedArray("W_V", model_.WV())};
}

}  // namespace ade

namespace ade {

std::vector<MatrixView> ExperimentB::matrixViews(const ParamSet& p) {
    const Eigen::MatrixXd prod = product(p);
    const Eigen::MatrixXd teacher = WQstar_ * WKstar_.transpose();
    return {{"W_Q W_Kᵀ", "The product the model sees: score x_iᵀ W_Q W_Kᵀ x_j / √d_k.", 0, prod},
            {"W_Q* W_K*ᵀ", "The teacher's product, which generated the targets.", 0, teacher},
            {"W_Q W_Kᵀ − W_Q* W_K*ᵀ", "How far the student's product is from the teacher's.", 0,
             prod - teacher},
            {"W_Q", "The query factor (d × d_k).", 1, p[0]},
            {"W_K", "The key factor (d × d_k).", 1, p[1]},
            {"W_Q*", "The teacher's query factor: any (W_Q* G, W_K* G⁻ᵀ) has the same product.", 1,
             WQstar_},
            {"W_K*", "The teacher's key factor.", 1, WKstar_}};
}

std::optional<AttentionView> ExperimentB::attentionView(const ParamSet& p, int maxTokens) {
    if (test_.samples == 0) return std::nullopt;
    const int n = std::min(tokens_, std::max(1, maxTokens));
    const Eigen::MatrixXd X = test_.X.topRows(n);
    AttentionView v;
    v.title = "softmax(x_iᵀ W_Q W_Kᵀ x_j / √d_k), held-out sample 1";
    if (n < tokens_) v.title += " (first " + std::to_string(n) + " tokens)";
    v.weights = model_.attention(p[0], p[1], X);
    v.referenceTitle = "teacher: softmax(x_iᵀ W_Q* W_K*ᵀ x_j / √d_k)";
    v.reference = model_.attention(WQstar_, WKstar_, X);
    addTokenFeatures(v, X);
    return v;
}

}  // namespace ade
