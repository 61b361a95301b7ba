#include "experiments/c/ExperimentC.h"

#include <algorithm>
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
#include "experiments/c/LoraKernels.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

namespace ade::kernels::lora {
using Table = LoraKernels;
ADE_KERNEL_CHOOSER
}  // namespace ade::kernels::lora

namespace ade {

void registerExperimentCParams(ParamRegistry& r) {
    auto c = keysFor(r, {"c"});
    c(makeInt("lora.hidden", "model", "Hidden width h", 16, 1, 4096,
              "Hidden width h of the depth-2 network W2 sigma(W x) (W_pre is h x d)."));
    c(makeInt("lora.out", "model", "Output dim o", 4, 1, 4096,
              "Output dimension o (W2 is o x h, frozen)."));
    c(makeInt("lora.rank", "model", "LoRA rank r", 2, 1, 4096,
              "Rank r of the adapter alpha U V (U is h x r, V is r x d); the teacher has the same "
              "rank. At most min(h, d)."));
    c(makeReal("lora.alpha", "model", "LoRA alpha", 1.0, 0, 1e6,
               "Scale alpha of the adapter: W = W_pre + alpha U V.", false, true));
    c(makeChoice("lora.activation", "model", "Activation", "tanh", {"tanh", "softplus"},
                 "Smooth activation sigma of the hidden layer (the theory needs smoothness)."));
    r.addAlias("rank", "lora.rank");
    r.addAlias("alpha", "lora.alpha");
    r.addAlias("activation", "lora.activation");
}

namespace {

void validateC(const Config& c, std::vector<ConfigError>& errors) {
    validatePaperBCommon(c, errors);
    const auto r = c.getInt("lora.rank");
    const auto lim = std::min(c.getInt("lora.hidden"), c.getInt("data.d"));
    if (r > lim)
        errors.push_back({"lora.rank", std::to_string(r),
                          "invalid value '" + std::to_string(r) +
                              "' for key 'lora.rank': the rank must be at most min(lora.hidden, "
                              "data.d) = " +
                              std::to_string(lim)});
}

std::string briefC(const Config& c) {
    std::ostringstream s;
    s << "n=" << c.getInt("data.n") << " r=" << c.getInt("lora.rank") << " "
      << c.getString("lora.activation");
    briefOptimizerAndRegularizer(s, c);
    return s.str();
}

}  // namespace

void describeExperimentC(ExperimentInfo& info);  // DescribeC.cpp: About, metrics, charts

ExperimentInfo experimentCInfo() {
    ExperimentInfo info;
    info.registerParams = registerExperimentCParams;
    describeExperimentC(info);
    info.name = "c";
    info.title = "LoRA on a depth-2 network (Paper B)";
    info.make = [](const Config& c, std::string*) -> std::unique_ptr<Problem> {
        return std::make_unique<ExperimentC>(c);
    };
    info.validate = validateC;
    info.brief = briefC;
    return info;
}

Eigen::MatrixXd LoraNetwork::predict(const Eigen::MatrixXd& U, const Eigen::MatrixXd& V,
                                     const Eigen::MatrixXd& X) const {
    const Eigen::MatrixXd W = Wpre_ + alpha_ * U * V;
    Eigen::MatrixXd Z = X * W.transpose();
    if (act_ == Activation::Tanh)
        Z = Z.array().tanh().matrix();
    else
        Z = (Z.array().max(0.0) + (-Z.array().abs()).exp().log1p()).matrix();
    return Z * W2_.transpose();
}

double LoraNetwork::loss(const Eigen::MatrixXd& U, const Eigen::MatrixXd& V,
                         const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y,
                         std::span<const int> units, Eigen::MatrixXd* gU, Eigen::MatrixXd* gV,
                         WorkerPool* pool) const {
    return kernels::lora::running().loss(*this, U, V, X, Y, units, gU, gV, pool);
}

ExperimentC::ExperimentC(const Config& c)
    : FactorPairProblem(c, FactorPair{0, 1, true}),
      d_(static_cast<int>(c.getInt("data.d"))),
      h_(static_cast<int>(c.getInt("lora.hidden"))),
      o_(static_cast<int>(c.getInt("lora.out"))),
      r_(static_cast<int>(c.getInt("lora.rank"))) {
    const auto seed = static_cast<std::uint64_t>(c.getInt("seed"));
    Rng teacherRng(seed, Rng::Teacher);
    const double alpha = c.getReal("lora.alpha");
    Eigen::MatrixXd Wpre = teacherRng.normalMatrix(h_, d_, 1.0 / std::sqrt(double(d_)));
    Eigen::MatrixXd W2 = teacherRng.normalMatrix(o_, h_, 1.0 / std::sqrt(double(h_)));
    // Teacher adapter: alpha U* V* x has O(1) entries, like W_pre x.
    Ustar_ = teacherRng.normalMatrix(h_, r_, 1.0 / std::sqrt(double(r_))) / alpha;
    Vstar_ = teacherRng.normalMatrix(r_, d_, 1.0 / std::sqrt(double(d_)));
    net_ = LoraNetwork(
        std::move(Wpre), std::move(W2), alpha,
        c.getString("lora.activation") == "softplus" ? Activation::Softplus : Activation::Tanh);
    const double noise = c.getReal("data.noise");
    auto sample = [&](int n, Rng& rng, Eigen::MatrixXd& X, Eigen::MatrixXd& Y) {
        X = rng.normalMatrix(n, d_);
        Y = net_.predict(Ustar_, Vstar_, X);
        if (noise > 0) Y += rng.normalMatrix(Y.rows(), Y.cols(), noise);
    };
    Rng dataRng(seed, Rng::Data), testRng(seed, Rng::TestData);
    sample(static_cast<int>(c.getInt("data.n")), dataRng, Xtrain_, Ytrain_);
    sample(static_cast<int>(c.getInt("data.test_n")), testRng, Xtest_, Ytest_);
    setTeacherProduct(Ustar_ * Vstar_, r_);
    setTeacherTestLoss(
        net_.loss(Ustar_, Vstar_, Xtest_, Ytest_, {}, nullptr, nullptr, pool_.get()));
    setFactorPlane({"‖U‖_F", "‖V‖_F", "norm_U", "norm_V"});
}

ExperimentC::~ExperimentC() = default;

ParamSet ExperimentC::initialParams(Rng& rng) {
    return initialFactors(rng, "U", h_, r_, "V", r_, d_);
}

double ExperimentC::loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) {
    return net_.loss(p[0], p[1], Xtrain_, Ytrain_, units, grad ? &(*grad)[0] : nullptr,
                     grad ? &(*grad)[1] : nullptr, pool_.get());
}

