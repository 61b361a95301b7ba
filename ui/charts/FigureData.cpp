#include "charts/FigureData.h"

#include <QObject>

#include <algorithm>
#include <cmath>

#include "base/Palette.h"
#include "charts/Decimate.h"
#include "charts/FigureRenderer.h"
#include "charts/SymLog.h"
#include "experiments/ExperimentRegistry.h"
#include "runs/RunStore.h"
#include "runs/SeedGroups.h"

namespace ade::ui {

namespace {

bool hiddenCurve(const FigureOptions& o, const RunRecord& r, const std::string& column) {
    return o.hidden.contains(QStringLiteral("m:") + QString::fromStdString(column)) ||
           o.hidden.contains(QStringLiteral("r:") + QString::number(r.id));
}

// The indices of x inside [x0, x1], plus one on each side.
std::pair<std::size_t, std::size_t> recordWindow(const std::vector<double>& x, double x0, double x1) {
    std::size_t a = 0, b = x.size();
    while (a < x.size() && x[a] < x0) ++a;
    while (b > a && x[b - 1] > x1) --b;
    return {a > 0 ? a - 1 : 0, std::min(x.size(), b + 1)};
}

std::vector<double> sliceOf(const std::vector<double>& v, std::pair<std::size_t, std::size_t> w) {
    if (w.second > v.size()) w.second = v.size();
    if (w.first >= w.second) return {};
    return {v.begin() + static_cast<std::ptrdiff_t>(w.first),
            v.begin() + static_cast<std::ptrdiff_t>(w.second)};
}

}  // namespace

bool figureData(const ChartSpec& spec, const RunStore& store, const FigureOptions& o,
                FigureData* out) {
    FigureData d;
    d.id = spec.id;
    d.title = o.title.isEmpty() ? spec.title : o.title;
    d.xLabel = o.xLabel.isEmpty() ? QObject::tr("iteration") : o.xLabel;
    d.yLabel = o.yLabel.isEmpty() ? spec.yLabel : o.yLabel;
    d.logX = o.logX;
    d.logY = o.logY;
    d.symLogY = o.symLogY && !o.logY;

    // The visible runs, the seeds of a group as their mean with the group's band (as on screen).
    const auto visible = store.visibleRuns();
    std::vector<SeedGroup> groups;
    if (o.seedBands)
        groups = seedGroups(visible);
    else
        for (const RunRecord* r : visible)
            groups.push_back({r->name, {r}});
    std::vector<GroupAggregate> aggregates(groups.size());
    double x0 = INFINITY, x1 = -INFINITY;
    std::vector<std::string> shownColumns;
    auto recordOf = [&](std::size_t g) -> const RunRecord& {
        if (!groups[g].grouped()) return groups[g].first();
        return aggregates[g].mean();
    };
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].grouped()) aggregates[g].update(groups[g].members);
        const RunRecord& r = recordOf(g);
        const int it = r.column("iteration");
        if (it < 0 || r.size() == 0) continue;
        for (const auto& c : r.columns)
            if (spec.accepts(r.config.experiment(), c) && !hiddenCurve(o, r, c)) {
                x0 = std::min(x0, r.data[it].front());
                x1 = std::max(x1, r.data[it].back());
                if (std::find(shownColumns.begin(), shownColumns.end(), c) == shownColumns.end())
                    shownColumns.push_back(c);
            }
    }
    if (shownColumns.empty()) return false;
    if (o.xMax > o.xMin) {  // the zoom window (or the range asked for) is the axis' range
        x0 = o.xMin;
        x1 = o.xMax;
    }
    if (o.logX) x0 = std::max(x0, 1.0);
    if (!(x1 > x0)) x1 = x0 + 1;
    d.x0 = x0;
    d.x1 = x1;

    const bool oneMetric = shownColumns.size() == 1;
    double y0 = INFINITY, y1 = -INFINITY;
    auto widen = [&](const std::vector<double>& x, const std::vector<double>& y) {
        std::vector<double> t = y;
        if (d.symLogY)
            for (double& v : t)
                v = symLog(v);
        double lo, hi;
        if (yRange(x, t, x0, x1, d.logY, lo, hi)) {
            y0 = std::min(y0, lo);
            y1 = std::max(y1, hi);
        }
    };
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const RunRecord& r = recordOf(g);
        const int it = r.column("iteration");
        if (it < 0) continue;
        const QString runName = groups[g].grouped() ? QObject::tr("%1 (%2 seeds)")
                                                          .arg(groups[g].label)
                                                          .arg(groups[g].members.size())
                                                    : groups[g].label;
        int metricIndex = 0;
        for (std::size_t c = 0; c < r.columns.size(); ++c) {
            if (!spec.accepts(r.config.experiment(), r.columns[c]) || hiddenCurve(o, r, r.columns[c]))
                continue;
            const auto w = recordWindow(r.data[it], x0, x1);
            FigureCurve curve;
            curve.run = runName;
            curve.notation = QString::fromStdString(
                ade::describeColumn(r.config.experiment(), r.columns[c]).label);
            curve.column = QString::fromStdString(r.columns[c]);
            curve.color = paletteColor(r.colorIndex);
            // A chart of one metric draws each run in its own line style (past the eighth
            // colour the shade alone would not tell runs apart); several metrics differ by style
            // and runs past the palette's colours also carry their marker.
            curve.style = oneMetric ? runPenStyle(r.colorIndex) : paletteStyle(metricIndex);
            curve.marker = r.colorIndex >= paletteSize() ? static_cast<int>(runMarker(r.colorIndex)) : -1;
            curve.x = sliceOf(r.data[it], w);
            if (groups[g].grouped()) {
                curve.lo = sliceOf(aggregates[g].lo(static_cast<int>(c)), w);
                curve.hi = sliceOf(aggregates[g].hi(static_cast<int>(c)), w);
                widen(curve.x, curve.lo);
                widen(curve.x, curve.hi);
                d.bands = true;
            }
            const std::vector<double> y = sliceOf(r.data[c], w);
            widen(curve.x, y);
            if (o.smoothing > 0) {
                FigureCurve raw = curve;
                raw.faint = true;
                raw.lo.clear();
                raw.hi.clear();
                raw.y = y;
                d.curves.push_back(std::move(raw));
                EmaState state;
                extendEma(r.data[c], o.smoothing, curve.y, state);  // from the first record
                curve.y = sliceOf(curve.y, w);
            } else {
                curve.y = y;
            }
            d.curves.push_back(std::move(curve));
            ++metricIndex;
        }
    }
    if (!std::isfinite(y0)) {
        y0 = d.logY ? 1e-3 : 0;
        y1 = 1;
    }
    if (d.logY) {
        y0 = std::max(y0, 1e-300);
        if (y1 <= y0) y1 = y0 * 10;
        d.y0 = std::pow(10, std::floor(std::log10(y0)));
        d.y1 = std::pow(10, std::ceil(std::log10(y1)));
        if (o.yMax > o.yMin && o.yMin > 0) d.y0 = o.yMin, d.y1 = o.yMax;  // as zoomed on screen
    } else {
        if (y1 <= y0) y1 = y0 + 1;
        const double pad = 0.05 * (y1 - y0);
        // A quantity that cannot be negative (a norm) never gets a negative axis.
        d.y0 = y0 >= 0 ? std::max(0.0, y0 - pad) : y0 - pad;
        d.y1 = y1 + pad;
        if (o.yMax > o.yMin) d.y0 = o.yMin, d.y1 = o.yMax;  // as zoomed on screen
    }
    *out = std::move(d);
    return true;
}

}  // namespace ade::ui
