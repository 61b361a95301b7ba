#include "util/Rng.h"

#include <cmath>
#include <limits>

namespace ade {

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
}  // namespace

Rng::Rng(std::uint64_t seed, std::uint64_t stream)
    : engine_(splitmix64(splitmix64(seed) ^ (stream * 0xD1B54A32D192ED03ull))) {}

double Rng::uniform() {
    return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

double Rng::normal() {
    if (hasSpare_) {
        hasSpare_ = false;
        return spare_;
    }
    double u, v, s;
    do {
        u = 2.0 * uniform() - 1.0;
        v = 2.0 * uniform() - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double f = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * f;
    hasSpare_ = true;
    return u * f;
}

std::uint64_t Rng::below(std::uint64_t n) {
    if (n <= 1) return 0;
    // Rejection sampling for an unbiased, portable result.
    const std::uint64_t limit =
        std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % n;
    std::uint64_t x;
    do {
        x = engine_();
    } while (x >= limit);
    return x % n;
}

void Rng::fillNormal(Eigen::Ref<Eigen::MatrixXd> m, double scale) {
    for (Eigen::Index j = 0; j < m.cols(); ++j)
        for (Eigen::Index i = 0; i < m.rows(); ++i)
            m(i, j) = scale * normal();
}

Eigen::MatrixXd Rng::normalMatrix(Eigen::Index rows, Eigen::Index cols, double scale) {
    Eigen::MatrixXd m(rows, cols);
    fillNormal(m, scale);
    return m;
}

Eigen::MatrixXd randomOrthogonal(Eigen::Index n, Rng& rng) {
    Eigen::MatrixXd g = rng.normalMatrix(n, n);
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
    Eigen::MatrixXd q = qr.householderQ();
    const Eigen::MatrixXd r = qr.matrixQR().triangularView<Eigen::Upper>();
    for (Eigen::Index i = 0; i < n; ++i)
        if (r(i, i) < 0) q.col(i) *= -1.0;
    return q;
}

}  // namespace ade
