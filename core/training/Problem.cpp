#include "training/Problem.h"

namespace ade {

std::vector<int> Problem::trainable(const ParamSet& p) const {
    std::vector<int> all(p.size());
    for (std::size_t i = 0; i < p.size(); ++i)
        all[i] = static_cast<int>(i);
    return all;
}

NamedArray toNamedArray(const std::string& name, const Eigen::MatrixXd& m) {
    NamedArray a;
    a.name = name;
    a.shape = {static_cast<std::size_t>(m.rows()), static_cast<std::size_t>(m.cols())};
    a.values.reserve(m.size());
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            a.values.push_back(m(i, j));
    return a;
}

}  // namespace ade
