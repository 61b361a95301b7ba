#include "inspect/InsideFigure.h"

#include <QBuffer>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

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

bool renderPainting(const std::function<void(QPainter&, const QRectF&)>& paint, QSize size,
                    double scale, FigureFormat format, const QString& path, const QString& title,
                    const QString& metadata, QString* error) {
    QByteArray bytes;
    QBuffer file(&bytes);
    file.open(QIODevice::WriteOnly);
    const QRectF area(QPointF(0, 0), QSizeF(size));
    bool ok = true;
    if (format == FigureFormat::Png) {
        QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            paint(p, area);
        }
        image.setText(QStringLiteral("Title"), title);
        image.setText(QStringLiteral("Software"), QStringLiteral("Attention Dynamics Explorer"));
        image.setText(QStringLiteral("Description"), metadata);
        ok = image.save(&file, "PNG");
    } else if (format == FigureFormat::Svg) {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
        svg.setViewBox(area);
        svg.setTitle(title);
        svg.setDescription(metadata);
        QPainter p;
        ok = p.begin(&svg);
        if (ok) {
            paint(p, area);
            ok = p.end();
        }
    } else {
        QPdfWriter pdf(&file);
        pdf.setTitle(title);
        pdf.setCreator(metadata.isEmpty() ? QStringLiteral("Attention Dynamics Explorer")
                                          : QStringLiteral("Attention Dynamics Explorer. ") + metadata);
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        ok = p.begin(&pdf);
        if (ok) {
            // The page in device pixels: scale the logical area onto it.
            const QRectF vp(QPointF(0, 0), QSizeF(p.viewport().size()));
            p.scale(vp.width() / area.width(), vp.height() / area.height());
            paint(p, area);
            ok = p.end();
        }
    }
    file.close();
    return writeRenderedFigure(ok, bytes, path, error);
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
