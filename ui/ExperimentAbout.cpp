#include "ExperimentAbout.h"

#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

QString experimentFormulasHtml(const std::string& experiment) {
    if (experiment == "a")
        return QStringLiteral(
            "<h3>Model</h3>"
            "<p>Tokens x ~ N(0, &Sigma;), targets y = M x + &sigma; &epsilon;; P sequences of n "
            "tokens. Parameters &theta; = (A, B), A k&times;d (value/output), B d&times;d (merged "
            "key-query):</p>"
            "<p align=center>f<sub>&theta;</sub>(X)<sub>i</sub> = &Sigma;<sub>j</sub> "
            "softmax<sub>j</sub>(x<sub>i</sub><sup>T</sup> B x<sub>j</sub>) A x<sub>j</sub></p>"
            "<p align=center>L<sub>n</sub>(&theta;) = 1/(2Pn) &Sigma; &#8214;f<sub>&theta;</sub>"
            "(X)<sub>i</sub> &minus; y<sub>i</sub>&#8214;&sup2;</p>"
            "<h3>Infinite-data limit</h3>"
            "<p>As n &rarr; &infin;, f<sub>&theta;</sub>(X)<sub>i</sub> &rarr; A &Sigma; "
            "B<sup>T</sup> x<sub>i</sub>, so with L = A&Sigma;<sup>&frac12;</sup>, R = "
            "&Sigma;<sup>&frac12;</sup>B&Sigma;<sup>&frac12;</sup>, X* = "
            "M&Sigma;<sup>&frac12;</sup>:</p>"
            "<p align=center><b>excess risk</b> E(&theta;) = &frac12; &#8214;L R<sup>T</sup> "
            "&minus; X*&#8214;&sup2;</p>"
            "<h3>Manifold of global minima</h3>"
            "<p>S = {(L*O, R*O) : O orthogonal}; <b>manifold distance</b> dist(&theta;, S)&sup2; = "
            "min<sub>O</sub> &#8214;L &minus; L*O&#8214;&sup2; + &#8214;R &minus; R*O&#8214;&sup2; "
            "(orthogonal Procrustes). <b>Imbalance</b> &#8214;L<sup>T</sup>L &minus; "
            "R<sup>T</sup>R&#8214;.</p>"
            "<h3>Algorithm 1 (project reconstruction)</h3>"
            "<ol><li><b>Spectral start</b>: SVD of &Ccirc; "
            "&Sigma;&#770;<sup>&minus;&frac12;</sup>, "
            "on the balanced manifold.</li>"
            "<li><b>Balancing regulariser</b> (&lambda;/4) &#8214;L&#770;<sup>T</sup>L&#770; "
            "&minus; R&#770;<sup>T</sup>R&#770;&#8214;&sup2;.</li>"
            "<li><b>Preconditioned step</b> (scaled GD in the &Sigma;&#770; geometry), with "
            "Armijo backtracking on Q = L<sub>n</sub> + R.</li>"
            "<li><b>Renormalisation</b> every K steps (optional).</li></ol>"
            "<h3>What to look for</h3><ul>"
            "<li>A random start begins orders of magnitude above the spectral start.</li>"
            "<li>Algorithm 1 reaches the floor set by n within a few dozen iterations; SGD from a "
            "random start needs hundreds. The spectral start, a moment estimator free of the "
            "finite-n bias, can begin below that floor.</li>"
            "<li>Sweep view: the floor against n on log-log axes, with reference slopes "
            "&minus;1 and &minus;2.</li></ul>");
    const ade::ExperimentInfo* info = ade::findExperiment(experiment);
    return QStringLiteral(
               "<p>%1</p><p>The formulas of this experiment, as implemented, are in "
               "<code>docs/experiments-bc.md</code>.</p>")
        .arg(info ? QString::fromStdString(info->title).toHtmlEscaped()
                  : QString::fromStdString(experiment).toHtmlEscaped());
}

QString aboutHtml(const std::string& experiment, const QString& presetName,
                  const QString& presetDescription, const QString& presetAbout) {
    const ade::ExperimentInfo* info = ade::findExperiment(experiment);
    QString html =
        QStringLiteral("<h2>%1</h2>")
            .arg(info ? QString::fromStdString(info->title).toHtmlEscaped()
                      : QStringLiteral("Experiment %1").arg(QString::fromStdString(experiment)));
    if (!presetName.isEmpty()) {
        html += QStringLiteral("<p><b>Preset %1</b>: %2</p>")
                    .arg(presetName.toHtmlEscaped(), presetDescription.toHtmlEscaped());
        if (!presetAbout.isEmpty())
            html += QStringLiteral("<p>%1</p>").arg(presetAbout.toHtmlEscaped());
    }
    return html + experimentFormulasHtml(experiment);
}

}  // namespace ade::ui
