#include "experiments/FactorPairProblem.h"

#include <cmath>

#include "models/VillaniEstimate.h"
#include "util/WorkerPool.h"

namespace ade {

namespace {

constexpr std::uint64_t kVillaniStream = 101;

}  // namespace

double factorPairBalancing(FactorPair pair, const std::string& regularizer, double lambda,
                           const ParamSet& p, ParamSet* grad) {
    if (regularizer != "balancing" || lambda == 0.0) return 0.0;
    Eigen::MatrixXd* gL = grad ? &(*grad)[pair.left] : nullptr;
    if (!pair.rightTransposed)
        return balancingPenalty(p[pair.left], p[pair.right], lambda, gL,
                                grad ? &(*grad)[pair.right] : nullptr);
    // R = p[right]^T: its gradient is computed in R's shape, then added transposed.
    Eigen::MatrixXd gR;
    if (grad) gR.setZero(p[pair.right].cols(), p[pair.right].rows());
    const double v =
        balancingPenalty(p[pair.left], p[pair.right].transpose(), lambda, gL, grad ? &gR : nullptr);
    if (grad) (*grad)[pair.right] += gR.transpose();
    return v;
}

FactorPairProblem::FactorPairProblem(const Config& c, FactorPair pair)
    : villaniProbes_(static_cast<int>(c.getInt("villani.probes"))),
      pair_(pair),
      init_(c.getString("init")),
      initScale_(c.getReal("init_scale")),
      regularizer_(c.getString("regularizer")),
      lambda_(c.getReal("lambda")),
      penalty_(makeRegularizer(regularizer_, lambda_, c.getReal("epsilon"))),
      temperature_(c.getReal("temperature")),
      villaniRng_(static_cast<std::uint64_t>(c.getInt("seed")), kVillaniStream) {
    const int threads = static_cast<int>(c.getInt("threads"));
    if (threads > 1) pool_ = std::make_unique<WorkerPool>(threads);
}

FactorPairProblem::~FactorPairProblem() = default;

void FactorPairProblem::setTeacherProduct(const Eigen::MatrixXd& product, int width) {
    orbit_ = BalancedOrbit(product, width);
}

ParamSet FactorPairProblem::initialFactors(Rng& rng, const std::string& nameL, Eigen::Index rowsL,
                                           Eigen::Index colsL, const std::string& nameR,
                                           Eigen::Index rowsR, Eigen::Index colsR) const {
    const double scale = init_ == "small" ? 1e-3 : initScale_;
    ParamSet p;
    p.names = {nameL, nameR};
    // A braced list is evaluated in order: L's entries are drawn first.
    p.mats = {rng.normalMatrix(rowsL, colsL, scale), rng.normalMatrix(rowsR, colsR, scale)};
    return p;
}

double FactorPairProblem::structuralRegularizer(const ParamSet& p, ParamSet* grad) {
    return factorPairBalancing(pair_, regularizer_, lambda_, p, grad);
}

ParamSet factorPairOrbitMove(FactorPair pair, const ParamSet& p, double t) {
    ParamSet q = p;
    q[pair.left] *= std::exp(t);
    q[pair.right] *= std::exp(-t);  // R or R^T: a scalar commutes with the transpose
    return q;
}

Eigen::MatrixXd FactorPairProblem::rightFactor(const ParamSet& p) const {
    if (pair_.rightTransposed) return p[pair_.right].transpose();
    return p[pair_.right];
}

Eigen::MatrixXd FactorPairProblem::product(const ParamSet& p) const {
    return p[pair_.left] * rightFactor(p).transpose();
}

Eigen::Vector2d FactorPairProblem::factorPoint(const ParamSet& p) const {
    return {p[pair_.left].norm(), p[pair_.right].norm()};
}

std::optional<ParamSet> FactorPairProblem::orbitMove(const ParamSet& p, double t) const {
    // (L e^{tH}, R e^{-tH^T}) with H = I: a scalar rescaling, the same for R stored transposed.
    return factorPairOrbitMove(pair_, p, t);
}

void FactorPairProblem::evaluateFactors(const ParamSet& p, double trainLoss, double testLoss,
                                        const char* normL, const char* normR,
                                        std::map<std::string, double>& out) {
    const Eigen::MatrixXd& L = p[pair_.left];
    const Eigen::MatrixXd R = rightFactor(p);
    const double dist = orbit_.distance(L, R);
    out["train_loss"] = trainLoss;
    out["test_loss"] = testLoss;
    out["gen_gap"] = testLoss - trainLoss;
    if (std::isfinite(teacherTestLoss_)) out["excess_test_loss"] = testLoss - teacherTestLoss_;
    out[normL] = L.norm();
    out[normR] = p[pair_.right].norm();
    out["imbalance"] = factorImbalance(L, R);
    out["manifold_distance"] = dist;
    out["manifold_distance_rel"] = dist / orbit_.scale();
    if (villaniProbes_ > 0) {
        // V = data loss + structural regulariser + the per-matrix regulariser of the objective.
        auto objective = [&](const ParamSet& q, ParamSet* g) {
            double v = loss(q, g, {}) + structuralRegularizer(q, g);
            if (penalty_)
                for (std::size_t i = 0; i < q.size(); ++i) {
                    v += penalty_->value(q[i]);
                    if (g) penalty_->addGradient(q[i], (*g)[i]);
                }
            return v;
        };
        out["villani"] =
            villaniQuantity(objective, p, trainable(p), temperature_, villaniProbes_, villaniRng_);
    }
}

void validatePaperBCommon(const Config& c, std::vector<ConfigError>& errors) {
    const std::string init = c.getString("init");
    if (init == "spectral")
        errors.push_back({"init", init,
                          "invalid value 'spectral' for key 'init': the spectral initialisation "
                          "belongs to experiment a; use random, small or same"});
    if (init == "same" && c.getString("init_from").empty())
        errors.push_back({"init_from", "",
                          "init = same needs init_from: the name of the run "
                          "whose initial weights to reuse"});
}

void briefOptimizerAndRegularizer(std::ostream& s, const Config& c) {
    s << " opt=" << c.getString("optimizer");
    if (c.getString("optimizer") == "sde") s << "(s=" << c.getReal("temperature") << ")";
    s << " reg=" << c.getString("regularizer");
    if (c.getString("regularizer") != "none") s << "(" << c.getReal("lambda") << ")";
}

std::function<void(ParamSpec)> keysFor(ParamRegistry& r, std::vector<std::string> experiments) {
    return [&r, experiments = std::move(experiments)](ParamSpec s) {
        s.experiments = experiments;
        r.add(std::move(s));
    };
}

}  // namespace ade
