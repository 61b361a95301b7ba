#include "sweep/SweepLinePlot.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <functional>

#include "base/Palette.h"
#include "base/ColorMaps.h"

namespace ade::ui {

namespace {

// One entry of the legend: its text and how its sample is drawn in a small box.
struct LegendItem {
    QString text;
    std::function<void(QPainter&, const QRectF&)> sample;
};

constexpr double kSample = 28;  // width of a legend sample

}  // namespace

SweepLinePlot::SweepLinePlot(QWidget* parent) : SweepChart(parent) {
    setObjectName(QStringLiteral("sweepLinePlot"));
}

std::vector<int> SweepLinePlot::seriesConfigs(int s) const {
    std::vector<int> idx;
    for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i)
        if (QString::fromStdString(results_.configs[i].label) == series_[s] &&
            std::isfinite(xOf(i)) && std::isfinite(results_.configs[i].mean))
            idx.push_back(i);
    std::sort(idx.begin(), idx.end(), [this](int a, int b) { return xOf(a) < xOf(b); });
    return idx;
}

double SweepLinePlot::xOf(int config) const {
    const std::string& key = results_.keys.front();
    if (numeric_) return results_.number(config, key).value_or(NAN);
    return categories_.indexOf(results_.text(config, key));
}

int SweepLinePlot::drawnCount() const {
    int n = 0;
    for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i)
        if (std::isfinite(xOf(i)) && std::isfinite(results_.configs[i].mean)) ++n;
    return n;
}

void SweepLinePlot::resultsChanged() {
    series_.clear();
    xs_.clear();
    categories_.clear();
    fits_.clear();
    note_.clear();
    logX_ = logY_ = false;
    if (results_.keys.empty() || results_.configs.empty()) return;
    const std::string& key = results_.keys.front();
    numeric_ = results_.numeric(key);
    if (!numeric_) categories_ = results_.distinct(key);
    for (const auto& c : results_.configs) {
        const QString s = QString::fromStdString(c.label);
        if (std::find(series_.begin(), series_.end(), s) == series_.end()) series_.push_back(s);
    }
    std::vector<double> ys;
    for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i) {
        const double x = xOf(i);
        if (std::isfinite(x) && std::find(xs_.begin(), xs_.end(), x) == xs_.end())
            xs_.push_back(x);
        for (double y : results_.configs[i].perSeed)
            if (std::isfinite(y)) ys.push_back(y);
    }
    std::sort(xs_.begin(), xs_.end());
    const QString name = keyLabel(key);
    QStringList notes;
    if (numeric_) {
        const AxisChoice ax = chooseAxis(xs_, QString::fromStdString(key));
        logX_ = ax.log;
        if (!ax.note.isEmpty()) notes << ax.note;
    }
    const AxisChoice ay = chooseAxis(ys, results_.metric);
    logY_ = ay.log;

    // The scaling-law look: asked for by the design, >= 3 points, all of them on log-log axes.
    if (results_.fit && numeric_) {
        for (const QString& s : series_) {
            std::vector<std::pair<double, double>> pts;
            bool allPositive = true;
            for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i) {
                const auto& c = results_.configs[i];
                if (QString::fromStdString(c.label) != s || !std::isfinite(c.mean)) continue;
                const double x = xOf(i);
                if (!(x > 0 && c.mean > 0)) allPositive = false;
                pts.emplace_back(std::log(x), std::log(c.mean));
            }
            if (!allPositive || pts.size() < 3) {
                notes << tr("no power-law fit for %1: it needs >= 3 points, all > 0 (has %2)")
                             .arg(s)
                             .arg(pts.size());
                fits_.clear();
                break;
            }
            double mx = 0, my = 0;
            for (const auto& [a, b] : pts)
                mx += a, my += b;
            mx /= pts.size(), my /= pts.size();
            double sxx = 0, sxy = 0, syy = 0;
            for (const auto& [a, b] : pts)
                sxx += (a - mx) * (a - mx), sxy += (a - mx) * (b - my), syy += (b - my) * (b - my);
            if (!(sxx > 0)) break;
            Fit f;
            f.series = s;
            f.slope = sxy / sxx;
            f.intercept = my - f.slope * mx;
            f.r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1.0;
            f.points = static_cast<int>(pts.size());
            fits_.push_back(f);
        }
        if (fits_.size() != series_.size()) fits_.clear();
        if (!fits_.empty()) logX_ = logY_ = true;
    }
    if (!logY_ && !ay.note.isEmpty() && !ys.empty()) notes << tr("linear y");
    note_ = notes.join(QStringLiteral("; "));
}

