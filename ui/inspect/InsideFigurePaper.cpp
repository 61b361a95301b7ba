#include "inspect/InsideFigurePaper.h"

#include <QObject>

#include <algorithm>
#include <cmath>

#include "charts/FigureRenderer.h"
#include "inspect/AttentionPanel.h"
#include "inspect/FactorPlanePanel.h"
#include "inspect/InsideData.h"
#include "inspect/LandscapeMap.h"
#include "inspect/MatrixPanel.h"
#include "runs/RunStore.h"

namespace ade::ui {

namespace {

HeatmapPanel panelOf(const Eigen::MatrixXd& m, const QString& title, int row) {
    HeatmapPanel p;
    p.title = title;
    p.row = row;
    p.rows = static_cast<int>(m.rows());
    p.cols = static_cast<int>(m.cols());
    p.values.reserve(static_cast<std::size_t>(m.size()));
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            p.values.push_back(m(i, j));
    return p;
}

double maxAbs(const std::vector<double>& v) {
    double out = 0;
    for (double x : v)
        if (std::isfinite(x)) out = std::max(out, std::abs(x));
    return out;
}

}  // namespace

HeatmapFigure matrixHeatmaps(const MatrixScene& scene) {
    HeatmapFigure f;
    f.id = QStringLiteral("matrices");
    f.title = scene.heading;
    // Rows numbered from 0 in the figure, in the view's order of rows.
    std::vector<int> rows;
    for (const ade::MatrixView& v : scene.views)
        if (std::find(rows.begin(), rows.end(), v.row) == rows.end()) rows.push_back(v.row);
    std::sort(rows.begin(), rows.end());
    for (const ade::MatrixView& v : scene.views) {
        if (v.values.size() == 0) continue;
        const int row = static_cast<int>(std::find(rows.begin(), rows.end(), v.row) - rows.begin());
        HeatmapPanel p = panelOf(v.values, QString::fromStdString(v.title), row);
        p.colours = HeatmapColours::Diverging;
        f.panels.push_back(std::move(p));
    }
    // One scale per row, symmetric around 0 (as on screen).
    for (HeatmapPanel& p : f.panels) {
        double scale = 0;
        for (const HeatmapPanel& q : f.panels)
            if (q.row == p.row) scale = std::max(scale, maxAbs(q.values));
        if (!(scale > 0)) scale = 1;
        p.lo = -scale;
        p.hi = scale;
    }
    return f;
}

HeatmapFigure attentionHeatmaps(const AttentionScene& scene) {
    HeatmapFigure f;
    f.id = QStringLiteral("attention");
    f.title = scene.heading;
    if (!scene.view) return f;
    const ade::AttentionView& v = *scene.view;
    const std::vector<int> order = attentionOrder(scene);
    const int n = static_cast<int>(order.size());
    auto ordered = [&](const Eigen::MatrixXd& m) {
        Eigen::MatrixXd out(n, n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                out(i, j) = m(order[i], order[j]);
        return out;
    };
    const bool withRef = !v.referenceTitle.empty() && v.reference.rows() == v.weights.rows() &&
                         v.reference.cols() == v.weights.cols();
    double scale = v.weights.maxCoeff();
    if (withRef) scale = std::max(scale, v.reference.maxCoeff());
    if (!(scale > 0)) scale = 1;
    const QString sorted = scene.sortFeature >= 0 && scene.sortFeature < static_cast<int>(v.featureNames.size())
                               ? QObject::tr(" (sorted by %1)").arg(QString::fromStdString(v.featureNames[scene.sortFeature]))
                               : QString();
    auto add = [&](const Eigen::MatrixXd& m, const QString& title) {
        HeatmapPanel p = panelOf(ordered(m), title, 0);
        p.colours = HeatmapColours::Sequential;
        p.lo = 0;
        p.hi = scale;
        p.xLabel = QObject::tr("key token j") + sorted;
        p.yLabel = QObject::tr("query token i");
        p.colourLabel = QObject::tr("weight");
        f.panels.push_back(std::move(p));
    };
    add(v.weights, QString::fromStdString(v.title));
    if (withRef) add(v.reference, QString::fromStdString(v.referenceTitle));
    return f;
}

FigureData factorPlaneFigure(const FactorPlaneScene& scene) {
    FigureData d;
    d.id = QStringLiteral("factor-plane");
    d.title = scene.heading;
    d.xLabel = scene.xLabel;
    d.yLabel = scene.yLabel;
    double range = 0;
    for (const PlaneTrajectory& t : scene.runs) {
        FigureCurve c;
        c.run = t.name;
        c.color = t.color;
        c.x = t.x;
        c.y = t.y;
        for (std::size_t k = 0; k < t.x.size() && k < t.y.size(); ++k)
            if (std::isfinite(t.x[k]) && std::isfinite(t.y[k])) range = std::max({range, t.x[k], t.y[k]});
        d.curves.push_back(std::move(c));
    }
    if (!(range > 0)) range = 1;
    range *= 1.05;
    FigureCurve diagonal;  // the balanced factors, ‖L‖ = ‖R‖
    diagonal.run = QObject::tr("balanced");
    diagonal.notation = scene.xLabel + QStringLiteral(" = ") + scene.yLabel;
    diagonal.color = QColor(150, 150, 150);
    diagonal.style = Qt::DashLine;
    diagonal.x = diagonal.y = {0.0, range};
    d.curves.push_back(std::move(diagonal));
    d.x0 = d.y0 = 0;
    d.x1 = d.y1 = range;
    return d;
}

HeatmapFigure landscapeHeatmap(const LandscapeOutcome& o, const LandscapeMapOptions& opt) {
    HeatmapFigure f;
    f.id = QStringLiteral("landscape");
    const ade::LandscapeResult& g = o.grid;
    const Eigen::MatrixXd& z = opt.dataLossOnly ? g.dataLoss : g.objective;
    if (z.size() == 0) return f;
    HeatmapPanel p = panelOf(z, QString(), 0);  // rows: s, columns: t
    f.title = !opt.title.isEmpty()
                  ? opt.title
                  : QObject::tr("%1: %2 around iteration %3")
                        .arg(o.runName, opt.dataLossOnly ? QObject::tr("data loss") : QObject::tr("objective Q"))
                        .arg(o.centreIteration);
    p.xs = g.t;
    p.ys = g.s;
    p.xLabel = landscapeTAxisName(g);
    p.yLabel = landscapeSAxisName(g);
    p.yDown = false;
    p.colours = HeatmapColours::Viridis;
    double lo = INFINITY, hi = -INFINITY;
    for (double v : p.values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!std::isfinite(lo)) lo = 0, hi = 1;
    p.logColour = lo > 0 && hi / lo > 10.0;  // as the map's scale (LandscapeMap.cpp)
    p.lo = lo;
    p.hi = hi > lo ? hi : lo + 1;
    p.colourLabel = (opt.dataLossOnly ? QObject::tr("data loss") : QObject::tr("Q = loss + regulariser")) +
                    (p.logColour ? QObject::tr(" (log scale)") : QString());
    for (const Eigen::Vector2d& pt : o.path) {
        p.pathX.push_back(pt.x());
        p.pathY.push_back(pt.y());
    }
    p.pathMarker = landscapeMarkerIndex(o, opt.markerIteration);
    f.panels.push_back(std::move(p));
    return f;
}

bool insidePaperFigure(const RunStore& store, ProblemCache& problems, const InsideFrameSpec& spec,
                       PaperFigure* out, QString* error) {
    const RunRecord* r = focusRecord(store, spec.runId);
    QString why;
    ade::Problem* problem = r ? problems.problemNow(r->config, &why) : nullptr;
    const QString pending = why.isEmpty() ? QObject::tr("The experiment could not be built.") : why;
    QString note;
    switch (spec.panel) {
        case InsidePanel::Matrices: {
            const MatrixScene s = matrixScene(r, problem, spec.iteration, pending);
            out->maps = matrixHeatmaps(s);
            note = s.note;
            break;
        }
        case InsidePanel::Attention: {
            AttentionScene s = attentionScene(r, problem, spec.iteration, pending);
            s.sortFeature = spec.sortFeature;
            out->maps = attentionHeatmaps(s);
            note = s.note;
            break;
        }
        case InsidePanel::FactorPlane: {
            const FactorPlaneScene s = factorPlaneScene(store, r, problem, spec.iteration, pending);
            if (!s.runs.empty()) out->lines = factorPlaneFigure(s);
            note = s.note;
            break;
        }
    }
    if (out->lines || (out->maps && !out->maps->panels.empty())) return true;
    if (error)
        *error = QObject::tr("%1: nothing to draw%2")
                     .arg(insidePanelId(spec.panel), note.isEmpty() ? QString() : QStringLiteral(" (") + note + ')');
    return false;
}

bool writeInsidePaperFigure(const RunStore& store, ProblemCache& problems,
                            const InsideFrameSpec& spec, const FigureOptions& options,
                            FigureFormat format, const QString& path, QString* error) {
    PaperFigure figure;
    if (!insidePaperFigure(store, problems, spec, &figure, error)) return false;
    return writePaperFigure(figure, options, format, path, error);
}

}  // namespace ade::ui
