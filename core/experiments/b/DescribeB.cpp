// Experiment B's self-description: About text, metric descriptions and charts (MetricInfo.h).
#include <algorithm>
#include <cmath>

#include "experiments/ExperimentRegistry.h"

namespace ade {

void describeExperimentB(ExperimentInfo& info) {
    info.headlineMetric = "test_loss";
    info.defaultPreset = "b-regularizers";
    info.metrics = {
        sharedMetric("train_loss"),
        sharedMetric("test_loss"),
        sharedMetric("gen_gap"),
        sharedMetric("excess_test_loss"),
        normMetric("norm_WQ", "W_Q", "the query factor"),
        normMetric("norm_WK", "W_K", "the key factor"),
        {"norm_sq", "‖θ‖² = ‖W_Q‖²_F + ‖W_K‖²_F", "squared Frobenius norm", "norm_sq", false, false,
         "The squared length of the weights. Unregularised under the SDE it grows like free "
         "diffusion in the orbit's flat directions: a straight line of slope s h (2 d d_k − d²) "
         "per step; a weak regulariser holds it level."},
        {"imbalance", "‖W_QᵀW_Q − W_KᵀW_K‖_F", "Frobenius norm", "imbalance", false, true,
         "How unbalanced the pair is; the loss depends only on W_Q W_Kᵀ, so noise moves this "
         "freely unless a regulariser holds it."},
        {"manifold_distance", "dist to the balanced teacher factors", "Frobenius distance",
         "manifold", false, true,
         "Procrustes distance of (W_Q, W_K) to the balanced factorisations of the teacher's "
         "W_Q* W_K*ᵀ: grows as the weights drift along the orbit (W_Q G, W_K G⁻ᵀ)."},
        sharedMetric("manifold_distance_rel"),
        sharedMetric("villani"),
    };
    info.charts = factorPairCharts();
    info.charts[1].title = "Weight norms ‖W_Q‖_F, ‖W_K‖_F";
    info.charts.push_back({"norm_sq",
                           "Squared weight norm ‖W_Q‖² + ‖W_K‖² (free diffusion: a line)",
                           "squared Frobenius norm", AxisScale::Linear, false});

    // Free diffusion along the flat orbit. The loss sees only M = W_Q W_Kᵀ (d × d, rank
    // r = min(d, d_k)): of the 2 d d_k coordinates, r (2d − r) move M and are held by the
    // loss's curvature (at equilibrium the drift there balances the noise), the other
    // 2 d d_k − r (2d − r) (the orbit (W_Q G, W_K G⁻ᵀ)) are flat. Itô's formula on ‖θ‖² under
    // θ ← θ − h ∇V + √(s h) ξ gives each flat coordinate s h per step.
    info.laws.push_back(
        {"free_diffusion", "norm_sq",
         "s h (2 d d_k − r (2d − r)), r = min(d, d_k): the orbit's dimension times the noise's "
         "variance per step",
         "Itô's formula on ‖θ‖² with the noise free in the orbit's flat directions and held by the "
         "loss's curvature in the r (2d − r) directions that move W_Q W_Kᵀ (equipartition there); "
         "no regulariser assumed",
         [](const Config& c, std::string* why) -> double {
             if (c.getString("optimizer") != "sde") {
                 if (why) *why = "the law is the SDE's (optimizer = sde)";
                 return NAN;
             }
             const double s = c.getReal("temperature"), h = c.getReal("lr");
             if (!(s > 0)) {
                 if (why) *why = "no noise (temperature s = 0): the law predicts no growth";
                 return NAN;
             }
             const double d = static_cast<double>(c.getInt("data.d"));
             const double dk = static_cast<double>(c.getInt("b.dk"));
             const double r = std::min(d, dk);
             return s * h * (2 * d * dk - r * (2 * d - r));
         }});

    info.aboutHtml = R"html(<h3>Model</h3>
<p>Tokens X (N&times;d), trainable W<sub>Q</sub>, W<sub>K</sub> (d&times;d<sub>k</sub>), a fixed
W<sub>V</sub> (d&times;d<sub>v</sub>):</p>
<p align=center>F(X) = RowSoftmax(X W<sub>Q</sub> W<sub>K</sub><sup>T</sup> X<sup>T</sup> /
&radic;d<sub>k</sub>) X W<sub>V</sub></p>
<p align=center>&#8467;(&theta;) = 1/(2|D|) &Sigma;<sub>(X,Y)&isin;D</sub> &#8214;F(X) &minus;
Y&#8214;&sup2;</p>
<p>The task: a teacher W<sub>Q</sub>*, W<sub>K</sub>* scaled by a sharpness &tau;, tokens
N(0, I), targets F*(X) + &sigma; &epsilon;.</p>
<h3>Weak regularisers (per trained matrix W, summed)</h3>
<ul><li>none</li>
<li>L2: &lambda; &#8214;W&#8214;&sup2;</li>
<li>log-amplified: &lambda; &#8214;W&#8214;&sup2; log(1 + &#8214;W&#8214;&sup2;)</li>
<li>power: &lambda; &#8214;W&#8214;<sup>2+&epsilon;</sup></li></ul>
<p>The objective is V&#771; = &#8467; + &Sigma; R(W).</p>
<h3>Stochastic dynamics</h3>
<p>SDE d&theta; = &minus;&nabla;V&#771;(&theta;) dt + &radic;s dB<sub>t</sub>, stepped by
Euler&ndash;Maruyama: &theta; &larr; &theta; &minus; h &nabla;V&#771;(&theta;) + &radic;(s h)
&xi;. Its stationary law is the Gibbs measure &prop; exp(&minus;2V&#771;/s). Minibatch SGD (the
process the SDE mimics) and full-batch GD for comparison.</p>
<h3>The claim</h3>
<p>The loss depends on W<sub>Q</sub> W<sub>K</sub><sup>T</sup> only, so it is flat along the
orbit (W<sub>Q</sub> G, W<sub>K</sub> G<sup>&minus;T</sup>). Without a regulariser, noise drifts
the weights along it and their norms grow without bound. Paper B proves V&#771; is a Villani
function for any &lambda; &gt; 0 with the weak regularisers, so the law converges to the Gibbs
measure and the SDE reaches an &epsilon;-minimiser in expected time O(log 1/&epsilon;).</p>
<h3>What to look for</h3><ul>
<li><b>Weight norms</b>: the unregularised ‖W<sub>Q</sub>‖, ‖W<sub>K</sub>‖ keep rising; with
log-amplified or power regularisation they level off.</li>
<li><b>Loss</b>: at small &lambda; all runs reach nearly the same test loss.</li>
<li><b>Distance to the balanced teacher factors</b> grows with the drift; the Villani
expression (View &gt; Charts) is the optional quantity &minus;&Delta;V&#771; +
&#8214;&nabla;V&#771;&#8214;&sup2;/s.</li></ul>)html";
}

}  // namespace ade
