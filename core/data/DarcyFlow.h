#pragma once
// Darcy flow data (Paper B's experiment), MODELS.md "Darcy flow data and the ViT-style attention
// regressor": -div(a grad u) = f on (0,1)^2, u = 0 on the boundary, a = psi(g) with g a
// Gaussian random field N(0, (-Lap + tau^2 I)^-alpha) (Neumann), sampled by a cosine expansion.
#include <Eigen/Dense>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ade {

class Rng;
class WorkerPool;

struct DarcySpec {
    int resolution = 32;  // s: interior nodes per side; nodes x_i = i h, h = 1/(s+1), i = 0..s+1
    double aHigh = 12.0;  // psi where g >= 0
    double aLow = 3.0;    // psi where g < 0
    double tau = 3.0;
    double alpha = 2.0;
};

// Coefficient scales c_k = tau^(alpha-1) (pi^2 |k|^2 + tau^2)^(-alpha/2), k in [0, modes)^2, with
// c_00 = 0 (zero-mean field).
Eigen::MatrixXd grfScales(int modes, double tau, double alpha);
// g(x_i, y_j) = sum_k c_k xi_k cos(pi k1 x_i) cos(pi k2 y_j) on the grid xs x xs
// (xi ~ N(0,1) drawn in column-major order of k).
Eigen::MatrixXd sampleGrf(const Eigen::VectorXd& xs, int modes, double tau, double alpha, Rng& rng);

// 5-point finite differences with face coefficients averaged from the two nodes,
// a_{i+1/2,j} = (a_ij + a_i+1,j)/2, solved by a sparse LDL^T factorisation.
// `a` holds node values on the full (s+2) x (s+2) grid, `f` the s x s interior right-hand side;
// returns u on the s x s interior nodes (u = 0 on the boundary).
Eigen::MatrixXd solveDarcy(const Eigen::MatrixXd& a, const Eigen::MatrixXd& f);

// A generated set: per sample the interior s x s coefficient a and solution u, row-major
// (pixel (r, c) of sample i at index i*s*s + r*s + c).
struct DarcySet {
    int resolution = 0;
    int count = 0;
    std::vector<double> a, u;  // count * s * s each
};

// Sample i is drawn from its own stream (seed, streamBase + i), so a set of n samples is a prefix
// of any larger set with the same seed and stream base.
DarcySet generateDarcy(const DarcySpec& spec, int count, std::uint64_t seed,
                       std::uint64_t streamBase, WorkerPool* pool = nullptr);

// Where generated data and stage-1 weights are cached: $ADE_CACHE_DIR, else
// $XDG_CACHE_HOME/attention-explorer, else ~/.cache/attention-explorer. Empty if none works.
std::filesystem::path cacheDirectory();

// Loads the set from the disk cache (keyed by spec, count, seed, stream base) or generates and
// stores it. A missing, unreadable or corrupt cache file is regenerated; a cache that cannot be
// written only costs time. `generated` tells whether the PDEs were solved.
DarcySet loadOrGenerateDarcy(const DarcySpec& spec, int count, std::uint64_t seed,
                             std::uint64_t streamBase, WorkerPool* pool, bool* generated = nullptr,
                             std::string* cacheFile = nullptr);

}  // namespace ade