std::vector<std::string> ExperimentC::metricNames() const {
    std::vector<std::string> names = {
        "train_loss", "test_loss", "gen_gap",           "excess_test_loss",     "norm_U",
        "norm_V",     "imbalance", "manifold_distance", "manifold_distance_rel"};
    if (villaniProbes_ > 0) names.push_back("villani");
    return names;
}

void ExperimentC::evaluate(const ParamSet& p, double trainLoss,
                           std::map<std::string, double>& out) {
    const double testLoss =
        net_.loss(p[0], p[1], Xtest_, Ytest_, {}, nullptr, nullptr, pool_.get());
    evaluateFactors(p, trainLoss, testLoss, "norm_U", "norm_V", out);
}

std::vector<NamedArray> ExperimentC::dataArrays() const {
    return {toNamedArray("X_train", Xtrain_),   toNamedArray("Y_train", Ytrain_),
            toNamedArray("X_test", Xtest_),     toNamedArray("Y_test", Ytest_),
            toNamedArray("W_pre", net_.Wpre()), toNamedArray("W2", net_.W2()),
            toNamedArray("U_star", Ustar_),     toNamedArray("V_star", Vstar_)};
}

std::vector<MatrixView> ExperimentC::matrixViews(const ParamSet& p) {
    const double alpha = net_.alpha();
    const Eigen::MatrixXd update = alpha * product(p);
    const Eigen::MatrixXd target = alpha * Ustar_ * Vstar_;
    return {{"α U V", "The LoRA update added to W_pre (h × d): W = W_pre + α U V.", 0, update},
            {"α U* V*", "The target update that generated the data.", 0, target},
            {"α U V − α U* V*", "How far the update is from its target.", 0, update - target},
            {"U", "The adapter's left factor (h × r).", 1, p[0]},
            {"V", "The adapter's right factor (r × d).", 1, p[1]}};
}

}  // namespace ade
