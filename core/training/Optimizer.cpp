#include "training/Optimizer.h"

#include <cmath>

#include "config/Config.h"
#include "util/Rng.h"

namespace ade {

void Adam::direction(ParamSet& dir, const std::vector<int>& trainable) {
    if (m_.size() == 0) {
        m_ = dir.zerosLike();
        v_ = dir.zerosLike();
    }
    ++t_;
    const double c1 = 1.0 - std::pow(beta1_, static_cast<double>(t_));
    const double c2 = 1.0 - std::pow(beta2_, static_cast<double>(t_));
    for (int i : trainable) {
        m_[i] = beta1_ * m_[i] + (1.0 - beta1_) * dir[i];
        v_[i] = beta2_ * v_[i] + (1.0 - beta2_) * dir[i].cwiseAbs2();
        dir[i] = (m_[i] / c1).array() / ((v_[i] / c2).array().sqrt() + eps_);
    }
}

void EulerMaruyama::perturb(ParamSet& p, double eta, const std::vector<int>& trainable, Rng& rng) {
    const double scale = std::sqrt(temperature_ * eta);
    if (scale == 0.0) return;
    for (int i : trainable)
        for (Eigen::Index c = 0; c < p[i].cols(); ++c)
            for (Eigen::Index r = 0; r < p[i].rows(); ++r)
                p[i](r, c) += scale * rng.normal();
}

std::unique_ptr<Optimizer> makeOptimizer(const Config& c) {
    const std::string name = c.getString("optimizer");
    if (name == "sgd") return std::make_unique<MinibatchSGD>();
    if (name == "adam")
        return std::make_unique<Adam>(c.getReal("adam.beta1"), c.getReal("adam.beta2"),
                                      c.getReal("adam.eps"));
    if (name == "sde") return std::make_unique<EulerMaruyama>(c.getReal("temperature"));
    return std::make_unique<GradientDescent>();
}

}  // namespace ade