SweepLinePlot::Layout SweepLinePlot::layout(const QRectF& area, const QFontMetricsF& fm) const {
    Layout l;
    // Legend rows under the x axis: as many as the items need at this width.
    const int items = static_cast<int>(series_.size()) + 3 + (fits_.empty() ? 0 : 2);
    const double itemWidth = 260;
    const int perRow = std::max(1, static_cast<int>((area.width() - 40) / itemWidth));
    const int rows = (items + perRow - 1) / perRow;
    const double legendH = rows * (fm.height() + 4) + 4;
    const double left = area.left() + fm.horizontalAdvance(QStringLiteral("0.0000e-00")) + fm.height() + 18;
    const double bottom = area.bottom() - legendH - 2 * fm.height() - 18;
    l.plot = QRectF(QPointF(left, area.top() + 8), QPointF(area.right() - 24, bottom));
    l.legend = QRectF(area.left() + 20, area.bottom() - legendH, area.width() - 40, legendH);
    std::vector<double> ys;
    for (const auto& c : results_.configs) {
        for (double y : c.perSeed)
            ys.push_back(y);
        if (std::isfinite(c.mean) && std::isfinite(c.sd) && c.perSeed.size() > 1)
            ys.push_back(c.mean + c.sd), ys.push_back(c.mean - c.sd);
    }
    l.x = SweepScale::fit(xs_, logX_, numeric_ ? 0.06 : 0.0);
    if (!numeric_) l.x.lo = -0.5, l.x.hi = std::max<double>(0.5, categories_.size() - 0.5);
    l.y = SweepScale::fit(ys, logY_, 0.08);
    l.x.p0 = l.plot.left(), l.x.p1 = l.plot.right();
    l.y.p0 = l.plot.bottom(), l.y.p1 = l.plot.top();
    return l;
}

