#include "experiments/a/ExperimentA.h"

#include <cmath>
#include <sstream>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

namespace ade {

void registerExperimentAParams(ParamRegistry& r) {
    auto a = [&](ParamSpec s) {
        s.experiments = {"a"};
        r.add(std::move(s));
    };
    a(makeInt("data.d", "data", "Input dim d", 4, 1, 256, "Token dimension d of x."));
    a(makeInt("data.k", "data", "Output dim k", 4, 1, 256, "Dimension k of the target y = M x."));
    a(makeInt("data.rank", "data", "Rank of M", 0, 0, 256,
              "Rank r of the target map M (0 = min(k, d))."));
    a(makeInt("data.n", "data", "Tokens n", 64, 1, 1 << 20,
              "Tokens per sequence n. As n grows the attention output tends to A Sigma B^T x: "
              "the loss becomes a matrix factorisation."));
    a(makeInt("data.prompts", "data", "Sequences P", 32, 1, 1 << 20,
              "Number of training sequences (prompts) P."));
    a(makeInt("data.tokens", "data", "Total tokens", 0, 0, 1 << 30,
              "If > 0, holds the total P n fixed: P = max(1, tokens / n) (used by the "
              "data-compute scaling sweep)."));
    a(makeInt("data.test_prompts", "data", "Test sequences", 16, 1, 1 << 20,
              "Held-out fresh sequences (same n) for the test loss."));
    a(makeReal("data.noise", "data", "Noise sigma", 0.1, 0, 1e3,
               "Label noise sigma in y = M x + sigma eps; the irreducible loss is k sigma^2 / 2."));
    a(makeReal("data.kappa_sigma", "data", "kappa(Sigma)", 3.0, 1, 1e6,
               "Condition number of the token covariance Sigma (eigenvalues log-spaced from 1 to "
               "1/kappa).",
               true));
    a(makeReal("data.kappa_m", "data", "kappa(M)", 5.0, 1, 1e6,
               "Condition number of the target map M (singular values log-spaced from 1 to "
               "1/kappa).",
               true));
    a(makeBool("data.fresh", "data", "Fresh data", false,
               "Draw new training sequences every iteration (online SGD on the expected loss)."));
    a(makeBool("model.exclude_self", "model", "Exclude self", false,
               "Leave token i out of its own softmax (j != i)."));
    a(makeChoice("precision", "run", "Precision", "float64", {"float64", "float32"},
                 "Arithmetic of the training step (loss and gradients of L_n): float64, the "
                 "reference, or float32, about twice as fast at n >= 1024, with relative "
                 "errors up to about 2e-7 in the loss and 4e-6 in the gradients (measured: "
                 "docs/performance.md). The parameters, the optimiser and "
                 "the closed-form metrics (E(theta), manifold distance) stay in float64."));
    a(makeChoice("preconditioner", "optimizer", "Preconditioner", "none", {"none", "scaled"},
                 "scaled: Algorithm 1's scaled gradient step in the Sigmahat geometry, "
                 "A <- A - eta grad_A Q Sigmahat^-1/2 (R^T R + eps I)^-1 Sigmahat^-1/2 and "
                 "likewise for B."));
    r.addAlias("preconditioner=true", "scaled");
    r.addAlias("preconditioner=on", "scaled");
    r.addAlias("preconditioner=false", "none");
    r.addAlias("preconditioner=off", "none");
    a(makeReal("precond.damping", "optimizer", "Damping eps", 1e-3, 0, 1e6,
               "Damping of the preconditioner: eps times the mean eigenvalue is added before "
               "inverting R^T R and L^T L.",
               true));
    r.relevantWhen("precond.damping", {{"preconditioner", {"scaled"}}});
    a(makeInt("renormalize_every", "optimizer", "Renormalise every K", 0, 0, 1e9,
              "Every K steps replace (L, R) by the balanced pair with the same product "
              "(0 = never)."));
    r.costNeutral({"data.noise", "data.kappa_sigma", "data.kappa_m", "precond.damping"});
}

namespace {

RegressionDataSpec regressionSpecFrom(const Config& c) {
    RegressionDataSpec s;
    s.d = static_cast<int>(c.getInt("data.d"));
    s.k = static_cast<int>(c.getInt("data.k"));
    s.rank = static_cast<int>(c.getInt("data.rank"));
    s.n = static_cast<int>(c.getInt("data.n"));
    s.prompts = static_cast<int>(c.getInt("data.prompts"));
    const auto tokens = c.getInt("data.tokens");
    if (tokens > 0) s.prompts = static_cast<int>(std::max<std::int64_t>(1, tokens / s.n));
    s.testPrompts = static_cast<int>(c.getInt("data.test_prompts"));
    s.noise = c.getReal("data.noise");
    s.kappaSigma = c.getReal("data.kappa_sigma");
    s.kappaM = c.getReal("data.kappa_m");
    return s;
}

void validateA(const Config& c, std::vector<ConfigError>& errors) {
    const RegressionDataSpec s = regressionSpecFrom(c);
    if (s.rank > std::min(s.d, s.k))
        errors.push_back({"data.rank", std::to_string(s.rank),
                          "invalid value '" + std::to_string(s.rank) +
                              "' for key 'data.rank': the rank of M must be at most min(d, k) = " +
                              std::to_string(std::min(s.d, s.k))});
    // Memory: data (train + test) plus per-thread attention blocks.
    const double tokens = static_cast<double>(s.n) * (s.prompts + s.testPrompts);
    const double bytes =
        8.0 * tokens * (2.0 * s.d + s.k) + 8.0 * 4.0 * SoftmaxAttentionRegression::blockRows(s.n) *
                                               s.n * static_cast<double>(c.getInt("threads"));
    const double limit = 16.0 * 1024 * 1024 * 1024;
    if (bytes > limit) {
        std::ostringstream m;
        m << "configuration needs about " << bytes / (1024.0 * 1024 * 1024)
          << " GiB of memory (data.n * (data.prompts + data.test_prompts) tokens); the limit is "
             "16 GiB: lower data.n or data.prompts";
        errors.push_back({"data.prompts", std::to_string(s.prompts), m.str()});
    }
    if (c.getString("init") == "same" && c.getString("init_from").empty())
        errors.push_back({"init_from", "",
                          "init = same needs init_from: the name of the run "
                          "whose initial weights to reuse"});
}

std::string briefA(const Config& c) {
    std::ostringstream s;
    s << "n=" << c.getInt("data.n") << " P=" << regressionSpecFrom(c).prompts
      << " init=" << c.getString("init") << " opt=" << c.getString("optimizer");
    if (c.getString("preconditioner") != "none") s << "+precond";
    if (c.getString("regularizer") != "none")
        s << " reg=" << c.getString("regularizer") << "(" << c.getReal("lambda") << ")";
    if (c.getString("precision") != "float64") s << " " << c.getString("precision");
    return s.str();
}

}  // namespace

void describeExperimentA(ExperimentInfo& info);  // DescribeA.cpp: About, metrics, charts

ExperimentInfo experimentAInfo() {
    ExperimentInfo info;
    info.registerParams = registerExperimentAParams;
    describeExperimentA(info);
    info.name = "a";
    info.title = "Softmax self-attention on linear regression (Paper A)";
    info.make = [](const Config& c, std::string*) -> std::unique_ptr<Problem> {
        return std::make_unique<ExperimentA>(c);
    };
    info.validate = validateA;
    info.brief = briefA;
    return info;
}

ExperimentA::ExperimentA(const Config& c)
    : spec_(regressionSpecFrom(c)),
      init_(c.getString("init")),
      initScale_(c.getReal("init_scale")),
      regularizer_(c.getString("regularizer")),
      lambda_(c.getReal("lambda")),
      preconditioned_(c.getString("preconditioner") == "scaled"),
      damping_(c.getReal("precond.damping")),
      fresh_(c.getBool("data.fresh")),
      model_(c.getBool("model.exclude_self"), *parsePrecision(c.getString("precision"))) {
    const auto seed = static_cast<std::uint64_t>(c.getInt("seed"));
    Rng dataRng(seed, Rng::Data);
    truth_ = makeRegressionTruth(spec_, dataRng);
    train_ = sampleSequences(truth_, spec_, spec_.prompts, dataRng);
    Rng testRng(seed, Rng::TestData);
    test_ = sampleSequences(truth_, spec_, spec_.testPrompts, testRng);
    if (model_.precision() == Precision::Float32) {
        train_.makeSingleCopies();  // kept in step by resampleSequences (fresh data)
        test_.makeSingleCopies();
    }
    computeMoments();
    manifold_ =
        std::make_unique<ManifoldDistance>(truth_.M, truth_.sigmaHalf, spec_.effectiveRank());
    const int threads = static_cast<int>(c.getInt("threads"));
    if (threads > 1) pool_ = std::make_unique<WorkerPool>(threads);
}

ExperimentA::~ExperimentA() = default;

void ExperimentA::computeMoments() {
    sigmaHat_.setZero(spec_.d, spec_.d);
    crossHat_.setZero(spec_.k, spec_.d);
    double count = 0;
    for (int s = 0; s < train_.sequences(); ++s) {
        sigmaHat_.noalias() += train_.X[s].transpose() * train_.X[s];
        crossHat_.noalias() += train_.Y[s].transpose() * train_.X[s];
        count += static_cast<double>(train_.X[s].rows());
    }
    sigmaHat_ /= count;
    crossHat_ /= count;
    // Guard a rank-deficient Sigmahat (few tokens): a tiny ridge keeps its inverse finite.
    const double ridge = 1e-10 * std::max(sigmaHat_.trace() / spec_.d, 1e-300);
    sigmaHat_ += ridge * Eigen::MatrixXd::Identity(spec_.d, spec_.d);
    sigmaHatHalf_ = spdSqrt(sigmaHat_);
    sigmaHatInvHalf_ = spdInvSqrt(sigmaHat_);
}

double ExperimentA::irreducibleLoss() const {
    return 0.5 * spec_.k * spec_.noise * spec_.noise;
}

ParamSet ExperimentA::initialParams(Rng& rng) {
    ParamSet p;
    p.names = {"A", "B"};
    Eigen::MatrixXd A(spec_.k, spec_.d), B(spec_.d, spec_.d);
    if (init_ == "spectral") {
        spectralInit(crossHat_, sigmaHatInvHalf_, spec_.effectiveRank(), A, B);
    } else {
        const double scale = init_ == "small" ? 1e-3 : initScale_;
        rng.fillNormal(A, scale);
        rng.fillNormal(B, scale);
    }
    p.mats = {A, B};
    return p;
}

double ExperimentA::loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) {
    return model_.loss(p[0], p[1], train_, units, grad ? &(*grad)[0] : nullptr,
                       grad ? &(*grad)[1] : nullptr, pool_.get());
}

