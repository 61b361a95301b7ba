#include "data/LinearRegressionData.h"

#include <cmath>

#include "util/Rng.h"

namespace ade {

Eigen::VectorXd logSpacedSpectrum(int count, double kappa) {
    Eigen::VectorXd s(count);
    for (int i = 0; i < count; ++i) {
        const double t = count > 1 ? static_cast<double>(i) / (count - 1) : 0.0;
        s(i) = std::pow(kappa, -t);
    }
    return s;
}

Eigen::MatrixXd spdSqrt(const Eigen::MatrixXd& s) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(s);
    return es.eigenvectors() * es.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() *
           es.eigenvectors().transpose();
}

Eigen::MatrixXd spdInvSqrt(const Eigen::MatrixXd& s) {
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(s);
    const Eigen::VectorXd ev = es.eigenvalues().cwiseMax(1e-300);
    return es.eigenvectors() * ev.cwiseSqrt().cwiseInverse().asDiagonal() *
           es.eigenvectors().transpose();
}

RegressionTruth makeRegressionTruth(const RegressionDataSpec& spec, Rng& rng) {
    RegressionTruth t;
    const Eigen::MatrixXd q = randomOrthogonal(spec.d, rng);
    t.sigma = q * logSpacedSpectrum(spec.d, spec.kappaSigma).asDiagonal() * q.transpose();
    t.sigma = 0.5 * (t.sigma + t.sigma.transpose()).eval();
    t.sigmaHalf = spdSqrt(t.sigma);
    const int r = spec.effectiveRank();
    const Eigen::MatrixXd u = randomOrthogonal(spec.k, rng).leftCols(r);
    const Eigen::MatrixXd v = randomOrthogonal(spec.d, rng).leftCols(r);
    t.M = u * logSpacedSpectrum(r, spec.kappaM).asDiagonal() * v.transpose();
    return t;
}

void resampleSequences(const RegressionTruth& truth, double noise, SequenceSet& set, Rng& rng) {
    for (std::size_t s = 0; s < set.X.size(); ++s) {
        auto& X = set.X[s];
        auto& Y = set.Y[s];
        Eigen::MatrixXd z(X.rows(), X.cols());
        rng.fillNormal(z);
        X.noalias() = z * truth.sigmaHalf;  // rows x_i = Sigma^{1/2} z_i (Sigma^{1/2} symmetric)
        rng.fillNormal(Y, noise);
        Y.noalias() += X * truth.M.transpose();
    }
    if (!set.Xf.empty()) set.makeSingleCopies();  // a float32 run's copies follow the data
}

SequenceSet sampleSequences(const RegressionTruth& truth, const RegressionDataSpec& spec, int count,
                            Rng& rng) {
    SequenceSet set;
    set.X.assign(count, Eigen::MatrixXd(spec.n, spec.d));
    set.Y.assign(count, Eigen::MatrixXd(spec.n, spec.k));
    resampleSequences(truth, spec.noise, set, rng);
    return set;
}

void SequenceSet::makeSingleCopies() {
    Xf.resize(X.size());
    Yf.resize(Y.size());
    for (std::size_t s = 0; s < X.size(); ++s) {
        Xf[s] = X[s].cast<float>();
        Yf[s] = Y[s].cast<float>();
    }
}

}  // namespace ade
