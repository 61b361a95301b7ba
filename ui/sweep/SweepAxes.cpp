#include "sweep/SweepAxes.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "base/ColorMaps.h"

namespace ade::ui {

SweepScale SweepScale::fit(const std::vector<double>& values, bool log, double pad) {
    SweepScale s;
    s.log = log;
    double lo = INFINITY, hi = -INFINITY;
    for (double v : values)
        if (std::isfinite(v) && (!log || v > 0)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (!std::isfinite(lo)) {
        s.lo = log ? 1 : 0, s.hi = log ? 10 : 1;
        return s;
    }
    if (log) {
        double a = std::log10(lo), b = std::log10(hi);
        if (b - a < 1e-9) a -= 0.5, b += 0.5;
        const double d = (b - a) * pad;
        s.lo = std::pow(10.0, a - d), s.hi = std::pow(10.0, b + d);
    } else {
        if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
            const double w = lo == 0 ? 1.0 : std::abs(lo) * 0.5;
            lo -= w, hi += w;
        }
        const double d = (hi - lo) * pad;
        s.lo = lo - d, s.hi = hi + d;
    }
    return s;
}

double SweepScale::map(double v) const {
    const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                         : (v - lo) / (hi - lo);
    return p0 + t * (p1 - p0);
}

double SweepScale::unmap(double p) const {
    const double t = (p - p0) / (p1 - p0);
    return log ? std::pow(10.0, std::log10(lo) + t * (std::log10(hi) - std::log10(lo)))
               : lo + t * (hi - lo);
}

std::vector<double> SweepScale::ticks(int count) const {
    if (!log) return niceTicks(lo, hi, count);
    std::vector<double> out;
    const double a = std::log10(lo), b = std::log10(hi);
    const int d0 = static_cast<int>(std::floor(a)), d1 = static_cast<int>(std::ceil(b));
    // Few decades: 1, 2, 5 of each; many: every decade (or every other).
    const std::vector<double> mult =
        (b - a) < 1.2 ? std::vector<double>{1, 2, 5} : std::vector<double>{1};
    const int every = (d1 - d0) > 8 ? 2 : 1;
    for (int d = d0; d <= d1; ++d) {
        if ((d - d0) % every) continue;
        for (double m : mult) {
            const double v = m * std::pow(10.0, d);
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
        }
    }
    if (out.size() < 2) return niceTicks(lo, hi, count);  // under a decade: linear ticks read
    return out;
}

QString tickText(double v) {
    return formatValue(v);
}

void drawXAxis(QPainter& p, const QRectF& plot, const SweepScale& s, const QString& title,
               const std::vector<double>& marks) {
    const QFontMetricsF fm(p.font());
    p.setPen(QPen(Qt::black, 1));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    double lastRight = -1e9;
    const std::vector<double> at =
        marks.empty() ? s.ticks(std::max(2, static_cast<int>(plot.width() / 90))) : marks;
    for (double v : at) {
        const double x = s.map(v);
        if (x < plot.left() - 0.5 || x > plot.right() + 0.5) continue;
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        const QString t = tickText(v);
        const double w = fm.horizontalAdvance(t);
        if (x - w / 2 < lastRight + 6) continue;  // never overlapping labels
        p.drawText(QPointF(x - w / 2, plot.bottom() + 6 + fm.ascent()), t);
        lastRight = x + w / 2;
    }
    if (!title.isEmpty())
        p.drawText(QRectF(plot.left(), plot.bottom() + 8 + fm.height(), plot.width(), fm.height()),
                   Qt::AlignHCenter, fm.elidedText(title, Qt::ElideRight, plot.width()));
}

void drawYAxis(QPainter& p, const QRectF& plot, const SweepScale& s, const QString& title) {
    const QFontMetricsF fm(p.font());
    p.setPen(QPen(Qt::black, 1));
    p.drawLine(plot.topLeft(), plot.bottomLeft());
    double lastTop = 1e9;
    double widest = 0;
    for (double v : s.ticks(std::max(2, static_cast<int>(plot.height() / 60)))) {
        const double y = s.map(v);
        if (y < plot.top() - 0.5 || y > plot.bottom() + 0.5) continue;
        p.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y));
        if (y + fm.height() / 2 > lastTop - 2) continue;
        const QString t = tickText(v);
        const double w = fm.horizontalAdvance(t);
        widest = std::max(widest, w);
        p.drawText(QPointF(plot.left() - 7 - w, y + fm.ascent() / 2 - 1), t);
        lastTop = y - fm.height() / 2;
    }
    if (title.isEmpty()) return;
    p.save();
    p.translate(plot.left() - 14 - widest - fm.descent(), plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -fm.ascent(), plot.height(), fm.height()),
               Qt::AlignHCenter, fm.elidedText(title, Qt::ElideRight, plot.height()));
    p.restore();
}

void drawGrid(QPainter& p, const QRectF& plot, const SweepScale& x, const SweepScale& y,
              const std::vector<double>& xMarks) {
    p.setPen(QPen(QColor(0xe4, 0xe4, 0xe4), 1));
    const std::vector<double> at =
        xMarks.empty() ? x.ticks(std::max(2, static_cast<int>(plot.width() / 90))) : xMarks;
    for (double v : at) {
        const double px = x.map(v);
        if (px > plot.left() + 0.5 && px < plot.right() - 0.5)
            p.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
    }
    for (double v : y.ticks(std::max(2, static_cast<int>(plot.height() / 60)))) {
        const double py = y.map(v);
        if (py > plot.top() + 0.5 && py < plot.bottom() - 0.5)
            p.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
    }
}

}  // namespace ade::ui
