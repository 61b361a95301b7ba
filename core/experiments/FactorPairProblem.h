#pragma once
// What Paper B's "factor pair" problems share: two trained factor matrices whose product is what
// the model sees (Experiment B's W_Q W_K^T, Experiment C's U V; Darcy's stage 2 trains W_Q, W_K).
// MODELS.md "Experiment B", "Experiment C": the balancing regulariser on the pair, the imbalance
// and the distance to the teacher's balanced orbit, the optional Villani quantity.
//
// Why a base class and not a composed helper: the shared part overrides Problem
// (structuralRegularizer) and its Villani metric needs the problem's own loss and
// structuralRegularizer (the full objective V); a helper would need a reference back to the
// problem and the same forwarding overrides in every experiment. Darcy does not derive: it has
// no init keys, orbit or Villani metric and is built from explicit arguments (stages 1 and 2),
// so it uses the free pieces below (factorPairBalancing, validatePaperBCommon, the brief and
// registration helpers).
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "config/Config.h"
#include "config/ParamSpec.h"
#include "models/FactorOrbit.h"
#include "models/Regularizer.h"
#include "training/Problem.h"
#include "util/Rng.h"

namespace ade {

class WorkerPool;

// Where the two trained factors sit in a ParamSet and how they form the product L R^T:
// L = p[left], R = p[right], or R = p[right]^T when rightTransposed (C: U V = U (V^T)^T).
struct FactorPair {
    int left = 0;
    int right = 1;
    bool rightTransposed = false;
};

// The balancing term (lambda/4) ||L^T L - R^T R||^2 of the pair when `regularizer` is
// "balancing" and lambda != 0, else 0; its gradient is added to grad's two factors.
double factorPairBalancing(FactorPair pair, const std::string& regularizer, double lambda,
                           const ParamSet& p, ParamSet* grad);

// The orbit move g_t(p) = (e^t L, e^{-t} R): the product L R^T, all the model sees, does not
// change, so the data loss is exactly invariant (up to rounding); only regularisers move.
ParamSet factorPairOrbitMove(FactorPair pair, const ParamSet& p, double t);

class FactorPairProblem : public Problem {
  public:
    ~FactorPairProblem() override;

    // The balancing regulariser on the pair (regularizer = balancing), 0 otherwise.
    double structuralRegularizer(const ParamSet& p, ParamSet* grad) override;
    // Inspection: the plane (‖L‖_F, ‖R‖_F) of the pair, the orbit (e^t L, e^{-t} R), which leaves
    // the product and so the data loss exactly unchanged.
    std::optional<FactorPlane> factorPlane() const override { return plane_; }
    Eigen::Vector2d factorPoint(const ParamSet& p) const override;
    std::optional<ParamSet> orbitMove(const ParamSet& p, double t) const override;
    bool orbitIsExactSymmetry() const override { return true; }

  protected:
    // Reads the keys every factor-pair experiment has (init, init_scale, regularizer, lambda,
    // epsilon, threads, temperature, villani.probes, seed). Draws no random number.
    FactorPairProblem(const Config& c, FactorPair pair);

    // The teacher's product and the factors' width: the orbit the distances are measured to.
    void setTeacherProduct(const Eigen::MatrixXd& product, int width);
    // The teacher's own loss on the held-out set (its noise): excess_test_loss is measured
    // above it.
    void setTeacherTestLoss(double loss) { teacherTestLoss_ = loss; }

    // Random factors L (rowsL x colsL) then R, N(0, scale^2) entries: scale 1e-3 for
    // init = small, init_scale otherwise. For problems whose parameters are the pair alone.
    ParamSet initialFactors(Rng& rng, const std::string& nameL, Eigen::Index rowsL,
                            Eigen::Index colsL, const std::string& nameR, Eigen::Index rowsR,
                            Eigen::Index colsR) const;

    // The metrics every factor-pair experiment reports: train_loss, test_loss, gen_gap,
    // excess_test_loss (test loss − the teacher's, once setTeacherTestLoss was called), the two
    // factors' norms (columns normL, normR), imbalance, manifold_distance(_rel) and, when
    // villani.probes > 0, villani (draws from the probes' own generator).
    void evaluateFactors(const ParamSet& p, double trainLoss, double testLoss,
                         const char* normL, const char* normR, std::map<std::string, double>& out);

    // Sets the factor plane's axis labels and the metric columns holding the same norms.
    void setFactorPlane(FactorPlane plane) { plane_ = std::move(plane); }
    // The product L R^T the model sees (W_Q W_K^T, U V).
    Eigen::MatrixXd product(const ParamSet& p) const;

    // Read by the experiments' own code (the data loss's threads, metricNames()).
    std::unique_ptr<WorkerPool> pool_;
    int villaniProbes_ = 0;

  private:
    Eigen::MatrixXd rightFactor(const ParamSet& p) const;

    FactorPair pair_;
    FactorPlane plane_;
    std::string init_;
    double initScale_;
    std::string regularizer_;
    double lambda_;
    BalancedOrbit orbit_;
    // Villani quantity: the full objective's regulariser, the temperature and the probes' RNG.
    std::unique_ptr<Regularizer> penalty_;
    double temperature_ = 0.0;
    Rng villaniRng_{0};
    double teacherTestLoss_ = NAN;
};

// Checks shared by the Paper B experiments (b, c, darcy): initialisations and options that
// only Experiment A has.
void validatePaperBCommon(const Config& c, std::vector<ConfigError>& errors);

// The end of a Paper B run's one-line summary: " opt=sgd reg=l2(0.01)", with the temperature
// after an sde optimiser and the strength after a regulariser other than none.
void briefOptimizerAndRegularizer(std::ostream& s, const Config& c);

// Adds specs that apply to the listed experiments only: `auto c = keysFor(r, {"c"}); c(...);`.
std::function<void(ParamSpec)> keysFor(ParamRegistry& r, std::vector<std::string> experiments);

}  // namespace ade
