#include "models/ParamSet.h"

namespace ade {

int ParamSet::indexOf(const std::string& name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return static_cast<int>(i);
    return -1;
}

ParamSet ParamSet::zerosLike() const {
    ParamSet z;
    z.names = names;
    for (const auto& m : mats)
        z.mats.push_back(Eigen::MatrixXd::Zero(m.rows(), m.cols()));
    return z;
}

void ParamSet::setZero() {
    for (auto& m : mats)
        m.setZero();
}

bool ParamSet::allFinite() const {
    for (const auto& m : mats)
        if (!m.allFinite()) return false;
    return true;
}

double ParamSet::dot(const ParamSet& o) const {
    double s = 0;
    for (std::size_t i = 0; i < mats.size(); ++i)
        s += mats[i].cwiseProduct(o.mats[i]).sum();
    return s;
}

double ParamSet::squaredNorm() const {
    double s = 0;
    for (const auto& m : mats)
        s += m.squaredNorm();
    return s;
}

void ParamSet::axpy(double a, const ParamSet& x) {
    for (std::size_t i = 0; i < mats.size(); ++i)
        mats[i].noalias() += a * x.mats[i];
}

}  // namespace ade
