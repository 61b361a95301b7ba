#pragma once
// One seeded generator per run and purpose (MODELS.md: "all randomness comes from one seeded
// generator per run"). Normal deviates use our own polar method so results are bit-identical
// across standard libraries.
#include <Eigen/Dense>
#include <cstdint>
#include <random>

namespace ade {

class Rng {
  public:
    // Streams separate the purposes of one run (data, init, optimiser noise, test data), so that
    // e.g. changing the optimiser never changes the data.
    enum Stream : std::uint64_t { Data = 1, Init = 2, Optimizer = 3, TestData = 4, Teacher = 5 };

    explicit Rng(std::uint64_t seed, std::uint64_t stream = 0);

    double uniform();                      // in [0, 1)
    double normal();                       // N(0, 1)
    std::uint64_t below(std::uint64_t n);  // uniform integer in [0, n)
    void fillNormal(Eigen::Ref<Eigen::MatrixXd> m, double scale = 1.0);
    Eigen::MatrixXd normalMatrix(Eigen::Index rows, Eigen::Index cols, double scale = 1.0);

  private:
    std::mt19937_64 engine_;
    double spare_ = 0.0;
    bool hasSpare_ = false;
};

// Haar-distributed orthogonal matrix (QR of a Gaussian matrix with sign fix).
Eigen::MatrixXd randomOrthogonal(Eigen::Index n, Rng& rng);

}  // namespace ade
