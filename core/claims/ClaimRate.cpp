// A claim of kind "rate": the geometric contraction factor of a run's gap to its limit, per
// iteration and per data pass, alone or against another run's (claims/ClaimRate.h).
#include "claims/ClaimRate.h"

#include <cmath>
#include <map>

#include "claims/ClaimStats.h"

namespace ade {

GeometricRate geometricRate(const HistoryView& h, int column, const std::string& by,
                            double tol) {
    GeometricRate out;
    const int xc = h.column(by);
    if (column < 0 || xc < 0 || h.size() < 3) return out;
    const int col = column, xcol = xc;
    const std::size_t n = h.size(), tail = std::max<std::size_t>(1, n / 10);
    double limit = 0;
    for (std::size_t i = n - tail; i < n; ++i)
        limit += h.at(i, col);
    limit /= static_cast<double>(tail);
    out.limit = limit;
    const double g0 = h.at(0, col) - limit;
    if (!(g0 > 0) || !std::isfinite(g0)) return out;  // starts at (or below) its limit
    const double low = tol * std::fabs(limit), high = 0.5 * g0;
    std::size_t first = 0;
    while (first < n && h.at(first, col) - limit > high) ++first;
    std::vector<double> x, y;
    for (std::size_t i = first; i < n; ++i) {
        const double g = h.at(i, col) - limit;
        if (!(g > low) || !std::isfinite(g)) break;  // the phase ends where the limit's scale begins
        x.push_back(h.at(i, xcol));
        y.push_back(std::log(g));
    }
    if (x.size() < 3 || x.back() <= x.front()) return out;
    const LineFit f = fitLine(x, y);
    out.factor = std::exp(f.slope);
    out.ci95 = f.ci95;
    out.r2 = f.r2;
    out.points = f.points;
    return out;
}

namespace {

// "0.972 (95% CI 0.961 to 0.983 over 3 seeds)" for factors; one seed: the number alone.
std::string factorText(const std::vector<double>& factors) {
    const SeedSummary s = summariseSeeds(factors);
    if (s.finite == 0) return "undefined";
    std::string t = claimNumber(s.mean);
    if (s.finite > 1)
        t += " (95% CI " + claimNumber(s.meanLo) + " to " + claimNumber(s.meanHi) + ", " +
             std::to_string(s.finite) + " seeds)";
    return t;
}

const char* unitOf(const std::string& by) {
    return by == "iteration" ? "iteration" : by == "data_passes" ? "data pass" : "second";
}

}  // namespace

ClaimResult evaluateRateClaim(const ClaimSpec& c,
                              const std::map<std::string, const ClaimRun*>& mine,
                              const std::map<std::string, const ClaimRun*>& other,
                              bool allFinished) {
    ClaimResult res;
    auto unavailable = [&](const std::string& why) {
        res.status = ClaimStatus::Unavailable;
        res.detail = res.measured = why;
        return res;
    };
    const bool paired = !c.other.empty();
    // The judged count (`by`) and the other one beside it: per iteration and per data pass.
    const std::string beside = c.by == "iteration" ? "data_passes" : "iteration";
    std::vector<double> values, runF, otherF, runB, otherB;
    int inRange = 0, undefinedSeeds = 0;
    for (const auto& [key, r] : mine) {
        const HistoryView& h = r->history;
        if (h.empty()) continue;  // no record yet: waiting, not missing
        const int col = h.column(c.metric);
        if (col < 0) return unavailable("no metric '" + c.metric + "' in run '" + c.run + "'");
        if (h.column(c.by) < 0)
            return unavailable("no column " + c.by + " in run '" + c.run + "'");
        const GeometricRate a = geometricRate(h, col, c.by, c.tol);
        const GeometricRate a2 = geometricRate(h, col, beside, c.tol);
        double value = a.factor;
        if (paired) {
            const auto it = other.find(key);
            if (it == other.end() || it->second->history.empty()) continue;
            const HistoryView& oh = it->second->history;
            const int ocol = oh.column(c.metric);
            if (ocol < 0) return unavailable("no metric '" + c.metric + "' in run '" + c.other + "'");
            const GeometricRate b = geometricRate(oh, ocol, c.by, c.tol);
            const GeometricRate b2 = geometricRate(oh, ocol, beside, c.tol);
            otherF.push_back(b.factor);
            otherB.push_back(b2.factor);
            // How many times faster the gap of `run` contracts: ln ρ_run / ln ρ_other.
            value = std::log(a.factor) / std::log(b.factor);
        }
        runF.push_back(a.factor);
        runB.push_back(a2.factor);
        if (!std::isfinite(value)) ++undefinedSeeds;
        inRange += inClaimRange(c, value);
        values.push_back(value);
    }
    if (values.empty()) {
        res.status = ClaimStatus::Pending;
        res.detail = res.measured = "waiting for data";
        return res;
    }
    res.seeds = static_cast<int>(values.size());
    res.seedsInRange = inRange;
    const SeedSummary sum = summariseSeeds(values);
    applySummary(sum, res);
    const std::string unit = unitOf(c.by), unit2 = unitOf(beside);
    std::string text = paired ? "times faster contraction per " + unit + " " : "contraction per " + unit + " ";
    text += claimNumber(res.value);
    if (res.seeds > 1)
        text += " ± " + claimNumber(res.sd) + " (" + std::to_string(res.seeds) + " seeds, " +
                claimNumber(res.lo) + " to " + claimNumber(res.hi) +
                (std::isfinite(res.meanLo) ? "; the mean's 95% CI " + claimNumber(res.meanLo) +
                                                 " to " + claimNumber(res.meanHi)
                                           : std::string()) +
                ")";
    if (undefinedSeeds > 0)
        text += " (" + std::to_string(undefinedSeeds) +
                " undefined: fewer than three records between half the start's gap and " +
                claimNumber(c.tol * 100) + "% of the limit)";
    text += "; " + claimRange(c);
    if (paired) {
        text += "; gap contraction per " + unit + ": " + c.run + " " + factorText(runF) + ", " +
                c.other + " " + factorText(otherF) + "; per " + unit2 + ": " + c.run + " " +
                factorText(runB) + ", " + c.other + " " + factorText(otherB);
    } else {
        text += "; per " + unit2 + " " + factorText(runB);
    }
    text += " (gap: " + c.metric + " above the run's own limit, fitted from half its start to " +
            claimNumber(c.tol * 100) + "% of the limit)";
    if (inRange < res.seeds && res.seeds > 1)
        text += "; " + std::to_string(inRange) + "/" + std::to_string(res.seeds) + " seeds in range";
    return judgeClaim(c, res, allFinished, 1, "", text);
}

}  // namespace ade
