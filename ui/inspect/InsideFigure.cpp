#include "inspect/InsideFigure.h"

#include <QPainter>

#include <algorithm>

#include "charts/FigureRenderer.h"
#include "runs/RunStore.h"
#include "inspect/InsideFigurePaper.h"
#include "inspect/AttentionPanel.h"
#include "inspect/FactorPlanePanel.h"
#include "inspect/InsideData.h"
#include "inspect/MatrixPanel.h"

namespace ade::ui {

const std::vector<InsidePanelInfo>& insidePanels() {
    static const std::vector<InsidePanelInfo> table = {
        {InsidePanel::Matrices, "matrices", QObject::tr("&Matrices"), "animationMatrices",
         QObject::tr("Heatmaps of the run's matrices beside their targets"),
         [](QPainter& p, const QRectF& area, const InsidePaintInput& in) {
             MatrixScene s = matrixScene(in.run, in.problem, in.iteration, in.pending);
             if (!in.title.isEmpty()) s.heading = in.title;
             paintMatrices(p, area, s);
         },
         [](QWidget* parent) -> QWidget* { return new MatrixPanel(parent); }},
        {InsidePanel::Attention, "attention", QObject::tr("A&ttention"), "animationAttention",
         QObject::tr("The attention of one held-out sequence"),
         [](QPainter& p, const QRectF& area, const InsidePaintInput& in) {
             AttentionScene s = attentionScene(in.run, in.problem, in.iteration, in.pending);
             s.sortFeature = in.sortFeature;
             if (!in.title.isEmpty()) s.heading = in.title;
             paintAttention(p, area, s);
         },
         [](QWidget* parent) -> QWidget* { return new AttentionPanel(parent); }},
        {InsidePanel::FactorPlane, "factor-plane", QObject::tr("Factor &plane"), "animationPlane",
         QObject::tr("Every run's path in the plane of its factors' norms, the point marked"),
         [](QPainter& p, const QRectF& area, const InsidePaintInput& in) {
             FactorPlaneScene s = factorPlaneScene(in.store, in.run, in.problem, in.iteration,
                                                   in.pending);
             if (!in.title.isEmpty()) s.heading = in.title;
             if (!in.xLabel.isEmpty()) s.xLabel = in.xLabel;
             if (!in.yLabel.isEmpty()) s.yLabel = in.yLabel;
             paintFactorPlane(p, area, s);
         },
         [](QWidget* parent) -> QWidget* { return new FactorPlanePanel(parent); }},
    };
    return table;
}

const InsidePanelInfo& insidePanelInfo(InsidePanel panel) {
    for (const InsidePanelInfo& info : insidePanels())
        if (info.panel == panel) return info;
    return insidePanels().front();  // every enum value has its row (tst_inside checks)
}

QString insidePanelId(InsidePanel panel) {
    return QLatin1String(insidePanelInfo(panel).id);
}

bool parseInsidePanel(const QString& text, InsidePanel* out) {
    for (const InsidePanelInfo& info : insidePanels())
        if (text.trimmed() == QLatin1String(info.id)) {
            *out = info.panel;
            return true;
        }
    return false;
}

void paintInsidePanel(QPainter& p, const QRectF& area, const RunStore& store,
                      ProblemCache& problems, const InsideFrameSpec& spec) {
    const RunRecord* r = focusRecord(store, spec.runId);
    QString error;
    ade::Problem* problem = r ? problems.problemNow(r->config, &error) : nullptr;
    const QString pending =
        error.isEmpty() ? QObject::tr("The experiment could not be built.") : error;
    insidePanelInfo(spec.panel)
        .paint(p, area, {store, r, problem, spec.iteration, pending, spec.sortFeature, spec.title,
                         spec.xLabel, spec.yLabel});
}

bool renderInsidePanel(const RunStore& store, ProblemCache& problems, const InsideFrameSpec& spec,
                       const FigureOptions& o, FigureFormat format, const QString& path,
                       QString* error) {
    if (!isPaintedFormat(format))  // PGFPlots or matplotlib: the panel's data (InsideFigurePaper)
        return writeInsidePaperFigure(store, problems, spec, o, format, path, error);
    InsideFrameSpec texts = spec;
    if (!o.title.isEmpty()) texts.title = o.title;
    if (!o.xLabel.isEmpty()) texts.xLabel = o.xLabel;
    if (!o.yLabel.isEmpty()) texts.yLabel = o.yLabel;
    auto paint = [&](QPainter& p, const QRectF& area) {
        if (o.fontPt > 0) {
            QFont font = p.font();
            font.setPointSizeF(o.fontPt);
            p.setFont(font);
        }
        paintInsidePanel(p, area, store, problems, texts);
    };
    return renderPainting(paint, o.size, format == FigureFormat::Png ? std::max(2.0, o.scale) : 1.0,
                          format, path, insidePanelId(spec.panel), o.metadata, error);
}

std::function<QImage(long)> insideFrameRenderer(const RunStore& store, ProblemCache& problems,
                                                InsideFrameSpec spec, QSize size) {
    return [&store, &problems, spec, size](long iteration) {
        InsideFrameSpec s = spec;
        s.iteration = iteration;
        QImage image(size, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        paintInsidePanel(p, QRectF(QPointF(0, 0), QSizeF(size)), store, problems, s);
        return image;
    };
}

}  // namespace ade::ui
