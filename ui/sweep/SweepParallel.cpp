#include "sweep/SweepParallel.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "base/ColorMaps.h"

namespace ade::ui {

SweepParallel::SweepParallel(QWidget* parent) : SweepChart(parent) {
    setObjectName(QStringLiteral("sweepParallel"));
}

void SweepParallel::resultsChanged() {
    std::vector<double> means;
    for (const auto& c : results_.configs)
        if (std::isfinite(c.mean)) means.push_back(c.mean);
    if (!means.empty()) {
        const auto [a, b] = std::minmax_element(means.begin(), means.end());
        lo_ = *a, hi_ = *b;
    }
    note_ = tr("one line per config; darker = better, best in vermillion");
    if (results_.optuna) {
        bool failed = false, pending = false;
        for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i) {
            failed = failed || results_.stateRank(i) == 2;
            pending = pending || results_.stateRank(i) == 3;
        }
        note_ = tr("one line per trial; darker = better, best in vermillion");
        if (failed) note_ += tr("; failed: grey dashes");
        if (pending) note_ += tr("; running or waiting: green dots");
    }
}

double SweepParallel::goodness(int index) const {
    const double m = results_.configs[index].mean;
    if (!std::isfinite(m)) return NAN;
    if (!(hi_ > lo_)) return 1.0;
    const double t = (m - lo_) / (hi_ - lo_);
    return results_.lowerIsBetter ? 1.0 - t : t;
}

QRectF SweepParallel::plotRect(const QRectF& area, const QFontMetricsF& fm) const {
    // Axis titles on two lines above, tick labels left of each axis.
    // The rightmost axis's title (the metric) is centred on it: room for its half.
    const double tick = fm.horizontalAdvance(QStringLiteral("0.000e-00")) + 10;
    const double half = std::min(fm.horizontalAdvance(results_.metricLabel) * 0.55 + 8,
                                 area.width() * 0.15);
    return QRectF(QPointF(area.left() + tick + 8, area.top() + 2 * fm.height() + 10),
                  QPointF(area.right() - std::max(40.0, half), area.bottom() - fm.height() - 10));
}

std::vector<SweepParallel::Axis> SweepParallel::axes(const QRectF& plot) const {
    std::vector<Axis> out;
    for (const auto& key : results_.keys) {
        Axis a;
        a.title = keyLabel(key);
        if (results_.numeric(key)) {
            std::vector<double> v;
            for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i)
                v.push_back(*results_.number(i, key));
            a.scale = SweepScale::fit(v, chooseAxis(v, {}).log, 0.04);
            std::sort(v.begin(), v.end());
            v.erase(std::unique(v.begin(), v.end()), v.end());
            if (v.size() <= 8) a.marks = v;
        } else {
            a.categories = results_.distinct(key);
            a.scale.lo = -0.5, a.scale.hi = std::max<double>(0.5, a.categories.size() - 0.5);
        }
        out.push_back(a);
    }
    Axis m;
    m.title = results_.metricLabel;
    std::vector<double> v;
    for (const auto& c : results_.configs)
        if (std::isfinite(c.mean)) v.push_back(c.mean);
    m.scale = SweepScale::fit(v, chooseAxis(v, {}).log, 0.04);
    out.push_back(m);
    const int n = static_cast<int>(out.size());
    for (int k = 0; k < n; ++k) {
        out[k].scale.p0 = plot.bottom(), out[k].scale.p1 = plot.top();
    }
    return out;
}

QPolygonF SweepParallel::line(int index, const std::vector<Axis>& ax, const QRectF& plot) const {
    QPolygonF poly;
    const int n = static_cast<int>(ax.size());
    for (int k = 0; k < n; ++k) {
        const double x = plot.left() + plot.width() * k / std::max(1, n - 1);
        double y;
        if (k + 1 == n) {
            const double m = results_.configs[index].mean;
            if (!std::isfinite(m)) break;
            y = ax[k].scale.map(m);
        } else if (!ax[k].categories.isEmpty()) {
            y = ax[k].scale.map(ax[k].categories.indexOf(results_.text(index, results_.keys[k])));
        } else {
            y = ax[k].scale.map(results_.number(index, results_.keys[k]).value_or(NAN));
        }
        poly << QPointF(x, y);
    }
    return poly;
}

QPolygonF SweepParallel::polyline(int index, const QRectF& area) const {
    QImage scratch(1, 1, QImage::Format_ARGB32);
    QPainter p(&scratch);
    const QRectF rest = drawTitle(p, area, QString());
    p.setFont(chartFont());
    const QRectF plot = plotRect(rest, QFontMetricsF(p.font()));
    return line(index, axes(plot), plot);
}

