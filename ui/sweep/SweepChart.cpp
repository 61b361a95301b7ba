#include "sweep/SweepChart.h"

#include "charts/FigureRenderer.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>

#include "base/ColorMaps.h"
#include "base/FigureFile.h"

namespace ade::ui {

SweepChart::SweepChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void SweepChart::setResults(const SweepResults& results) {
    results_ = results;
    if (selected_ >= static_cast<int>(results_.configs.size())) selected_ = -1;
    hovered_ = -1;
    resultsChanged();
    update();
}

void SweepChart::setSelected(int index) {
    selected_ = index;
    update();
}

QFont SweepChart::chartFont(double scale) const {
    QFont f = font();
    if (export_.fontPt > 0)
        f.setPointSizeF(export_.fontPt * scale);
    else if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * scale);
    return f;
}

QRectF SweepChart::drawTitle(QPainter& p, const QRectF& area, const QString& title) const {
    QFont f = chartFont(1.15);
    f.setBold(true);
    p.setFont(f);
    p.setPen(Qt::black);
    const QFontMetricsF fm(f);
    QRectF r = area.adjusted(8, 6, -8, 0);
    const QString shown =
        fm.elidedText(export_.title.isEmpty() ? title : export_.title, Qt::ElideRight, r.width());
    p.drawText(QRectF(r.left(), r.top(), r.width(), fm.height()), Qt::AlignHCenter, shown);
    double top = r.top() + fm.height() + 2;
    const QString n = note();
    p.setFont(chartFont());
    if (!n.isEmpty()) {
        const QFontMetricsF nf(p.font());
        p.setPen(QColor(0x55, 0x55, 0x55));
        p.drawText(QRectF(r.left(), top, r.width(), nf.height()), Qt::AlignHCenter,
                   nf.elidedText(n, Qt::ElideRight, r.width()));
        top += nf.height() + 2;
    }
    p.setPen(Qt::black);
    return QRectF(area.left(), top + 4, area.width(), area.bottom() - top - 4);
}

void SweepChart::drawEmpty(QPainter& p, const QRectF& area, const QString& text) const {
    p.setFont(chartFont());
    p.setPen(QColor(0x55, 0x55, 0x55));
    p.drawText(area.adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, text);
}

void SweepChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    paintChart(p, QRectF(rect()));
}

QString SweepChart::hoverText(int index) const {
    if (index < 0 || index >= static_cast<int>(results_.configs.size())) return {};
    const auto& c = results_.configs[index];
    QStringList lines;
    for (const auto& k : results_.keys)
        lines << QStringLiteral("%1 = %2").arg(keyLabel(k), results_.text(index, k));
    lines << QStringLiteral("%1: %2").arg(results_.metricLabel, meanSdText(c));
    lines << tr("seeds: %1 done, %2 failed").arg(c.seedsDone).arg(c.seedsFailed);
    if (c.seedsCapped > 0)
        lines << tr("%1 of them reached the iteration cap before the stopping rule (not "
                    "converged)")
                     .arg(c.seedsCapped);
    if (c.rung >= 0) lines << tr("rung %1 (%2 iterations)").arg(c.rung).arg(c.iterations);
    if (index == results_.best()) lines << tr("best config");
    lines << tr("click: show its runs' curves");
    return lines.join(QLatin1Char('\n'));
}

void SweepChart::mouseMoveEvent(QMouseEvent* e) {
    const int i = configAt(e->position(), QRectF(rect()));
    if (i != hovered_) {
        hovered_ = i;
        update();
    }
    if (i >= 0)
        QToolTip::showText(e->globalPosition().toPoint(), hoverText(i), this);
    else
        QToolTip::hideText();
    setCursor(i >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void SweepChart::mousePressEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    const int i = configAt(e->position(), QRectF(rect()));
    if (i < 0) return;
    setSelected(i);
    emit configActivated(i);
}

bool SweepChart::exportTo(FigureFormat format, const QString& path, QSize size,
                          QString* error) const {
    FigureOptions o;
    o.size = size;
    o.scale = 2.0;
    return exportTo(format, path, o, error);
}

bool SweepChart::exportTo(FigureFormat format, const QString& path, const FigureOptions& options,
                          QString* error) const {
    QStringList meta;
    for (const auto& k : results_.keys)
        meta << QString::fromStdString(k);
    const QString about = tr("sweep over %1").arg(meta.join(QStringLiteral(", ")));
    if (!isPaintedFormat(format)) {
        FigureOptions o = options;
        o.legend = Qt::AlignBottom;
        if (o.metadata.isEmpty()) o.metadata = about;
        return writePaperFigure(paperFigure(), o, format, path, error);
    }
    auto paint = [this](QPainter& p, const QRectF& area) {
        p.setRenderHint(QPainter::Antialiasing);
        p.fillRect(area, Qt::white);
        paintChart(p, area);
    };
    // The export's texts and type size for this painting only (the screen keeps its own).
    export_ = {options.title, options.xLabel, options.yLabel, options.fontPt};
    const bool ok = renderPainting(paint, options.size,
                                   format == FigureFormat::Png ? std::max(1.0, options.scale) : 1.0,
                                   format, path, tr("Sweep: %1").arg(results_.metricLabel), about, error);
    export_ = {};
    return ok;
}

QColor bestColor() {
    return QColor(0xd5, 0x5e, 0x00);
}

QColor goodnessColor(double goodness) {
    if (!std::isfinite(goodness)) return QColor(0xb0, 0xb0, 0xb0);
    return sequentialColor(0.3 + 0.7 * std::clamp(goodness, 0.0, 1.0), 1.0);
}

}  // namespace ade::ui
