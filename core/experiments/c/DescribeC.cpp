// Experiment C's self-description: About text, metric descriptions and charts (MetricInfo.h).
#include "experiments/ExperimentRegistry.h"

namespace ade {

void describeExperimentC(ExperimentInfo& info) {
    info.headlineMetric = "test_loss";
    info.defaultPreset = "c-lora-drift";
    info.metrics = {
        sharedMetric("train_loss"),
        sharedMetric("test_loss"),
        sharedMetric("gen_gap"),
        sharedMetric("excess_test_loss"),
        normMetric("norm_U", "U", "the LoRA factor"),
        normMetric("norm_V", "V", "the LoRA factor"),
        {"imbalance", "‖UᵀU − V Vᵀ‖_F", "Frobenius norm", "imbalance", false, true,
         "How unbalanced the LoRA pair is; f depends only on U V, so noise moves this freely "
         "unless a regulariser holds it."},
        {"manifold_distance", "dist to the balanced factors of U* V*", "Frobenius distance",
         "manifold", false, true,
         "Procrustes distance of (U, Vᵀ) to the balanced factorisations of the teacher's update "
         "U* V*: grows as the weights drift along (U c, V / c)."},
        sharedMetric("manifold_distance_rel"),
        sharedMetric("villani"),
    };
    info.charts = factorPairCharts();
    info.charts[1].title = "Weight norms ‖U‖_F, ‖V‖_F";

    info.aboutHtml = R"html(<h3>Model</h3>
<p>A depth-2 network with a frozen pre-trained layer W<sub>pre</sub> (h&times;d) and head
W<sub>2</sub> (o&times;h), adapted by a low-rank update (LoRA) of rank r:</p>
<p align=center>f(x) = W<sub>2</sub> &sigma;((W<sub>pre</sub> + &alpha; U V) x),
&nbsp; &sigma; = tanh (or softplus)</p>
<p>Trainable U (h&times;r), V (r&times;d); the teacher is W<sub>pre</sub> + &alpha; U* V* plus
noise, inputs N(0, I); loss &#8467; = 1/(2n) &Sigma; &#8214;f(x) &minus; y&#8214;&sup2;.</p>
<h3>Regularisers and dynamics</h3>
<p>As in Experiment B: none, L2 &lambda;&#8214;W&#8214;&sup2;, log-amplified
&lambda;&#8214;W&#8214;&sup2; log(1 + &#8214;W&#8214;&sup2;), power
&lambda;&#8214;W&#8214;<sup>2+&epsilon;</sup>, summed over U and V; trained by the SDE
d&theta; = &minus;&nabla;V&#771; dt + &radic;s dB<sub>t</sub> (Euler&ndash;Maruyama), SGD or GD.</p>
<h3>The claim</h3>
<p>The scaling redundancy (U c, V / c), and more generally (U G, G<sup>&minus;1</sup> V), leaves
f unchanged: the loss is flat along this orbit, so without a regulariser the SDE drifts along
it and the norms of U and V grow; a weak regulariser keeps them bounded at no cost in test
loss.</p>
<h3>What to look for</h3><ul>
<li><b>Weight norms</b>: the unregularised ‖U‖ (or ‖V‖) runs away, the regularised runs stay
near the balanced size.</li>
<li><b>Distance to the balanced factors</b> of U* V* grows with the drift; the imbalance
‖U<sup>T</sup>U &minus; V V<sup>T</sup>‖ (View &gt; Charts) shows the same.</li>
<li><b>Loss</b>: all runs fit the teacher about equally well.</li></ul>)html";
}

}  // namespace ade
