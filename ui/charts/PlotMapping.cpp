#include "charts/PlotMapping.h"

#include <algorithm>
#include <cmath>

namespace ade::ui {

namespace {

// Where a value sits along an axis, 0 at its start and 1 at its end, within [-limit, limit + 1].
double along(double v, double a, double b, bool log, double limit) {
    double t = 0;
    if (log)
        t = v > 0 && a > 0 && b > a ? (std::log10(v) - std::log10(a)) / (std::log10(b) - std::log10(a)) : -limit;
    else
        t = b > a ? (v - a) / (b - a) : 0;
    return std::isfinite(t) ? std::clamp(t, -limit, limit + 1) : -limit;
}

}  // namespace

QPointF PlotMapping::map(const QPointF& v, double limit) const {
    return {plot.left() + along(v.x(), x0, x1, logX, limit) * plot.width(),
            plot.bottom() - along(v.y(), y0, y1, logY, limit) * plot.height()};
}

namespace plotpx {

qsizetype commonPrefix(const QList<QPointF>& a, const QList<QPointF>& b) {
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype i = 0;
    while (i < n && a[i] == b[i])
        ++i;
    return i;
}

qsizetype firstAt(const QPolygonF& p, double x) {
    const auto it = std::lower_bound(p.begin(), p.end(), x,
                                     [](const QPointF& q, double v) { return q.x() < v; });
    return std::max<qsizetype>(0, (it - p.begin()) - 1);
}

qsizetype pastAt(const QPolygonF& p, double x) {
    const auto it = std::upper_bound(p.begin(), p.end(), x,
                                     [](double v, const QPointF& q) { return v < q.x(); });
    return std::min<qsizetype>(p.size(), (it - p.begin()) + 1);
}

QRectF boundsFrom(const QPolygonF& p, qsizetype from) {
    QRectF r;
    for (qsizetype i = std::max<qsizetype>(0, from); i < p.size(); ++i)
        r |= QRectF(p[i], QSizeF(0.001, 0.001));
    return r;
}

}  // namespace plotpx

PlotLayer::PlotLayer(QGraphicsItem* chart, std::function<PlotMapping()> mapping, double z)
    : QGraphicsItem(chart), mappingOf_(std::move(mapping)) {
    setZValue(z);
    setFlag(QGraphicsItem::ItemUsesExtendedStyleOption);  // paint() learns the exposed strip
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
    mapping_ = mappingOf_();
}

void PlotLayer::syncMapping() {
    const PlotMapping now = mappingOf_();
    if (now == mapping_) return;
    prepareGeometryChange();
    mapping_ = now;
    remapAll();
    update();
}

void PlotLayer::repaint(const QRectF& dirty, double margin) {
    lastDirty_ = dirty.isEmpty() ? QRectF() : dirty.adjusted(-margin, -margin, margin, margin).intersected(mapping_.plot);
    if (!lastDirty_.isEmpty()) update(lastDirty_);
}

}  // namespace ade::ui
