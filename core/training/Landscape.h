#pragma once
// The loss landscape around one iterate θ (issue 15, part 4): the training objective on a grid
// of points g_t(θ + s d). The first coordinate t moves along the symmetry orbit (the problem's
// orbitMove, e.g. (e^t W_Q, e^{-t} W_K)): for B, C and Darcy the data loss is exactly constant
// along it and only the regulariser changes. The second coordinate s moves along a normal
// direction d, orthogonal to the orbit's tangent at θ: a filter-normalised random direction
// (Li et al. 2018, "Visualizing the loss landscape of neural nets") or the Hessian's top
// eigenvector by power iteration on Hessian-vector products. Every point holds the full
// objective the trainer minimises (Trainer::objective: data loss + regulariser + structural
// regulariser) and the data loss alone. No Qt here.
#include <Eigen/Dense>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/ParamSet.h"

namespace ade {

class Trainer;

enum class LandscapeNormal { FilterRandom, HessianTop };
const char* toString(LandscapeNormal n);  // "random", "hessian"

struct LandscapeSpec {
    int grid = 33;        // points per axis, 3..64 (odd: θ itself is the centre point)
    double tRange = 1.0;  // t in [-tRange, tRange]
    double sRange = 1.0;  // s in [-sRange, sRange]; s = 1 is a step as long as θ (see below)
    LandscapeNormal normal = LandscapeNormal::FilterRandom;
    std::uint64_t seed = 1;    // the random direction's generator
    int powerIterations = 30;  // at most; stops earlier when the eigenvalue settles
    double powerTolerance = 1e-6;  // relative change of the eigenvalue between iterations
};

struct LandscapeResult {
    LandscapeSpec spec;
    std::vector<double> t, s;        // axis values (grid each)
    Eigen::MatrixXd objective;       // (s index, t index): Q(g_t(θ + s d))
    Eigen::MatrixXd dataLoss;        // the data loss alone at the same points
    ParamSet centre;                 // θ
    ParamSet direction;              // d (zero on matrices the optimiser does not change)
    ParamSet tangent;                // the orbit's tangent at θ (d/dt g_t(θ) at t = 0)
    bool hasOrbit = false;           // false: the problem has no orbit; t is a second random d
    bool orbitExact = false;         // the problem says its data loss is invariant along it
    std::string orbitLabel;          // the orbit in the factors' names, "(e^t U, e^−t V)"
    double eigenvalue = 0.0;         // HessianTop: the Rayleigh quotient of d
    int powerIterationsUsed = 0;
    bool cancelled = false;
    int pointsDone = 0;
    double centreObjective() const;  // objective at t = s = 0
    double centreDataLoss() const;
};

// Computes the grid, row by row of s; `progress(done, total)` after each point (total counts the
// power iteration's steps too). `cancel` set: returns at once with cancelled = true. The
// trainer's problem should run single-threaded (the landscape must not take the solvers' cores).
LandscapeResult computeLandscape(Trainer& trainer, const ParamSet& centre,
                                 const LandscapeSpec& spec,
                                 const std::atomic<bool>* cancel = nullptr,
                                 const std::function<void(int, int)>& progress = {});

// The top eigenpair of the objective's Hessian at θ by power iteration on Hessian-vector
// products H v ≈ (∇Q(θ + h v) − ∇Q(θ − h v)) / 2h, restricted to the trainable matrices and,
// when `orthogonalTo` is not empty, to its orthogonal complement. Returns the unit eigenvector.
struct PowerIterationResult {
    ParamSet vector;
    double eigenvalue = 0.0;
    int iterations = 0;
    bool converged = false;
};
PowerIterationResult topHessianEigen(Trainer& trainer, const ParamSet& centre, int maxIterations,
                                     double tolerance, std::uint64_t seed,
                                     const ParamSet* orthogonalTo = nullptr,
                                     const std::atomic<bool>* cancel = nullptr,
                                     const std::function<void(int)>& step = {});

// Where an iterate θ_k lies in the landscape's (t, s) plane: t_k is the orbit coordinate whose
// move back, g_{-t}(θ_k), comes closest to θ (a 1-D search over |t| ≤ 8), s_k the projection of
// g_{-t_k}(θ_k) − θ onto d. Without an orbit: both coordinates are projections.
Eigen::Vector2d projectOntoLandscape(Trainer& trainer, const LandscapeResult& landscape,
                                     const ParamSet& iterate);

// One line saying how the trajectory is projected (shown beside the map).
std::string landscapeProjectionText();

}  // namespace ade
