// The Darcy experiment's self-description: About text, metric descriptions and charts
// (MetricInfo.h).
#include "experiments/ExperimentRegistry.h"

namespace ade {

void describeExperimentDarcy(ExperimentInfo& info) {
    info.headlineMetric = "rmse";
    info.defaultPreset = "darcy-stage2";
    MetricInfo train = sharedMetric("train_loss");
    train.units = "loss (½ MSE)";
    train.meaning = "½ mean over samples and pixels of (û − u)², in per-pixel normalised units.";
    MetricInfo test = sharedMetric("test_loss");
    test.meaning = "The same on the test fields.";
    info.metrics = {
        train,
        test,
        sharedMetric("gen_gap"),
        {"rmse", "test RMSE of the pressure u", "u (solution units)", "rmse", false,
         true, "Root mean squared error of û against the finite-difference solution u."},
        {"rel_l2", "relative L² error ‖u − û‖ / ‖u‖", "ratio", "rel_l2", false,
         true, "Test error relative to the size of the solution, averaged over test fields."},
        normMetric("norm_WQ", "W_Q", "the query matrix"),
        normMetric("norm_WK", "W_K", "the key matrix"),
        {"imbalance", "‖W_QᵀW_Q − W_KᵀW_K‖_F", "Frobenius norm", "imbalance",
         false, true,
         "How unbalanced the query/key pair is; the attention scores depend on W_Q W_Kᵀ only."},
    };
    info.charts = {{"rel_l2", "Test error (relative L²)", "ratio",
                    AxisScale::Log, true},
                   sharedChart("norms"),
                   sharedChart("loss"),
                   sharedChart("gap"),
                   {"rmse", "Test RMSE", "u (solution units)", AxisScale::Log, false},
                   sharedChart("imbalance", false),
                   sharedChart("step", false),
                   sharedChart("regulariser", false)};
    info.charts[1].title = "Weight norms ‖W_Q‖_F, ‖W_K‖_F";

    info.aboutHtml = R"html(<h3>Data: Darcy flow</h3>
<p>&minus;&nabla;&middot;(a &nabla;u) = f on (0,1)&sup2;, f &equiv; 1, u = 0 on the boundary.
The coefficient a = &psi;(g) with g ~ N(0, (&minus;&Delta; + 9I)<sup>&minus;2</sup>), &psi; = 12
where g &ge; 0 and 3 elsewhere (the FNO benchmark); u from second-order finite differences.</p>
<h3>Model: a ViT-style attention regressor</h3>
<p>a is cut into p&times;p patches (tokens), with their 2-D position, embedded linearly to width
e; one single-head attention block with residual (W<sub>Q</sub>, W<sub>K</sub>,
W<sub>V</sub>); a linear head back to a patch of u. Loss: &frac12; mean over samples and pixels
of (&ucirc; &minus; u)&sup2; in normalised units.</p>
<h3>Two stages</h3>
<p><b>Stage 1</b> trains every weight with Adam (cached). <b>Stage 2</b> freezes all but
W<sub>Q</sub>, W<sub>K</sub> and trains them with SGD or the SDE d&theta; = &minus;&nabla;V&#771;
dt + &radic;s dB<sub>t</sub> under none / log-amplified / power regularisation.</p>
<h3>What to look for (Paper B's finding)</h3><ul>
<li><b>Test error</b>: at small &lambda; all runs reach nearly the same relative L&sup2;
error.</li>
<li><b>Weight norms</b>: unregularised ‖W<sub>Q</sub>‖, ‖W<sub>K</sub>‖ keep growing; the
regularised ones stay bounded.</li>
<li><b>Generalisation gap</b> stays small with a regulariser.</li></ul>)html";
}

}  // namespace ade
