#pragma once
// A model's parameters: named dense matrices (A, B in Experiment A; W_Q, W_K; U, V ...).
#include <Eigen/Dense>

#include <string>
#include <vector>

namespace ade {

struct ParamSet {
    std::vector<std::string> names;
    std::vector<Eigen::MatrixXd> mats;

    std::size_t size() const { return mats.size(); }
    Eigen::MatrixXd& operator[](std::size_t i) { return mats[i]; }
    const Eigen::MatrixXd& operator[](std::size_t i) const { return mats[i]; }
    int indexOf(const std::string& name) const;

    ParamSet zerosLike() const;
    void setZero();
    bool allFinite() const;
    double dot(const ParamSet& o) const;  // sum of Frobenius inner products
    double squaredNorm() const;
    void axpy(double a, const ParamSet& x);  // this += a x
};

}  // namespace ade
