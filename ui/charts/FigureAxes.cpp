#include "charts/FigureAxes.h"

#include <algorithm>
#include <cmath>

namespace ade::ui {

QString powerOfTenText(int k) {
    static const char16_t* sup[] = {u"⁰", u"¹", u"²", u"³", u"⁴", u"⁵", u"⁶", u"⁷", u"⁸", u"⁹"};
    if (k == 0) return QStringLiteral("1");
    if (k == 1) return QStringLiteral("10");
    QString s = QStringLiteral("10");
    if (k < 0) s += QString::fromUtf16(u"⁻");
    for (QChar c : QString::number(std::abs(k)))
        s += QString::fromUtf16(sup[c.digitValue()]);
    return s;
}

std::vector<Tick> logAxisTicks(double lo, double hi, int maxTicks) {
    std::vector<Tick> ticks;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return ticks;
    maxTicks = std::max(2, maxTicks);
    const double eps = 1e-9 * std::max(1.0, hi - lo);
    const int k0 = static_cast<int>(std::floor(lo)), k1 = static_cast<int>(std::ceil(hi));
    // Several decades: powers of ten, every `step`-th one.
    if (hi - lo >= 2.5) {
        const int step = std::max(1, static_cast<int>(std::ceil((hi - lo) / maxTicks)));
        for (int k = k0; k <= k1; ++k)
            if (k % step == 0 && k >= lo - eps && k <= hi + eps) ticks.push_back({double(k), powerOfTenText(k)});
        return ticks;
    }
    // A few decades: 1, 2 and 5 times the powers; if too many, the powers alone.
    std::vector<Tick> candidates;
    for (int k = k0; k <= k1; ++k)
        for (int m : {1, 2, 5}) {
            const double v = m * std::pow(10.0, k), at = std::log10(v);
            if (at >= lo - eps && at <= hi + eps)
                candidates.push_back({at, tickText(v, std::pow(10.0, k))});
        }
    if (candidates.size() >= 3 && static_cast<int>(candidates.size()) <= maxTicks) return candidates;
    if (candidates.size() >= 3 || hi - lo >= 1) {
        for (const Tick& t : candidates)
            if (std::abs(t.value - std::round(t.value)) < 1e-9) ticks.push_back(t);
        if (ticks.size() >= 2) return ticks;
    }
    // Inside a decade or so: round steps of the values themselves, placed at their logarithms.
    const double vlo = std::pow(10.0, lo), vhi = std::pow(10.0, hi);
    const double step = tickStep(vlo, vhi, std::min(maxTicks, 6));
    ticks.clear();
    for (const Tick& t : ticksWithStep(vlo, vhi, step))
        if (t.value > 0) ticks.push_back({std::log10(t.value), t.text});
    return ticks;
}

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