void SweepLinePlot::paintChart(QPainter& p, const QRectF& area) const {
    const QString key = results_.keys.empty() ? QString() : keyLabel(results_.keys.front());
    const QString title =
        fits_.empty() ? tr("%1 against %2").arg(results_.metricLabel, key)
                      : tr("Scaling: %1 against %2 (log-log)").arg(results_.metricLabel, key);
    const QRectF rest = drawTitle(p, area, title);
    if (drawnCount() == 0) {
        drawEmpty(p, rest, tr("No finished runs yet: the sweep's configs appear here as their "
                              "seeds finish."));
        return;
    }
    p.setFont(chartFont());
    const QFontMetricsF fm(p.font());
    const Layout l = layout(rest, fm);
    const std::vector<double> xMarks =
        numeric_ && xs_.size() <= 10 ? xs_ : std::vector<double>{};
    drawGrid(p, l.plot, l.x, l.y, xMarks);
    p.save();
    p.setClipRect(l.plot.adjusted(-6, -6, 6, 6));
    const int best = results_.best();
    for (int s = 0; s < static_cast<int>(series_.size()); ++s) {
        const QColor colour = paletteColor(s);
        const std::vector<int> idx = seriesConfigs(s);
        // Band: ± sd, or min–max of the seeds where mean − sd has no logarithm.
        QPolygonF upper, lower;
        for (int i : idx) {
            const auto& c = results_.configs[i];
            if (c.perSeed.size() < 2) continue;
            double lo = c.mean - c.sd, hi = c.mean + c.sd;
            if (l.y.log && !(lo > 0))
                lo = *std::min_element(c.perSeed.begin(), c.perSeed.end());
            upper << QPointF(l.x.map(xOf(i)), l.y.map(hi));
            lower << QPointF(l.x.map(xOf(i)), l.y.map(lo));
        }
        if (upper.size() >= 2) {
            QPolygonF band = upper;
            for (auto it = lower.rbegin(); it != lower.rend(); ++it)
                band << *it;
            QColor fill = colour;
            fill.setAlphaF(0.18f);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawPolygon(band);
        } else if (upper.size() == 1) {  // a single config with seeds: an error bar
            p.setPen(QPen(colour, 1.5));
            p.drawLine(upper.front(), lower.front());
        }
        // The mean line (not in the scaling look, where the fit is the line).
        QPolygonF means;
        for (int i : idx)
            means << QPointF(l.x.map(xOf(i)), l.y.map(results_.configs[i].mean));
        if (fits_.empty()) {
            p.setPen(QPen(colour, 2));
            p.setBrush(Qt::NoBrush);
            p.drawPolyline(means);
        } else {
            const Fit& f = fits_[s];
            QPolygonF line;
            for (double x : {xs_.front(), xs_.back()})
                line << QPointF(l.x.map(x), l.y.map(std::exp(f.intercept + f.slope * std::log(x))));
            p.setPen(QPen(colour, 2));
            p.drawPolyline(line);
        }
        // Seeds: small open circles; means: filled dots.
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(colour, 1.2));
        for (int i : idx)
            for (double y : results_.configs[i].perSeed)
                if (std::isfinite(y) && (!l.y.log || y > 0))
                    p.drawEllipse(QPointF(l.x.map(xOf(i)), l.y.map(y)), 3, 3);
        p.setBrush(colour);
        p.setPen(QPen(Qt::white, 1));
        for (int k = 0; k < static_cast<int>(idx.size()); ++k)
            p.drawEllipse(means[k], idx[k] == hovered_ ? 6.5 : 5, idx[k] == hovered_ ? 6.5 : 5);
        for (int k = 0; k < static_cast<int>(idx.size()); ++k) {
            if (idx[k] == best || idx[k] == selected_) {
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(idx[k] == best ? bestColor() : Qt::black, 2.5,
                              idx[k] == best ? Qt::SolidLine : Qt::DashLine));
                p.drawEllipse(means[k], 10, 10);
            }
        }
    }
    // Reference slopes through the first series' first point, over the x range.
    if (!fits_.empty()) {
        int first = -1;
        for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i)
            if (QString::fromStdString(results_.configs[i].label) == series_.front() &&
                std::isfinite(results_.configs[i].mean) &&
                (first < 0 || xOf(i) < xOf(first)))
                first = i;
        const double x0 = xOf(first), y0 = results_.configs[first].mean;
        int k = 0;
        for (double slope : {-1.0, -2.0}) {
            p.setPen(QPen(QColor(0x44, 0x44, 0x44), 1.5, k++ == 0 ? Qt::DashLine : Qt::DotLine));
            p.drawLine(QPointF(l.x.map(xs_.front()),
                               l.y.map(y0 * std::pow(xs_.front() / x0, slope))),
                       QPointF(l.x.map(xs_.back()), l.y.map(y0 * std::pow(xs_.back() / x0, slope))));
        }
    }
    p.restore();
    p.setFont(chartFont());
    QString yText = results_.metricLabel + (l.y.log ? tr(" (log)") : QString());
    if (fm.horizontalAdvance(yText) > l.plot.height())
        yText = results_.shortMetricLabel() + (l.y.log ? tr(" (log)") : QString());
    drawYAxis(p, l.plot, l.y, yTitle(yText));
    if (numeric_) {
        // The swept values themselves when few (n = 32, 64, 128, 256), else round ticks.
        drawXAxis(p, l.plot, l.x, xTitle(key + (l.x.log ? tr(" (log)") : QString())),
                  xMarks);
    } else {  // categories under their points
        p.setPen(Qt::black);
        p.drawLine(l.plot.bottomLeft(), l.plot.bottomRight());
        for (int i = 0; i < categories_.size(); ++i) {
            const double x = l.x.map(i);
            p.drawText(QRectF(x - 60, l.plot.bottom() + 4, 120, fm.height()), Qt::AlignHCenter,
                       fm.elidedText(categories_[i], Qt::ElideRight, 118));
        }
        p.drawText(QRectF(l.plot.left(), l.plot.bottom() + 8 + fm.height(), l.plot.width(),
                          fm.height()),
                   Qt::AlignHCenter, key);
    }
    drawLegend(p, l.legend);
}

