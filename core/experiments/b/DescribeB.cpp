// Experiment B's self-description: About text, metric descriptions and charts (MetricInfo.h).
#include "experiments/ExperimentRegistry.h"

namespace ade {

void describeExperimentB(ExperimentInfo& info) {
    info.headlineMetric = "test_loss";
    info.defaultPreset = "b-regularizers";
    info.metrics = {
        sharedMetric("train_loss"),
        sharedMetric("test_loss"),
        sharedMetric("gen_gap"),
        normMetric("norm_WQ", "W_Q", "the query factor"),
        normMetric("norm_WK", "W_K", "the key factor"),
        {"imbalance", "‖W_QᵀW_Q − W_KᵀW_K‖_F", "Frobenius norm", "imbalance",
         false, true,
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
