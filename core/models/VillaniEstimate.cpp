#include "models/VillaniEstimate.h"

#include <cmath>

#include "util/Rng.h"

namespace ade {

double villaniQuantity(const std::function<double(const ParamSet&, ParamSet*)>& objective,
                       const ParamSet& p, const std::vector<int>& trainable, double s, int probes,
                       Rng& rng, double h) {
    if (!(s > 0) || probes <= 0) return std::nan("");
    ParamSet g = p.zerosLike();
    objective(p, &g);
    double gradSq = 0.0;
    for (int i : trainable)
        gradSq += g[i].squaredNorm();
    ParamSet z = p.zerosLike(), plus = p, minus = p, gp = g, gm = g;
    double lap = 0.0;
    for (int k = 0; k < probes; ++k) {
        for (int i : trainable)
            for (Eigen::Index j = 0; j < z[i].size(); ++j)
                z[i].data()[j] = rng.uniform() < 0.5 ? -1.0 : 1.0;
        for (int i : trainable) {
            plus[i] = p[i] + h * z[i];
            minus[i] = p[i] - h * z[i];
        }
        gp.setZero();
        gm.setZero();
        objective(plus, &gp);
        objective(minus, &gm);
        for (int i : trainable)
            lap += z[i].cwiseProduct(gp[i] - gm[i]).sum() / (2.0 * h);
    }
    lap /= probes;
    return -lap + gradSq / s;
}

}  // namespace ade