void SweepLinePlot::drawLegend(QPainter& p, const QRectF& r) const {
    std::vector<LegendItem> items;
    const bool seeds = std::any_of(results_.configs.begin(), results_.configs.end(),
                                   [](const ade::ConfigResult& c) { return c.perSeed.size() > 1; });
    for (int s = 0; s < static_cast<int>(series_.size()); ++s) {
        const QColor c = paletteColor(s);
        QString text = series_.size() > 1 ? series_[s] : tr("mean over seeds");
        if (!fits_.empty())
            text = tr("%1: slope %2, R² %3")
                       .arg(series_[s])
                       .arg(fits_[s].slope, 0, 'f', 2)
                       .arg(fits_[s].r2, 0, 'f', 3);
        items.push_back({text, [c](QPainter& q, const QRectF& b) {
                             q.setPen(QPen(c, 2));
                             q.drawLine(QPointF(b.left(), b.center().y()),
                                        QPointF(b.right(), b.center().y()));
                             q.setBrush(c);
                             q.setPen(QPen(Qt::white, 1));
                             q.drawEllipse(b.center(), 4.5, 4.5);
                         }});
    }
    if (seeds) {
        items.push_back({tr("± sd over seeds"), [](QPainter& q, const QRectF& b) {
                             QColor f = paletteColor(0);
                             f.setAlphaF(0.18f);
                             q.fillRect(b.adjusted(0, 3, 0, -3), f);
                         }});
        items.push_back({tr("one seed"), [](QPainter& q, const QRectF& b) {
                             q.setBrush(Qt::NoBrush);
                             q.setPen(QPen(paletteColor(0), 1.2));
                             q.drawEllipse(b.center(), 3, 3);
                         }});
    }
    items.push_back({tr("best config"), [](QPainter& q, const QRectF& b) {
                         q.setBrush(Qt::NoBrush);
                         q.setPen(QPen(bestColor(), 2.5));
                         q.drawEllipse(b.center(), 6, 6);
                     }});
    if (!fits_.empty()) {
        int k = 0;
        for (const QString& t : {tr("reference slope −1"), tr("reference slope −2")}) {
            const Qt::PenStyle style = k++ == 0 ? Qt::DashLine : Qt::DotLine;
            items.push_back({t, [style](QPainter& q, const QRectF& b) {
                                 q.setPen(QPen(QColor(0x44, 0x44, 0x44), 1.5, style));
                                 q.drawLine(QPointF(b.left(), b.center().y()),
                                            QPointF(b.right(), b.center().y()));
                             }});
        }
    }
    const QFontMetricsF fm(p.font());
    double x = r.left(), y = r.top() + 2;
    for (const auto& it : items) {
        const double w = kSample + 6 + fm.horizontalAdvance(it.text) + 18;
        if (x > r.left() && x + w > r.right()) x = r.left(), y += fm.height() + 4;
        p.save();
        it.sample(p, QRectF(x, y, kSample, fm.height()));
        p.restore();
        p.setPen(Qt::black);
        p.drawText(QPointF(x + kSample + 6, y + fm.ascent()),
                   fm.elidedText(it.text, Qt::ElideRight, r.right() - x - kSample - 6));
        x += w;
    }
}

int SweepLinePlot::configAt(const QPointF& pos, const QRectF& area) const {
    if (drawnCount() == 0) return -1;
    // The same geometry as paintChart: the title's height from the same fonts.
    QImage scratch(1, 1, QImage::Format_ARGB32);
    QPainter p(&scratch);
    const QRectF rest = drawTitle(p, area, QString());
    p.setFont(chartFont());
    const Layout l = layout(rest, QFontMetricsF(p.font()));
    int found = -1;
    double bestD = 12 * 12;
    for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i) {
        const auto& c = results_.configs[i];
        if (!std::isfinite(xOf(i)) || !std::isfinite(c.mean)) continue;
        std::vector<double> ys = c.perSeed;
        ys.push_back(c.mean);
        for (double y : ys) {
            if (!std::isfinite(y) || (l.y.log && !(y > 0))) continue;
            const QPointF d = QPointF(l.x.map(xOf(i)), l.y.map(y)) - pos;
            const double dd = d.x() * d.x() + d.y() * d.y();
            if (dd < bestD) bestD = dd, found = i;
        }
    }
    return found;
}

}  // namespace ade::ui
