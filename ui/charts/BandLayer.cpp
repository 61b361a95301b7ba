#include "charts/BandLayer.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace ade::ui {

namespace {

// Where a value sits along an axis, 0 at its start and 1 at its end. Far outside the plot a
// point is held a few plot sizes away: the rasteriser clips it, and no coordinate overflows.
double along(double v, double a, double b, bool log) {
    double t = 0;
    if (log)
        t = v > 0 && a > 0 && b > a ? (std::log10(v) - std::log10(a)) / (std::log10(b) - std::log10(a)) : -10;
    else
        t = b > a ? (v - a) / (b - a) : 0;
    return std::isfinite(t) ? std::clamp(t, -10.0, 11.0) : -10.0;
}

qsizetype commonPrefix(const QList<QPointF>& a, const QList<QPointF>& b) {
    const qsizetype n = std::min(a.size(), b.size());
    qsizetype i = 0;
    while (i < n && a[i] == b[i])
        ++i;
    return i;
}

// The first index whose x is at or past `x` (points in x order), minus one: the polygon
// reaches just outside the strip it paints.
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

}  // namespace

QPointF PlotMapping::map(const QPointF& v) const {
    return {plot.left() + along(v.x(), x0, x1, logX) * plot.width(),
            plot.bottom() - along(v.y(), y0, y1, logY) * plot.height()};
}

BandLayer::BandLayer(QGraphicsItem* chart, std::function<PlotMapping()> mapping)
    : QGraphicsItem(chart), mappingOf_(std::move(mapping)) {
    // Over the grid and axes (z 2 and 3 in Qt Charts), under every series (4): a band never
    // hides a line, whichever was added first.
    setZValue(3.5);
    setFlag(QGraphicsItem::ItemUsesExtendedStyleOption);  // paint() learns the exposed strip
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
    mapping_ = mappingOf_();
}

// Maps a band's points from index `from` on; those before keep their pixels.
void BandLayer::mapFrom(Band& b, qsizetype from) const {
    b.loPx.resize(b.lo.size());
    b.hiPx.resize(b.hi.size());
    for (qsizetype i = std::min(from, b.lo.size()); i < b.lo.size(); ++i)
        b.loPx[i] = mapping_.map(b.lo[i]);
    for (qsizetype i = std::min(from, b.hi.size()); i < b.hi.size(); ++i)
        b.hiPx[i] = mapping_.map(b.hi[i]);
}

void BandLayer::syncMapping() {
    const PlotMapping now = mappingOf_();
    if (now == mapping_) return;
    prepareGeometryChange();
    mapping_ = now;
    for (auto& [key, b] : bands_)
        mapFrom(b, 0);
    update();
}

void BandLayer::setBand(const QString& key, const QList<QPointF>& lo, const QList<QPointF>& hi) {
    syncMapping();
    Band& b = bands_[key];
    const qsizetype same = std::min(commonPrefix(b.lo, lo), commonPrefix(b.hi, hi));
    if (same == b.lo.size() && same == b.hi.size() && same == lo.size() && same == hi.size()) {
        lastDirty_ = QRectF();
        return;
    }
    // What changed: the polygon's edges from the last unchanged point on, old and new (the
    // band is the upper bound forward, then the lower one back: those edges are one chain).
    const qsizetype from = std::max<qsizetype>(0, same - 1);
    QRectF dirty;
    auto cover = [&dirty](const QPolygonF& px, qsizetype i) {
        for (; i < px.size(); ++i)
            dirty |= QRectF(px[i], QSizeF(0.001, 0.001));
    };
    cover(b.loPx, from);
    cover(b.hiPx, from);
    b.lo = lo;
    b.hi = hi;
    mapFrom(b, from);  // the unchanged prefix keeps its pixels
    cover(b.loPx, from);
    cover(b.hiPx, from);
    lastDirty_ = b.visible && !dirty.isEmpty() ? dirty.adjusted(-2, -2, 2, 2).intersected(mapping_.plot) : QRectF();
    if (!lastDirty_.isEmpty()) update(lastDirty_);  // two pixels more: antialiased edges
}

void BandLayer::setStyle(const QString& key, const QBrush& brush, bool visible) {
    Band& b = bands_[key];
    if (b.brush == brush && b.visible == visible) return;
    b.brush = brush;
    b.visible = visible;
    update();
}

void BandLayer::remove(const QString& key) {
    if (bands_.erase(key)) update();
}

void BandLayer::clear() {
    if (bands_.empty()) return;
    bands_.clear();
    update();
}

void BandLayer::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QRectF plot = mapping_.plot;
    const QRectF strip = option ? option->exposedRect.intersected(plot) : plot;
    if (strip.isEmpty()) return;
    painter->save();
    painter->setClipRect(plot, Qt::IntersectClip);
    painter->setPen(Qt::NoPen);
    QPolygonF poly;
    for (const auto& [key, b] : bands_) {
        if (!b.visible || b.hiPx.isEmpty() || b.loPx.isEmpty()) continue;
        // Only the part of the band over the exposed strip: a frame repaints the few pixels a
        // streaming band grew by, not its whole outline.
        const qsizetype h0 = firstAt(b.hiPx, strip.left()), h1 = pastAt(b.hiPx, strip.right());
        const qsizetype l0 = firstAt(b.loPx, strip.left()), l1 = pastAt(b.loPx, strip.right());
        if (h1 <= h0 || l1 <= l0) continue;
        poly.clear();
        poly.reserve((h1 - h0) + (l1 - l0));
        for (qsizetype i = h0; i < h1; ++i)
            poly << b.hiPx[i];
        for (qsizetype i = l1; i-- > l0;)
            poly << b.loPx[i];
        painter->setBrush(b.brush);
        painter->drawPolygon(poly);
    }
    painter->restore();
}

}  // namespace ade::ui
