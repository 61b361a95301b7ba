#pragma once
// Optimisers usable by every experiment: GD, minibatch SGD, Adam and the Euler-Maruyama SDE
// (MODELS.md "Stochastic dynamics"). The Trainer computes the (preconditioned) gradient and the
// step size; an optimiser decides whether it wants minibatches, may reshape the direction
// (Adam), and may add noise after the step (SDE).
#include <memory>
#include <string>
#include <vector>

#include "models/ParamSet.h"

namespace ade {

class Config;
class Rng;

class Optimizer {
  public:
    virtual ~Optimizer() = default;
    virtual bool usesMinibatches() const { return false; }
    // Gradient -> descent direction, in place (only the trainable matrices matter).
    virtual void direction(ParamSet& /*dir*/, const std::vector<int>& /*trainable*/) {}
    // Called after p -= eta * dir.
    virtual void perturb(ParamSet& /*p*/, double /*eta*/, const std::vector<int>& /*trainable*/,
                         Rng& /*rng*/) {}
};

class GradientDescent final : public Optimizer {};

class MinibatchSGD final : public Optimizer {
  public:
    bool usesMinibatches() const override { return true; }
};

class Adam final : public Optimizer {
  public:
    Adam(double beta1, double beta2, double eps) : beta1_(beta1), beta2_(beta2), eps_(eps) {}
    bool usesMinibatches() const override { return true; }
    void direction(ParamSet& dir, const std::vector<int>& trainable) override;

  private:
    double beta1_, beta2_, eps_;
    long t_ = 0;
    ParamSet m_, v_;
};

// theta <- theta - h grad V + sqrt(s h) xi
class EulerMaruyama final : public Optimizer {
  public:
    explicit EulerMaruyama(double temperature) : temperature_(temperature) {}
    void perturb(ParamSet& p, double eta, const std::vector<int>& trainable, Rng& rng) override;

  private:
    double temperature_;
};

std::unique_ptr<Optimizer> makeOptimizer(const Config& config);

}  // namespace ade
