#pragma once
// Per-curve state of QtChartPanel: its pen, its smoothing and decimation caches and the running
// y range, plus small axis helpers. Internal to the Qt Charts implementation.
#include <QPen>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "charts/Decimate.h"

namespace ade::ui::qtcharts {

struct SeriesEntry {
    // The curve, drawn by the chart's LineLayer under `key` (the entry's key), with this pen.
    QString key;
    QString name;  // as in the legend
    QPen pen;
    bool visible = true;
    int runId = 0;
    std::string column;
    bool raw = false;
    std::vector<double> ema;
    std::vector<double> symRaw, symEma;  // symmetric-log transforms of the raw curve and the EMA
    EmaState emaState;
    double emaWeight = -1;
    DecimateCache decimation;
    // Running y range of the raw column (auto ranges use the whole history).
    std::size_t rangeScanned = 0;
    RecordSpans rangeRescan;  // scanned records that changed since (a group's mean)
    bool rangeAny = false, rangePositive = false;
    double rangeLo = 0, rangeHi = 0;
    // A group's mean curve (runId < 0): the band between the seeds' min and max, under every
    // line, drawn by the chart's BandLayer under `key`; its decimation caches,
    // symmetric-log transforms and running range.
    bool band = false;
    DecimateCache loCache, hiCache;
    std::vector<double> symLo, symHi;
    std::size_t bandScanned = 0;
    RecordSpans bandRescan;
    bool bandAny = false;
    double bandMin = 0, bandMax = 0;
};

// A running range's scan: the records already scanned that changed since (`rescan`; a range
// that only widens keeps the old values in it), then the new ones up to `n`.
template <class Scan>
void scanChangedThenNew(RecordSpans& rescan, std::size_t& scanned, std::size_t n, Scan scan) {
    for (const auto& [a, b] : rescan)
        if (a < scanned) scan(a, std::min(b, scanned));
    rescan.clear();
    scan(scanned, n);
    scanned = n;
}

// Extends the band's running range over the new records of lo and hi (positive values only
// for log axes).
inline bool updateBandRange(SeriesEntry& e, const std::vector<double>& lo,
                            const std::vector<double>& hi, bool logY) {
    const std::size_t n = std::min(lo.size(), hi.size());
    if (e.bandScanned > n) e.bandScanned = 0, e.bandAny = false, e.bandRescan.clear();
    auto scan = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            for (double v : {lo[i], hi[i]}) {
                if (!std::isfinite(v) || (logY && v <= 0)) continue;
                e.bandMin = e.bandAny ? std::min(e.bandMin, v) : v;
                e.bandMax = e.bandAny ? std::max(e.bandMax, v) : v;
                e.bandAny = true;
            }
    };
    scanChangedThenNew(e.bandRescan, e.bandScanned, n, scan);
    return e.bandAny;
}

inline double axisMin(QAbstractAxis* a) {
    if (auto* v = qobject_cast<QValueAxis*>(a)) return v->min();
    return static_cast<QLogValueAxis*>(a)->min();
}
inline double axisMax(QAbstractAxis* a) {
    if (auto* v = qobject_cast<QValueAxis*>(a)) return v->max();
    return static_cast<QLogValueAxis*>(a)->max();
}

// Sets the axis range only when it moved: every setRange() lays the axis out again, and the
// chart's curves and bands are mapped again and repainted, so an unchanged range costs nothing.
inline void setAxisRange(QAbstractAxis* a, double lo, double hi) {
    if (axisMin(a) == lo && axisMax(a) == hi) return;
    if (auto* v = qobject_cast<QValueAxis*>(a))
        v->setRange(lo, hi);
    else
        static_cast<QLogValueAxis*>(a)->setRange(lo, hi);
}

// 1, 2 or 5 times a power of ten, rounded up (ceiling) or to the nearest; as Qt Charts does.
inline double niceNumber(double x, bool ceiling) {
    const double z = std::pow(10.0, std::floor(std::log10(x)));
    const double q = x / z;
    double n = 10;
    if (ceiling)
        n = q <= 1.0 ? 1 : q <= 2.0 ? 2 : q <= 5.0 ? 5 : 10;
    else
        n = q < 1.5 ? 1 : q < 3.0 ? 2 : q < 7.0 ? 5 : 10;
    return n * z;
}

// QValueAxis::applyNiceNumbers() without touching the axis: widens [lo, hi] to multiples of a
// 1-2-5 step for about `ticks` ticks; `ticks` becomes the tick count of the widened range.
inline void looseNiceNumbers(double& lo, double& hi, int& ticks) {
    if (!(hi > lo) || !std::isfinite(hi - lo)) return;
    const double range = niceNumber(hi - lo, true);
    const double step = niceNumber(range / std::max(1, ticks - 1), false);
    const double a = std::floor(lo / step), b = std::ceil(hi / step);
    ticks = static_cast<int>(b - a) + 1;
    lo = a * step;
    hi = b * step;
}

// Extends the running y range of `e` over the new records of `y` (positive values only for log
// axes); false while it holds no value.
inline bool updateRange(SeriesEntry& e, const std::vector<double>& y, bool logY) {
    if (e.rangePositive != logY || e.rangeScanned > y.size()) {
        e.rangeScanned = 0;
        e.rangeAny = false;
        e.rangePositive = logY;
        e.rangeRescan.clear();
    }
    auto scan = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            const double v = y[i];
            if (!std::isfinite(v) || (e.rangePositive && v <= 0)) continue;
            e.rangeLo = e.rangeAny ? std::min(e.rangeLo, v) : v;
            e.rangeHi = e.rangeAny ? std::max(e.rangeHi, v) : v;
            e.rangeAny = true;
        }
    };
    scanChangedThenNew(e.rangeRescan, e.rangeScanned, y.size(), scan);
    return e.rangeAny;
}

}  // namespace ade::ui::qtcharts
