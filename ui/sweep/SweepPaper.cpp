// The sweep views as paper figures (PGFPlots, matplotlib; SweepChart::exportTo): the one-key
// plot as lines of the means with bands over seeds and the fitted power laws, the heatmap as a
// heatmap of the means (Blues, log when the view's colour scale is), parallel coordinates as
// one line per config over the axes, each axis scaled from its lowest to its highest value.
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "base/Palette.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepLinePlot.h"
#include "sweep/SweepParallel.h"

namespace ade::ui {

PaperFigure SweepLinePlot::paperFigure() const {
    PaperFigure out;
    if (results_.keys.empty() || drawnCount() == 0) return out;
    FigureData d;
    d.id = QStringLiteral("sweep-one-key");
    const QString key = keyLabel(results_.keys.front());
    d.title = fits_.empty() ? tr("%1 against %2").arg(results_.metricLabel, key)
                            : tr("Scaling: %1 against %2 (log-log)").arg(results_.metricLabel, key);
    d.xLabel = key;
    d.yLabel = results_.metricLabel;
    d.logX = logX_;
    d.logY = logY_;
    std::vector<double> ys;
    for (int s = 0; s < static_cast<int>(series_.size()); ++s) {
        const std::vector<int> idx = seriesConfigs(s);
        FigureCurve c;
        c.run = series_[s];
        c.color = paletteColor(s);
        c.style = runPenStyle(s);
        c.marker = 1;  // the configs' means are points of the line
        bool seeds = false;
        for (int i : idx) {
            const auto& r = results_.configs[i];
            c.x.push_back(xOf(i));
            c.y.push_back(r.mean);
            // The band: ± sd, or min–max of the seeds where mean − sd has no logarithm.
            double lo = r.mean, hi = r.mean;
            if (r.perSeed.size() >= 2 && std::isfinite(r.sd)) {
                seeds = true;
                lo = r.mean - r.sd, hi = r.mean + r.sd;
                if (logY_ && !(lo > 0)) lo = *std::min_element(r.perSeed.begin(), r.perSeed.end());
            }
            c.lo.push_back(lo);
            c.hi.push_back(hi);
            ys.push_back(lo), ys.push_back(hi), ys.push_back(r.mean);
        }
        if (!seeds) c.lo.clear(), c.hi.clear();
        d.bands = d.bands || seeds;
        d.curves.push_back(std::move(c));
    }
    SweepScale x = SweepScale::fit(xs_, logX_, numeric_ ? 0.06 : 0.0);
    if (!numeric_) {
        x.lo = -0.5, x.hi = std::max<double>(0.5, categories_.size() - 0.5);
        for (int k = 0; k < categories_.size(); ++k)
            d.xTicks.push_back({double(k), categories_[k]});
    }
    const SweepScale y = SweepScale::fit(ys, logY_, 0.08);
    d.x0 = x.lo, d.x1 = x.hi, d.y0 = y.lo, d.y1 = y.hi;
    for (std::size_t k = 0; k < fits_.size(); ++k) {  // the fitted power laws, dashed
        const Fit& f = fits_[k];
        FigureCurve c;
        c.run = tr("fit %1: slope %2, R² %3").arg(f.series).arg(f.slope, 0, 'f', 3).arg(f.r2, 0, 'f', 3);
        c.color = paletteColor(static_cast<int>(k));
        c.style = Qt::DashLine;
        for (int i = 0; i <= 20; ++i) {
            const double xv = x.lo * std::pow(x.hi / x.lo, i / 20.0);
            c.x.push_back(xv);
            c.y.push_back(std::exp(f.intercept + f.slope * std::log(xv)));
        }
        d.curves.push_back(std::move(c));
    }
    d.bandNote = tr("points: mean over seeds; bands: ± sd");
    out.lines = std::move(d);
    return out;
}

PaperFigure SweepHeatmap::paperFigure() const {
    PaperFigure out;
    if (cols_.isEmpty() || rows_.isEmpty() || drawnCount() == 0) return out;
    HeatmapFigure f;
    f.id = QStringLiteral("sweep-heatmap");
    HeatmapPanel p;
    p.title = tr("%1: mean over seeds").arg(results_.metricLabel);
    p.rows = static_cast<int>(rows_.size());
    p.cols = static_cast<int>(cols_.size());
    for (int r = 0; r < p.rows; ++r)
        for (int c = 0; c < p.cols; ++c) {
            const int i = cell(c, r);
            p.values.push_back(i >= 0 ? results_.configs[i].mean : NAN);
        }
    p.xCategories = cols_;
    p.yCategories = rows_;
    p.xLabel = keyLabel(results_.keys[0]);
    p.yLabel = keyLabel(results_.keys[1]);
    p.yDown = false;
    p.colours = HeatmapColours::Sequential;
    p.logColour = log_ && lo_ > 0;
    p.lo = lo_;
    p.hi = hi_ > lo_ ? hi_ : lo_ * 1.1 + 1e-12;
    p.colourLabel = results_.metricLabel;  // words, not a column name ("test_loss" read test\textsubscript{l}oss)
    f.panels.push_back(std::move(p));
    out.maps = std::move(f);
    return out;
}

PaperFigure SweepParallel::paperFigure() const {
    PaperFigure out;
    if (results_.configs.empty()) return out;
    const auto ax = axes(QRectF(0, 0, 1, 1));
    const int n = static_cast<int>(ax.size());
    const QRectF plot(0, 0, std::max(1, n - 1), 1);  // x: the axis' index; y: 1 − fraction
    FigureData d;
    d.id = QStringLiteral("sweep-parallel");
    d.title = tr("%1 over %2 keys").arg(results_.metricLabel).arg(results_.keys.size());
    d.yLabel = tr("scaled: lowest 0, highest 1");
    for (int k = 0; k < n; ++k)
        d.xTicks.push_back({double(k), ax[k].title});
    std::vector<int> order(results_.configs.size());
    for (int i = 0; i < static_cast<int>(order.size()); ++i)
        order[i] = i;
    const int best = results_.best();
    auto rank = [&](int i) {
        const double g = goodness(i);
        return i == best ? 2.0 : std::isfinite(g) ? g : -1.0;
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rank(a) < rank(b); });
    for (int i : order) {  // worst first: the good ones on top, the best last
        FigureCurve c;
        const auto& r = results_.configs[i];
        QStringList values;
        for (const auto& kv : r.values)
            values << QString::fromStdString(kv.first + "=" + kv.second);
        c.run = values.join(QStringLiteral(", "));
        c.legend = i == best;
        if (i == best) c.run = tr("best: %1").arg(c.run);
        c.color = i == best ? bestColor() : goodnessColor(goodness(i));
        c.style = std::isfinite(r.mean) ? Qt::SolidLine : Qt::DashLine;
        if (results_.stateRank(i) == 3) {  // running or waiting, as on screen: green dots
            c.color = pendingTrialColor();
            c.style = Qt::DotLine;
        }
        c.width = i == best ? 2.2 : 0.8;
        for (const QPointF& pt : line(i, ax, plot)) {
            c.x.push_back(pt.x());
            c.y.push_back(1.0 - pt.y());
        }
        d.curves.push_back(std::move(c));
    }
    d.x0 = 0;
    d.x1 = std::max(1, n - 1);
    d.y0 = -0.04;
    d.y1 = 1.04;
    out.lines = std::move(d);
    return out;
}

}  // namespace ade::ui
