// A claim of kind "law": the slope of a metric over the end of a run, divided by the rate a law
// of the run's experiment predicts from the run's config (1: the law holds; 0: the growth it
// predicts is absent), with the mean's 95% interval over seeds.
#include "claims/ClaimLaw.h"

#include <cmath>

#include "claims/ClaimStats.h"
#include "experiments/ExperimentRegistry.h"

namespace ade {

ClaimResult evaluateLawClaim(const ClaimSpec& c, const std::vector<const ClaimRun*>& runs,
                             bool allFinished) {
    ClaimResult res;
    auto unavailable = [&](const std::string& why) {
        res.status = ClaimStatus::Unavailable;
        res.detail = res.measured = why;
        return res;
    };
    std::vector<double> ratios, slopes, predicted;
    std::string formula;
    int inRange = 0;
    for (const ClaimRun* r : runs) {
        const MetricHistory& h = *r->history;
        if (h.rows.empty()) continue;  // no record yet: waiting, not missing
        const int col = h.column(c.metric);
        if (col < 0) return unavailable("no metric '" + c.metric + "' in run '" + c.run + "'");
        if (!r->config)
            return unavailable("the law needs the configuration of run '" + c.run +
                               "', which is not known here");
        const LawInfo* law = findLaw(r->config->experiment(), c.law);
        if (!law)
            return unavailable("Experiment " + r->config->experiment() + " has no law '" + c.law +
                               "'");
        std::string why;
        const double rate = law->perIteration(*r->config, &why);
        if (!std::isfinite(rate) || rate == 0)
            return unavailable("the law " + c.law + " does not apply to run '" + c.run +
                               "': " + (why.empty() ? "it predicts no rate" : why));
        formula = law->formula;
        if (h.rows.size() < 3) continue;  // a slope needs three records
        const TrendFit t = fitTrend(h, col, c.window);
        const double ratio = t.slope / rate;
        slopes.push_back(t.slope);
        predicted.push_back(rate);
        ratios.push_back(ratio);
        inRange += std::isfinite(ratio) && ratio >= c.min && ratio <= c.max;
    }
    if (ratios.empty()) {
        res.status = ClaimStatus::Pending;
        res.detail = res.measured = "waiting for data";
        return res;
    }
    const auto mean = [](const std::vector<double>& v) {
        double s = 0;
        for (double x : v)
            s += x;
        return s / static_cast<double>(v.size());
    };
    const int n = static_cast<int>(ratios.size());
    res.seeds = n;
    res.seedsInRange = inRange;
    res.value = mean(ratios);
    double ss = 0, lo = INFINITY, hi = -INFINITY;
    for (double x : ratios) {
        ss += (x - res.value) * (x - res.value);
        lo = std::min(lo, x), hi = std::max(hi, x);
    }
    res.sd = n > 1 ? std::sqrt(ss / (n - 1)) : 0;
    res.lo = lo;
    res.hi = hi;

    if (n > 1) {
        const double half = studentT975(n - 1) * res.sd / std::sqrt(static_cast<double>(n));
        res.meanLo = res.value - half;
        res.meanHi = res.value + half;
    }
    std::string text = "rate ÷ law " + claimNumber(res.value);
    if (n > 1)
        text += " ± " + claimNumber(res.sd) + " (" + std::to_string(n) + " seeds, " +
                claimNumber(lo) + " to " + claimNumber(hi) + "; the mean's 95% CI " +
                claimNumber(res.meanLo) + " to " + claimNumber(res.meanHi) + ")";
    text += "; measured " + claimNumber(mean(slopes)) + " per step over the last " +
            claimNumber(c.window * 100) + "% of the run, the law " + c.law + " predicts " +
            claimNumber(mean(predicted)) + " per step (" + formula + "); " + claimRange(c);
    if (inRange < n && n > 1)
        text += "; " + std::to_string(inRange) + "/" + std::to_string(n) + " seeds in range";
    return judgeClaim(c, res, allFinished, 1, "", text);
}

}  // namespace ade
