#include "training/Landscape.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "training/Trainer.h"
#include "util/Rng.h"

namespace ade {

namespace {

constexpr std::uint64_t kDirectionStream = 15;
constexpr std::uint64_t kPowerStream = 16;

bool cancelled(const std::atomic<bool>* c) { return c && c->load(std::memory_order_relaxed); }

// Zero on every matrix the optimiser does not change.
void keepTrainable(ParamSet& v, const std::vector<int>& trainable) {
    for (std::size_t i = 0; i < v.size(); ++i)
        if (std::find(trainable.begin(), trainable.end(), static_cast<int>(i)) == trainable.end())
            v[i].setZero();
}

double trainableNorm(const ParamSet& p, const std::vector<int>& trainable) {
    double s = 0.0;
    for (int i : trainable) s += p[i].squaredNorm();
    return std::sqrt(s);
}

void removeComponent(ParamSet& v, const ParamSet* along) {
    if (!along) return;
    const double nn = along->squaredNorm();
    if (nn > 0.0) v.axpy(-v.dot(*along) / nn, *along);
}

// d/dt g_t(θ) at 0 by a central difference (exact for the linear-in-e^t moves up to O(h²)).
std::optional<ParamSet> orbitTangent(Problem& problem, const ParamSet& p) {
    constexpr double h = 1e-5;
    auto plus = problem.orbitMove(p, h);
    auto minus = problem.orbitMove(p, -h);
    if (!plus || !minus) return std::nullopt;
    ParamSet t = *plus;
    t.axpy(-1.0, *minus);
    for (auto& m : t.mats) m /= 2.0 * h;
    return t;
}

// Li et al.: each row of each trainable matrix scaled to the norm of the same row of θ.
ParamSet filterNormalisedRandom(const ParamSet& p, const std::vector<int>& trainable, Rng& rng) {
    ParamSet d = p.zerosLike();
    for (int i : trainable) {
        d[i] = rng.normalMatrix(p[i].rows(), p[i].cols());
        for (Eigen::Index r = 0; r < d[i].rows(); ++r) {
            const double dn = d[i].row(r).norm();
            const double pn = p[i].row(r).norm();
            if (dn > 0.0 && pn > 0.0) d[i].row(r) *= pn / dn;
        }
    }
    return d;
}

ParamSet gradient(Trainer& trainer, const ParamSet& p, const std::vector<int>& trainable) {
    ParamSet g = p.zerosLike();
    trainer.objective(p, &g, {});
    keepTrainable(g, trainable);
    return g;
}

ParamSet pointAt(Problem& problem, const LandscapeResult& r, double t, double s) {
    ParamSet q = r.centre;
    q.axpy(s, r.direction);
    if (r.hasOrbit) return *problem.orbitMove(q, t);
    q.axpy(t, r.tangent);
    return q;
}

}  // namespace

const char* toString(LandscapeNormal n) {
    return n == LandscapeNormal::HessianTop ? "hessian" : "random";
}

double LandscapeResult::centreObjective() const {
    return objective(objective.rows() / 2, objective.cols() / 2);
}
double LandscapeResult::centreDataLoss() const {
    return dataLoss(dataLoss.rows() / 2, dataLoss.cols() / 2);
}

PowerIterationResult topHessianEigen(Trainer& trainer, const ParamSet& centre, int maxIterations,
                                     double tolerance, std::uint64_t seed,
                                     const ParamSet* orthogonalTo,
                                     const std::atomic<bool>* cancel,
                                     const std::function<void(int)>& step) {
    const std::vector<int> trainable = trainer.problem().trainable(centre);
    PowerIterationResult out;
    Rng rng(seed, kPowerStream);
    ParamSet v = centre.zerosLike();
    for (int i : trainable) v[i] = rng.normalMatrix(centre[i].rows(), centre[i].cols());
    removeComponent(v, orthogonalTo);
    double norm = std::sqrt(v.squaredNorm());
    if (norm == 0.0) throw std::runtime_error("power iteration: no trainable parameter");
    for (auto& m : v.mats) m /= norm;
    const double h = 1e-5 * (1.0 + trainableNorm(centre, trainable));
    double previous = 0.0;
    for (int it = 1; it <= maxIterations && !cancelled(cancel); ++it) {
        ParamSet plus = centre, minus = centre;
        plus.axpy(h, v);
        minus.axpy(-h, v);
        ParamSet hv = gradient(trainer, plus, trainable);
        hv.axpy(-1.0, gradient(trainer, minus, trainable));
        for (auto& m : hv.mats) m /= 2.0 * h;
        removeComponent(hv, orthogonalTo);
        const double lambda = v.dot(hv);  // Rayleigh quotient (‖v‖ = 1)
        out.eigenvalue = lambda;
        out.iterations = it;
        if (step) step(it);
        const double n = std::sqrt(hv.squaredNorm());
        if (n == 0.0) {  // v is in the null space: H = 0 there
            out.converged = true;
            break;
        }
        // Converges to the eigenvalue of largest |λ| (the top one near a minimum).
        for (auto& m : hv.mats) m /= n;
        v = std::move(hv);
        if (it > 1 && std::abs(lambda - previous) <= tolerance * std::max(1e-300, std::abs(lambda))) {
            out.converged = true;
            break;
        }
        previous = lambda;
    }
    out.vector = std::move(v);
    return out;
}

LandscapeResult computeLandscape(Trainer& trainer, const ParamSet& centre,
                                 const LandscapeSpec& specIn, const std::atomic<bool>* cancel,
                                 const std::function<void(int, int)>& progress) {
    LandscapeSpec spec = specIn;
    spec.grid = std::clamp(spec.grid, 3, 64);
    Problem& problem = trainer.problem();
    const std::vector<int> trainable = problem.trainable(centre);
    LandscapeResult r;
    r.spec = spec;
    r.centre = centre;
    Rng rng(spec.seed, kDirectionStream);
    if (auto tangent = orbitTangent(problem, centre)) {
        r.hasOrbit = true;
        r.orbitExact = problem.orbitIsExactSymmetry();
        if (const auto plane = problem.factorPlane()) {
            // "‖W_Q‖_F" -> "W_Q": the orbit in the experiment's own names.
            auto factor = [](std::string label) {
                const std::string open = "‖", close = "‖_F";
                if (label.rfind(open, 0) == 0) label.erase(0, open.size());
                if (label.size() >= close.size() &&
                    label.compare(label.size() - close.size(), close.size(), close) == 0)
                    label.erase(label.size() - close.size());
                return label;
            };
            r.orbitLabel = "(e^t " + factor(plane->xLabel) + ", e^−t " + factor(plane->yLabel) + ")";
        }
        r.tangent = std::move(*tangent);
    } else {  // no symmetry: the first axis is a second random direction
        r.tangent = filterNormalisedRandom(centre, trainable, rng);
    }
    const int powerSteps = spec.normal == LandscapeNormal::HessianTop ? spec.powerIterations : 0;
    const int total = spec.grid * spec.grid + powerSteps;
    const double scale = trainableNorm(centre, trainable);
    if (spec.normal == LandscapeNormal::HessianTop) {
        auto eig = topHessianEigen(trainer, centre, spec.powerIterations, spec.powerTolerance,
                                   spec.seed, &r.tangent, cancel, [&](int it) {
                                       if (progress) progress(it, total);
                                   });
        r.direction = std::move(eig.vector);
        r.eigenvalue = eig.eigenvalue;
        r.powerIterationsUsed = eig.iterations;
        // s = 1: a step as long as θ's trainable part (the random direction's convention).
        if (scale > 0.0)
            for (auto& m : r.direction.mats) m *= scale;
    } else {
        r.direction = filterNormalisedRandom(centre, trainable, rng);
        const double before = std::sqrt(r.direction.squaredNorm());
        removeComponent(r.direction, &r.tangent);
        const double after = std::sqrt(r.direction.squaredNorm());
        if (after > 0.0)
            for (auto& m : r.direction.mats) m *= before / after;
    }
    const int n = spec.grid;
    r.t.resize(n);
    r.s.resize(n);
    for (int i = 0; i < n; ++i) {
        const double u = -1.0 + 2.0 * i / (n - 1);
        r.t[i] = u * spec.tRange;
        r.s[i] = u * spec.sRange;
    }
    // The centre exactly (no rounding from -1 + 2 i / (n - 1)) when n is odd.
    if (n % 2 == 1) r.t[n / 2] = r.s[n / 2] = 0.0;
    r.objective = Eigen::MatrixXd::Constant(n, n, std::nan(""));
    r.dataLoss = r.objective;
    const int done0 = r.powerIterationsUsed;
    for (int si = 0; si < n; ++si)
        for (int ti = 0; ti < n; ++ti) {
            if (cancelled(cancel)) {
                r.cancelled = true;
                return r;
            }
            const ParamSet q = (r.t[ti] == 0.0 && r.s[si] == 0.0) ? centre
                                                                 : pointAt(problem, r, r.t[ti], r.s[si]);
            double reg = 0.0;
            const double obj = trainer.objective(q, nullptr, {}, &reg);
            r.objective(si, ti) = obj;
            r.dataLoss(si, ti) = obj - reg;
            ++r.pointsDone;
            if (progress) progress(done0 + r.pointsDone, done0 + n * n);
        }
    return r;
}

Eigen::Vector2d projectOntoLandscape(Trainer& trainer, const LandscapeResult& r,
                                     const ParamSet& iterate) {
    const double dd = r.direction.squaredNorm();
    auto sOf = [&](const ParamSet& q) {
        ParamSet delta = q;
        delta.axpy(-1.0, r.centre);
        return dd > 0.0 ? delta.dot(r.direction) / dd : 0.0;
    };
    if (!r.hasOrbit) {
        ParamSet delta = iterate;
        delta.axpy(-1.0, r.centre);
        const double tt = r.tangent.squaredNorm();
        return {tt > 0.0 ? delta.dot(r.tangent) / tt : 0.0, sOf(iterate)};
    }
    Problem& problem = trainer.problem();
    auto distance = [&](double t) {
        ParamSet back = *problem.orbitMove(iterate, -t);
        back.axpy(-1.0, r.centre);
        return back.squaredNorm();
    };
    // Golden-section search for the closest point of the orbit (unimodal for the rescalings).
    const double g = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = -8.0, b = 8.0;
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = distance(c), fd = distance(d);
    for (int i = 0; i < 80 && b - a > 1e-10; ++i) {
        if (fc < fd) {
            b = d, d = c, fd = fc;
            c = b - g * (b - a), fc = distance(c);
        } else {
            a = c, c = d, fc = fd;
            d = a + g * (b - a), fd = distance(d);
        }
    }
    const double t = 0.5 * (a + b);
    return {t, sOf(*problem.orbitMove(iterate, -t))};
}

std::string landscapeProjectionText() {
    return "trajectory: each recorded θ_k moved back along the orbit to the point g_{−t}(θ_k) "
           "nearest θ (its t), then projected onto d (its s)";
}

}  // namespace ade
