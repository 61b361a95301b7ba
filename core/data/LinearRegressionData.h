#pragma once
// Experiment A data (MODELS.md "Experiment A / Data"): Sigma and M with condition-number
// controls, P sequences of n tokens x ~ N(0, Sigma), y = M x + sigma eps.
#include <Eigen/Dense>
#include <vector>

namespace ade {

class Rng;

struct RegressionDataSpec {
    int d = 4, k = 4, rank = 0;  // rank 0 = min(k, d)
    int n = 64, prompts = 32, testPrompts = 16;
    double noise = 0.1, kappaSigma = 3.0, kappaM = 5.0;
    int effectiveRank() const { return rank > 0 ? rank : std::min(d, k); }
};

struct RegressionTruth {
    Eigen::MatrixXd sigma;      // d x d covariance
    Eigen::MatrixXd sigmaHalf;  // symmetric square root
    Eigen::MatrixXd M;          // k x d target map
};

struct SequenceSet {
    std::vector<Eigen::MatrixXd> X;  // each n x d
    std::vector<Eigen::MatrixXd> Y;  // each n x k
    // Single-precision copies of X and Y for a float32 run's step (empty otherwise); whoever
    // changes X or Y calls makeSingleCopies() again.
    std::vector<Eigen::MatrixXf> Xf, Yf;
    int sequences() const { return static_cast<int>(X.size()); }
    void makeSingleCopies();
    bool hasSingleCopies() const { return Xf.size() == X.size() && Yf.size() == Y.size(); }
};

// Log-spaced values from 1 down to 1/kappa (count of them).
Eigen::VectorXd logSpacedSpectrum(int count, double kappa);
// Symmetric square root and inverse square root of an SPD matrix.
Eigen::MatrixXd spdSqrt(const Eigen::MatrixXd& s);
Eigen::MatrixXd spdInvSqrt(const Eigen::MatrixXd& s);

RegressionTruth makeRegressionTruth(const RegressionDataSpec& spec, Rng& rng);
SequenceSet sampleSequences(const RegressionTruth& truth, const RegressionDataSpec& spec, int count,
                            Rng& rng);
// Replaces the contents of `set` in place (fresh-data mode, no reallocation).
void resampleSequences(const RegressionTruth& truth, double noise, SequenceSet& set, Rng& rng);

}  // namespace ade
