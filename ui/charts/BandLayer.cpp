#include "charts/BandLayer.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>

namespace ade::ui {

using plotpx::commonPrefix;
using plotpx::firstAt;
using plotpx::pastAt;

// Over the grid and axes (z 2 and 3 in Qt Charts), under the lines (LineLayer, 4): a band never
// hides a line.
BandLayer::BandLayer(QGraphicsItem* chart, std::function<PlotMapping()> mapping)
    : PlotLayer(chart, std::move(mapping), 3.5) {}

// Maps a band's points from index `from` on; those before keep their pixels.
void BandLayer::mapFrom(Band& b, qsizetype from) const {
    b.loPx.resize(b.lo.size());
    b.hiPx.resize(b.hi.size());
    for (qsizetype i = std::min(from, b.lo.size()); i < b.lo.size(); ++i)
        b.loPx[i] = mapping_.map(b.lo[i]);
    for (qsizetype i = std::min(from, b.hi.size()); i < b.hi.size(); ++i)
        b.hiPx[i] = mapping_.map(b.hi[i]);
}

void BandLayer::remapAll() {
    for (auto& [key, b] : bands_)
        mapFrom(b, 0);
}

void BandLayer::setBand(const QString& key, const QList<QPointF>& lo, const QList<QPointF>& hi) {
    Band& b = bands_[key];
    const qsizetype same = std::min(commonPrefix(b.lo, lo), commonPrefix(b.hi, hi));
    if (same == b.lo.size() && same == b.hi.size() && same == lo.size() && same == hi.size()) {
        lastDirty_ = QRectF();
        return;
    }
    // What changed: the polygon's edges from the last unchanged point on, old and new (the
    // band is the upper bound forward, then the lower one back: those edges are one chain).
    const qsizetype from = std::max<qsizetype>(0, same - 1);
    QRectF dirty = plotpx::boundsFrom(b.loPx, from) | plotpx::boundsFrom(b.hiPx, from);
    b.lo = lo;
    b.hi = hi;
    mapFrom(b, from);  // the unchanged prefix keeps its pixels
    dirty |= plotpx::boundsFrom(b.loPx, from) | plotpx::boundsFrom(b.hiPx, from);
    repaint(b.visible ? dirty : QRectF(), 2);  // two pixels more: antialiased edges
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