void ExperimentA::beginIteration(Rng& rng) {
    if (fresh_) resampleSequences(truth_, spec_.noise, train_, rng);
}

double ExperimentA::structuralRegularizer(const ParamSet& p, ParamSet* grad) {
    if (regularizer_ != "balancing" || lambda_ == 0.0) return 0.0;
    return balancingRegularizer(p[0], p[1], sigmaHatHalf_, lambda_, grad ? &(*grad)[0] : nullptr,
                                grad ? &(*grad)[1] : nullptr);
}

void ExperimentA::precondition(const ParamSet& p, ParamSet& dir) {
    if (!preconditioned_) return;
    const Factors f = toFactors(p[0], p[1], sigmaHatHalf_);
    const int d = spec_.d;
    const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(d, d);
    auto dampedInverse = [&](const Eigen::MatrixXd& gram) {
        const double eps = std::max(damping_ * gram.trace() / d, 1e-12);
        return Eigen::MatrixXd((gram + eps * I).ldlt().solve(I));
    };
    const Eigen::MatrixXd RtR = f.R.transpose() * f.R;
    const Eigen::MatrixXd LtL = f.L.transpose() * f.L;
    dir[0] = (dir[0] * sigmaHatInvHalf_ * dampedInverse(RtR) * sigmaHatInvHalf_).eval();
    dir[1] = (sigmaHatInvHalf_ * sigmaHatInvHalf_ * dir[1] * sigmaHatInvHalf_ * dampedInverse(LtL) *
              sigmaHatInvHalf_)
                 .eval();
}