void SweepParallel::paintChart(QPainter& p, const QRectF& area) const {
    const QRectF rest = drawTitle(
        p, area, tr("%1 over %2 keys (parallel coordinates)")
                     .arg(results_.metricLabel)
                     .arg(results_.keys.size()));
    if (results_.configs.empty()) {
        drawEmpty(p, rest, tr("No finished runs yet: lines appear as configs finish."));
        return;
    }
    p.setFont(chartFont());
    const QFontMetricsF fm(p.font());
    const QRectF plot = plotRect(rest, fm);
    const auto ax = axes(plot);
    const int n = static_cast<int>(ax.size());
    // Worst first, best last (on top); unfinished ones underneath all.
    std::vector<int> order(results_.configs.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [this](int a, int b) {
        const double ga = goodness(a), gb = goodness(b);
        if (std::isfinite(ga) != std::isfinite(gb)) return !std::isfinite(ga);
        return ga < gb;
    });
    const int best = results_.best();
    for (int i : order) {
        const QPolygonF poly = line(i, ax, plot);
        QPen pen = linePen(i);
        if (i == hovered_ || i == selected_) pen.setWidthF(pen.widthF() + 2);
        if (i == selected_ && i != best) pen.setColor(Qt::black);
        p.setPen(pen);
        p.drawPolyline(poly);
    }
    // Axes on top of the lines.
    for (int k = 0; k < n; ++k) {
        const double x = plot.left() + plot.width() * k / std::max(1, n - 1);
        p.setPen(QPen(Qt::black, 1.2));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        double lastTop = 1e9;
        auto label = [&](double y, const QString& t) {
            if (y + fm.height() / 2 > lastTop) return;
            const double w = std::min(fm.horizontalAdvance(t), 110.0);
            p.setPen(Qt::white);  // a halo keeps the label readable over the lines
            const QRectF r(x - 6 - w, y - fm.height() / 2, w, fm.height());
            p.fillRect(r.adjusted(-1, 0, 1, 0), QColor(255, 255, 255, 210));
            p.setPen(Qt::black);
            p.drawText(r, Qt::AlignRight | Qt::AlignVCenter,
                       fm.elidedText(t, Qt::ElideRight, w));
            p.drawLine(QPointF(x - 4, y), QPointF(x, y));
            lastTop = y - fm.height() / 2;
        };
        if (!ax[k].categories.isEmpty()) {
            for (int c = 0; c < ax[k].categories.size(); ++c)
                label(ax[k].scale.map(c), ax[k].categories[c]);
        } else if (!ax[k].marks.empty()) {
            for (double v : ax[k].marks)
                label(ax[k].scale.map(v), formatValue(v));
        } else {
            for (double v : ax[k].scale.ticks(std::max(2, static_cast<int>(plot.height() / 55))))
                label(ax[k].scale.map(v), formatValue(v));
        }
        const double slot = plot.width() / std::max(1, n - 1);
        const QRectF titleRect(x - slot / 2, rest.top(), slot, 2 * fm.height() + 4);
        p.setPen(Qt::black);
        QFont bold = p.font();
        bold.setBold(k + 1 == n);
        p.setFont(bold);
        p.drawText(titleRect.adjusted(2, 0, -2, 0),
                   Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, ax[k].title);
        p.setFont(chartFont());
    }
}

QColor pendingTrialColor() {
    return QColor(0x00, 0x9e, 0x73);  // Okabe & Ito's bluish green
}

QPen SweepParallel::linePen(int index) const {
    if (index == results_.best()) return QPen(bestColor(), 3.5);
    if (results_.stateRank(index) == 3)  // an Optuna trial running or waiting: no value yet
        return QPen(pendingTrialColor(), 1.6, Qt::DotLine);
    const double g = goodness(index);
    if (!std::isfinite(g)) return QPen(QColor(0xa0, 0xa0, 0xa0), 1.6, Qt::DashLine);
    return QPen(goodnessColor(g), 1.6);
}

int SweepParallel::configAt(const QPointF& pos, const QRectF& area) const {
    int found = -1;
    double bestD = 7.0;
    for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i) {
        const QPolygonF poly = polyline(i, area);
        for (int k = 0; k + 1 < poly.size(); ++k) {
            const QPointF a = poly[k], b = poly[k + 1], ab = b - a, ap = pos - a;
            const double len2 = QPointF::dotProduct(ab, ab);
            const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(ap, ab) / len2, 0.0, 1.0)
                                      : 0.0;
            const QPointF d = pos - (a + t * ab);
            const double dist = std::sqrt(QPointF::dotProduct(d, d));
            if (dist < bestD) bestD = dist, found = i;
        }
    }
    return found;
}

}  // namespace ade::ui
