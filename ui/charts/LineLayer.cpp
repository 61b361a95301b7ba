#include "charts/LineLayer.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace ade::ui {

namespace {

// Far outside the plot a curve's point is held this many plot sizes away: the segment into the
// plot keeps its slope to a thousandth (BandLayer's fills keep 10, for the rasteriser's sake).
constexpr double kLineLimit = 1000;

double penWidth(const QPen& pen) { return std::max(1.0, pen.widthF()); }

}  // namespace

LineLayer::LineLayer(QGraphicsItem* chart, std::function<PlotMapping()> mapping)
    : PlotLayer(chart, std::move(mapping), 4) {}

void LineLayer::mapFrom(Line& l, qsizetype from) const {
    const qsizetype n = l.points.size();
    from = std::min(from, n);
    l.px.resize(n);
    l.arc.resize(static_cast<std::size_t>(n));
    for (qsizetype i = from; i < n; ++i) {
        l.px[i] = mapping_.map(l.points[i], kLineLimit);
        l.arc[static_cast<std::size_t>(i)] =
            i == 0 ? 0.0 : l.arc[static_cast<std::size_t>(i - 1)] + std::hypot(l.px[i].x() - l.px[i - 1].x(), l.px[i].y() - l.px[i - 1].y());
    }
}

void LineLayer::remapAll() {
    for (auto& [key, l] : lines_)
        mapFrom(l, 0);
}

void LineLayer::setLine(const QString& key, const QList<QPointF>& points) {
    Line& l = lines_[key];
    const qsizetype same = plotpx::commonPrefix(l.points, points);
    if (same == l.points.size() && same == points.size()) {
        lastDirty_ = QRectF();
        return;
    }
    // What changed: the segments from the last unchanged point on, old and new.
    const qsizetype from = std::max<qsizetype>(0, same - 1);
    QRectF dirty = plotpx::boundsFrom(l.px, from);
    l.points = points;
    mapFrom(l, from);  // the unchanged prefix keeps its pixels and its length
    dirty |= plotpx::boundsFrom(l.px, from);
    // Half the pen and its square cap, and two pixels for the antialiased edge.
    repaint(l.visible ? dirty : QRectF(), penWidth(l.pen) + 2);
}

void LineLayer::setStyle(const QString& key, const QPen& pen, const QString& name, bool visible, bool under) {
    Line& l = lines_[key];
    l.name = name;
    if (l.pen == pen && l.visible == visible && l.under == under) return;
    l.pen = pen;
    l.visible = visible;
    l.under = under;
    update();
}

void LineLayer::remove(const QString& key) {
    if (lines_.erase(key)) update();
}

const LineLayer::Line* LineLayer::line(const QString& name) const {
    for (const auto& [key, l] : lines_)
        if (l.name == name) return &l;
    return nullptr;
}

// The segments [from, to) of a curve: one polyline, or for a dashed pen the dashes that fall on
// them, each a polyline of its own. A dash starts where the pattern, laid along the curve from
// its first point, says, whichever segment the strip starts at.
void LineLayer::drawStrip(QPainter* p, const Line& l, qsizetype from, qsizetype to) {
    const QList<qreal> pattern = l.pen.style() == Qt::SolidLine ? QList<qreal>() : l.pen.dashPattern();
    const double w = penWidth(l.pen);
    double period = 0;
    for (qreal d : pattern)
        period += d * w;
    if (pattern.isEmpty() || !(period > 0)) {
        p->setPen(l.pen);
        p->drawPolyline(l.px.constData() + from, static_cast<int>(to - from));
        return;
    }
    QPen solid = l.pen;
    solid.setStyle(Qt::SolidLine);
    solid.setCapStyle(Qt::FlatCap);  // a dash is as long as the pattern says
    p->setPen(solid);
    // Where the strip's first point falls in the pattern.
    const double start = l.arc[static_cast<std::size_t>(from)];
    double phase = std::fmod(start, period);
    qsizetype k = 0;
    while (phase >= pattern[k] * w) {
        phase -= pattern[k] * w;
        k = (k + 1) % pattern.size();
    }
    double left = pattern[k] * w - phase;  // of the current dash or gap
    bool on = k % 2 == 0;
    QPolygonF dash;
    if (on) dash << l.px[from];
    for (qsizetype i = from; i + 1 < to; ++i) {
        const QPointF a = l.px[i], b = l.px[i + 1];
        const double len = l.arc[static_cast<std::size_t>(i + 1)] - l.arc[static_cast<std::size_t>(i)];
        double at = 0;
        while (len - at >= left) {
            at += left;
            const QPointF q = a + (b - a) * (at / len);
            if (on) {
                dash << q;
                p->drawPolyline(dash);
                dash.clear();
            } else {
                dash = {q};
            }
            k = (k + 1) % pattern.size();
            left = pattern[k] * w;
            on = !on;
        }
        left -= len - at;
        if (on) dash << b;
    }
    if (on && dash.size() > 1) p->drawPolyline(dash);
}

void LineLayer::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QRectF plot = mapping_.plot;
    const QRectF strip = option ? option->exposedRect.intersected(plot) : plot;
    if (strip.isEmpty()) return;
    painter->save();
    painter->setClipRect(plot, Qt::IntersectClip);
    painter->setBrush(Qt::NoBrush);
    for (bool under : {true, false})
        for (const auto& [key, l] : lines_) {
            if (!l.visible || l.under != under || l.px.size() < 2) continue;
            // Only the segments over the exposed strip, from a few pixels before it: where a
            // polyline starts (its cap, its first pixel) lies outside what this paint shows.
            const double m = penWidth(l.pen) + 3;
            const qsizetype a = plotpx::firstAt(l.px, strip.left() - m);
            const qsizetype b = plotpx::pastAt(l.px, strip.right() + m);
            if (b - a >= 2) drawStrip(painter, l, a, b);
        }
    painter->restore();
}

}  // namespace ade::ui
