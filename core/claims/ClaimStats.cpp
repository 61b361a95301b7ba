#include "claims/ClaimStats.h"

#include <algorithm>
#include <cmath>

namespace ade {

SeedSummary summariseSeeds(const std::vector<double>& values) {
    SeedSummary s;
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (double v : values) {
        if (!std::isfinite(v)) continue;
        sum += v, ++s.finite;
        lo = std::min(lo, v), hi = std::max(hi, v);
    }
    if (s.finite == 0) return s;
    s.mean = sum / s.finite;
    s.min = lo, s.max = hi;
    double ss = 0;
    for (double v : values)
        if (std::isfinite(v)) ss += (v - s.mean) * (v - s.mean);
    if (s.finite > 1) {
        s.sd = std::sqrt(ss / (s.finite - 1));
        const double half = studentT975(s.finite - 1) * s.sd / std::sqrt(double(s.finite));
        s.meanLo = s.mean - half;
        s.meanHi = s.mean + half;
    }
    // The geometric mean: only where every seed's number is a finite positive ratio (one seed
    // at 0, e.g. a run that never reaches a target, leaves it undefined).
    const bool positive = s.finite > 1 && s.finite == static_cast<int>(values.size()) &&
                          std::all_of(values.begin(), values.end(), [](double v) { return v > 0; });
    if (positive) {
        double lsum = 0, lss = 0;
        for (double v : values) lsum += std::log(v);
        const double lmean = lsum / s.finite;
        for (double v : values) lss += (std::log(v) - lmean) * (std::log(v) - lmean);
        const double half =
            studentT975(s.finite - 1) * std::sqrt(lss / (s.finite - 1)) / std::sqrt(double(s.finite));
        s.geoMean = std::exp(lmean);
        s.geoLo = std::exp(lmean - half);
        s.geoHi = std::exp(lmean + half);
    }
    return s;
}

void applySummary(const SeedSummary& s, ClaimResult& res) {
    res.value = s.mean;
    res.sd = s.sd;
    res.lo = s.min;
    res.hi = s.max;
    res.meanLo = s.meanLo;
    res.meanHi = s.meanHi;
    res.geoMean = s.geoMean;
    res.geoLo = s.geoLo;
    res.geoHi = s.geoHi;
}

double studentT975(int df) {
    static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                   2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                   2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                   2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1) return NAN;
    if (df <= 30) return table[df - 1];
    return 1.95996 + 2.4 / df;  // within 0.002 of the exact quantile above 30 df
}

LineFit fitLine(const std::vector<double>& x, const std::vector<double>& y) {
    LineFit f;
    const std::size_t n = std::min(x.size(), y.size());
    f.points = static_cast<int>(n);
    if (n < 2) return f;
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n; ++i)
        mx += x[i], my += y[i];
    mx /= static_cast<double>(n);
    my /= static_cast<double>(n);
    double sxx = 0, sxy = 0, syy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (!(sxx > 0)) return f;
    f.slope = sxy / sxx;
    f.intercept = my - f.slope * mx;
    f.r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1.0;
    if (n > 2) {
        const double rss = std::max(0.0, syy - f.slope * sxy);
        f.slopeSe = std::sqrt(rss / static_cast<double>(n - 2) / sxx);
        f.ci95 = studentT975(static_cast<int>(n) - 2) * f.slopeSe;
    }
    return f;
}

TrendFit fitTrend(const HistoryView& h, int column, double window) {
    TrendFit t;
    const std::size_t n = h.size();
    if (n < 3 || column < 0) return t;
    std::size_t m = static_cast<std::size_t>(std::ceil(window * static_cast<double>(n)));
    m = std::clamp<std::size_t>(m, 3, n);
    std::vector<double> x, y;
    for (std::size_t i = n - m; i < n; ++i) {
        if (!std::isfinite(h.at(i, column))) continue;
        x.push_back(h.at(i, 0));
        y.push_back(h.at(i, column));
    }
    const LineFit f = fitLine(x, y);
    t.points = f.points;
    if (x.size() < 3) return t;
    double mean = 0;
    for (double v : y)
        mean += v;
    mean /= static_cast<double>(y.size());
    t.slope = f.slope;
    t.t = f.slopeSe > 0 ? f.slope / f.slopeSe : (f.slope > 0 ? INFINITY : f.slope < 0 ? -INFINITY : 0);
    t.relativeChange = mean != 0 ? f.slope * (x.back() - x.front()) / std::fabs(mean) : 0;
    return t;
}

double floorValue(const HistoryView& h, int column) {
    const std::size_t n = h.size();
    if (n == 0 || column < 0) return NAN;
    const std::size_t tail = std::max<std::size_t>(1, n / 10);
    double sum = 0;
    for (std::size_t i = n - tail; i < n; ++i)
        sum += h.at(i, column);
    return sum / static_cast<double>(tail);
}

double floorIteration(const HistoryView& h, int column, double tol) {
    const double floor = floorValue(h, column);
    if (!std::isfinite(floor)) return NAN;
    for (std::size_t i = 0; i < h.size(); ++i)
        if (std::fabs(h.at(i, column) - floor) <= tol * std::fabs(floor)) return h.at(i, 0);
    return h.last(0);
}

}  // namespace ade
