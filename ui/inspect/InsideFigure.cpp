#include "inspect/InsideFigure.h"

#include <QPainter>

#include "runs/RunStore.h"
#include "inspect/InsideData.h"

namespace ade::ui {

QString insidePanelId(InsidePanel panel) {
    switch (panel) {
        case InsidePanel::Matrices: return QStringLiteral("matrices");
        case InsidePanel::Attention: return QStringLiteral("attention");
        case InsidePanel::FactorPlane: return QStringLiteral("factor-plane");
    }
    return {};
}

bool parseInsidePanel(const QString& text, InsidePanel* out) {
    for (InsidePanel p : {InsidePanel::Matrices, InsidePanel::Attention, InsidePanel::FactorPlane})
        if (text.trimmed() == insidePanelId(p)) {
            *out = p;
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
    switch (spec.panel) {
        case InsidePanel::Matrices:
            paintMatrices(p, area, matrixScene(r, problem, spec.iteration, pending));
            break;
        case InsidePanel::Attention: {
            AttentionScene s = attentionScene(r, problem, spec.iteration, pending);
            s.sortFeature = spec.sortFeature;
            paintAttention(p, area, s);
            break;
        }
        case InsidePanel::FactorPlane:
            paintFactorPlane(p, area, factorPlaneScene(store, r, problem, spec.iteration, pending));
            break;
    }
}

bool renderInsidePanel(const RunStore& store, ProblemCache& problems, const InsideFrameSpec& spec,
                       QSize size, FigureFormat format, const QString& path,
                       const QString& metadata, QString* error) {
    auto paint = [&](QPainter& p, const QRectF& area) {
        paintInsidePanel(p, area, store, problems, spec);
    };
    return renderPainting(paint, size, format == FigureFormat::Png ? 2.0 : 1.0, format, path,
                          insidePanelId(spec.panel), metadata, error);
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
