#include "charts/FigureAxes.h"

#include <algorithm>
#include <cmath>

namespace ade::ui {

namespace {
// Liang–Barsky: the part of segment a→b inside rect, as parameters [t0, t1]; false when none.
bool clipSegment(const QPointF& a, const QPointF& b, const QRectF& r, double& t0, double& t1) {
    t0 = 0;
    t1 = 1;
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - r.left(), r.right() - a.x(), a.y() - r.top(), r.bottom() - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0) return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1) return false;
    }
    return true;
}
bool insideRect(const QPointF& p, const QRectF& r) {
    return p.x() >= r.left() && p.x() <= r.right() && p.y() >= r.top() && p.y() <= r.bottom();
}
}  // namespace

QList<QList<QPointF>> clipPolyline(const QList<QPointF>& points, const QRectF& rect) {
    QList<QList<QPointF>> pieces;
    QList<QPointF> current;
    auto flush = [&] {
        if (!current.isEmpty()) pieces.append(current);
        current.clear();
    };
    auto finite = [](const QPointF& p) { return std::isfinite(p.x()) && std::isfinite(p.y()); };
    if (points.size() == 1 && finite(points[0]) && insideRect(points[0], rect)) return {points};
    for (qsizetype i = 1; i < points.size(); ++i) {
        const QPointF a = points[i - 1], b = points[i];
        double t0, t1;
        if (!finite(a) || !finite(b) || !clipSegment(a, b, rect, t0, t1)) {
            flush();
            continue;
        }
        const QPointF pa = a + t0 * (b - a), pb = a + t1 * (b - a);
        if (current.isEmpty() || t0 > 0) {
            flush();
            current.append(pa);
        }
        current.append(pb);
        if (t1 < 1) flush();
    }
    flush();
    return pieces;
}

void clipBand(QList<QPointF>& lo, QList<QPointF>& hi, const QRectF& rect) {
    auto cut = [&](QList<QPointF>& pts) {
        QList<QPointF> out;
        for (qsizetype i = 0; i < pts.size(); ++i) {
            const QPointF p = pts[i];
            if (!std::isfinite(p.x()) || !std::isfinite(p.y())) continue;
            auto edge = [&](const QPointF& a, const QPointF& b, double x) {
                const double t = (x - a.x()) / (b.x() - a.x());
                return QPointF(x, a.y() + t * (b.y() - a.y()));
            };
            if (p.x() < rect.left()) {
                if (i + 1 < pts.size() && pts[i + 1].x() > rect.left()) out.append(edge(p, pts[i + 1], rect.left()));
                continue;
            }
            if (p.x() > rect.right()) {
                if (i > 0 && pts[i - 1].x() < rect.right()) out.append(edge(pts[i - 1], p, rect.right()));
                break;
            }
            out.append(p);
        }
        for (QPointF& p : out)
            p.setY(std::clamp(p.y(), rect.top(), rect.bottom()));
        pts = out;
    };
    cut(lo);
    cut(hi);
}

}  // namespace ade::ui
