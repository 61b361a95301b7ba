#pragma once
// Per-series state of QtChartPanel: the Qt series, its smoothing and decimation caches and the
// running y range, plus small axis helpers. Internal to the Qt Charts implementation.
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <cmath>
#include <string>
#include <vector>

#include "Decimate.h"

namespace ade::ui::qtcharts {

struct SeriesEntry {
    QLineSeries* series = nullptr;
    int runId = 0;
    std::string column;
    bool raw = false;
    std::vector<double> ema;
    EmaState emaState;
    double emaWeight = -1;
    DecimateCache decimation;
    // Running y range of the raw column (auto ranges use the whole history).
    std::size_t rangeScanned = 0;
    bool rangeAny = false, rangePositive = false;
    double rangeLo = 0, rangeHi = 0;
};

inline double axisMin(QAbstractAxis* a) {
    if (auto* v = qobject_cast<QValueAxis*>(a)) return v->min();
    return static_cast<QLogValueAxis*>(a)->min();
}
inline double axisMax(QAbstractAxis* a) {
    if (auto* v = qobject_cast<QValueAxis*>(a)) return v->max();
    return static_cast<QLogValueAxis*>(a)->max();
}

// Extends the running y range of `e` over the new records of `y` (positive values only for log
// axes); false while it holds no value.
inline bool updateRange(SeriesEntry& e, const std::vector<double>& y, bool logY) {
    if (e.rangePositive != logY || e.rangeScanned > y.size()) {
        e.rangeScanned = 0;
        e.rangeAny = false;
        e.rangePositive = logY;
    }
    for (std::size_t i = e.rangeScanned; i < y.size(); ++i) {
        const double v = y[i];
        if (!std::isfinite(v) || (e.rangePositive && v <= 0)) continue;
        e.rangeLo = e.rangeAny ? std::min(e.rangeLo, v) : v;
        e.rangeHi = e.rangeAny ? std::max(e.rangeHi, v) : v;
        e.rangeAny = true;
    }
    e.rangeScanned = y.size();
    return e.rangeAny;
}

}  // namespace ade::ui::qtcharts
