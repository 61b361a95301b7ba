#pragma once
// The Villani quantity -Lap V + ||grad V||^2 / s along a run (MODELS.md "Stochastic dynamics",
// optional quantity beyond Paper B). The Laplacian over the trained matrices is estimated by
// Hutchinson's estimator with Rademacher probes z, E[z^T Hess z] = tr Hess, each Hessian-vector
// product by central differences of the gradient: Hess z ~ (grad V(p + h z) - grad V(p - h z)) /
// 2h.
#include <functional>
#include <vector>

#include "models/ParamSet.h"

namespace ade {

class Rng;

// objective(p, grad): value of V at p, adds its gradient to grad (zeroed by the caller) when
// non-null. Returns -Lap V + ||grad V||^2 / s (NaN when s <= 0).
double villaniQuantity(const std::function<double(const ParamSet&, ParamSet*)>& objective,
                       const ParamSet& p, const std::vector<int>& trainable, double s, int probes,
                       Rng& rng, double h = 1e-4);

}  // namespace ade
