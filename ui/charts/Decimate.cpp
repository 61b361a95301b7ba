#include "Decimate.h"

#include <algorithm>
#include <cmath>

namespace ade::ui {

QList<QPointF> decimate(const std::vector<double>& x, const std::vector<double>& y,
                        const DecimateRequest& r) {
    QList<QPointF> out;
    const std::size_t n = std::min(x.size(), y.size());
    if (n == 0 || !(r.x1 >= r.x0)) return out;
    auto first = std::lower_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), r.x0);
    auto last = std::upper_bound(first, x.begin() + static_cast<std::ptrdiff_t>(n), r.x1);
    std::size_t b = static_cast<std::size_t>(first - x.begin());
    std::size_t e = static_cast<std::size_t>(last - x.begin());
    if (b > 0) --b;
    if (e < n) ++e;
    const int pixels = std::max(1, r.pixels);
    const double tx0 = r.logX ? std::log10(std::max(r.x0, 1e-300)) : r.x0;
    const double tx1 = r.logX ? std::log10(std::max(r.x1, 1e-300)) : r.x1;
    const double scale = tx1 > tx0 ? pixels / (tx1 - tx0) : 0.0;
    auto yv = [&](double v) { return r.logY ? std::max(v, r.yFloor) : v; };

    // Per bucket: indices of first, min, max, last; emitted in index order.
    long bucket = -1;
    std::size_t iFirst = 0, iMin = 0, iMax = 0, iLast = 0;
    bool open = false;
    auto flush = [&] {
        if (!open) return;
        std::size_t idx[4] = {iFirst, iMin, iMax, iLast};
        std::sort(idx, idx + 4);
        std::size_t prev = static_cast<std::size_t>(-1);
        for (std::size_t i : idx) {
            if (i == prev) continue;
            out.append(QPointF(x[i], yv(y[i])));
            prev = i;
        }
        open = false;
    };
    const bool few = (e - b) <= static_cast<std::size_t>(pixels) * 2;
    out.reserve(static_cast<qsizetype>(few ? e - b : static_cast<std::size_t>(pixels) * 4 + 2));
    for (std::size_t i = b; i < e; ++i) {
        if (!std::isfinite(y[i]) || !std::isfinite(x[i])) continue;
        if (r.logX && x[i] <= 0) continue;
        if (few) {
            out.append(QPointF(x[i], yv(y[i])));
            continue;
        }
        const double tx = r.logX ? std::log10(x[i]) : x[i];
        const long bk = static_cast<long>(std::floor((tx - tx0) * scale));
        if (!open || bk != bucket) {
            flush();
            bucket = bk;
            iFirst = iMin = iMax = iLast = i;
            open = true;
            continue;
        }
        if (y[i] < y[iMin]) iMin = i;
        if (y[i] > y[iMax]) iMax = i;
        iLast = i;
    }
    flush();
    return out;
}

void extendEma(const std::vector<double>& y, double weight, std::vector<double>& out,
               EmaState& state) {
    out.reserve(y.size());
    for (std::size_t i = out.size(); i < y.size(); ++i) {
        const double v = y[i];
        if (!std::isfinite(v)) {
            out.push_back(v);
            continue;
        }
        state.value = state.value * weight + (1.0 - weight) * v;
        state.weightSum = state.weightSum * weight + (1.0 - weight);
        out.push_back(state.weightSum > 0 ? state.value / state.weightSum : v);
    }
}

bool yRange(const std::vector<double>& x, const std::vector<double>& y, double x0, double x1,
            bool positiveOnly, double& lo, double& hi) {
    bool any = false;
    const std::size_t n = std::min(x.size(), y.size());
    auto first = std::lower_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), x0);
    for (std::size_t i = static_cast<std::size_t>(first - x.begin()); i < n && x[i] <= x1; ++i) {
        const double v = y[i];
        if (!std::isfinite(v) || (positiveOnly && v <= 0)) continue;
        if (!any) {
            lo = hi = v;
            any = true;
        } else {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    return any;
}

}  // namespace ade::ui