void ExperimentA::renormalize(ParamSet& p) {
    const Factors f = toFactors(p[0], p[1], sigmaHatHalf_);
    const Factors balanced = balancedFactors(f.L * f.R.transpose(), std::min(spec_.d, spec_.k));
    fromFactors(balanced, sigmaHatInvHalf_, p[0], p[1]);
}

std::vector<std::string> ExperimentA::metricNames() const {
    return {"train_loss",
            "test_loss",
            "excess_risk",
            "manifold_distance",
            "manifold_distance_rel",
            "norm_A",
            "norm_B",
            "norm_L",
            "norm_R",
            "imbalance",
            "gen_gap"};
}

void ExperimentA::evaluate(const ParamSet& p, double trainLoss,
                           std::map<std::string, double>& out) {
    const double testLoss = model_.loss(p[0], p[1], test_, {}, nullptr, nullptr, pool_.get());
    const Factors f = toFactors(p[0], p[1], truth_.sigmaHalf);
    const double dist = manifold_->distance(f);
    out["train_loss"] = trainLoss;
    out["test_loss"] = testLoss;
    out["excess_risk"] = populationExcessRisk(p[0], p[1], truth_.sigma, truth_.sigmaHalf, truth_.M);
    out["manifold_distance"] = dist;
    out["manifold_distance_rel"] = dist / manifold_->scale();
    out["norm_A"] = p[0].norm();
    out["norm_B"] = p[1].norm();
    out["norm_L"] = f.L.norm();
    out["norm_R"] = f.R.norm();
    out["imbalance"] = imbalance(f);
    out["gen_gap"] = testLoss - trainLoss;
}

std::vector<NamedArray> ExperimentA::dataArrays() const {
    std::vector<NamedArray> out;
    auto stack = [](const std::string& name, const std::vector<Eigen::MatrixXd>& mats) {
        NamedArray a;
        a.name = name;
        const std::size_t rows = mats.empty() ? 0 : mats[0].rows();
        const std::size_t cols = mats.empty() ? 0 : mats[0].cols();
        a.shape = {mats.size(), rows, cols};
        a.values.reserve(mats.size() * rows * cols);
        for (const auto& m : mats)
            for (std::size_t i = 0; i < rows; ++i)
                for (std::size_t j = 0; j < cols; ++j)
                    a.values.push_back(m(i, j));
        return a;
    };
    out.push_back(stack("X_train", train_.X));
    out.push_back(stack("Y_train", train_.Y));
    out.push_back(stack("X_test", test_.X));
    out.push_back(stack("Y_test", test_.Y));
    out.push_back(toNamedArray("Sigma", truth_.sigma));
    out.push_back(toNamedArray("M", truth_.M));
    return out;
}

}  // namespace ade
