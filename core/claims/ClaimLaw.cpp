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
    // The law is the experiment's, looked up once; its rate is computed per run, since a sweep
    // may give the claim's runs different configs (temperatures, step sizes).
    const LawInfo* law = nullptr;
    std::vector<double> ratios, slopes, predicted;
    int inRange = 0;
    for (const ClaimRun* r : runs) {
        const HistoryView& h = r->history;
        if (h.empty()) continue;  // no record yet: waiting, not missing
        const int col = h.column(c.metric);
        if (col < 0) return unavailable("no metric '" + c.metric + "' in run '" + c.run + "'");
        if (!r->config)
            return unavailable("the law needs the configuration of run '" + c.run +
                               "', which is not known here");
        if (!law) law = findLaw(r->config->experiment(), c.law);
        if (!law)
            return unavailable("Experiment " + r->config->experiment() + " has no law '" + c.law +
                               "'");
        std::string why;
        const double rate = law->perIteration(*r->config, &why);
        if (!std::isfinite(rate) || rate == 0)
            return unavailable("the law " + c.law + " does not apply to run '" + c.run +
                               "': " + (why.empty() ? "it predicts no rate" : why));
        if (h.size() < 3) continue;  // a slope needs three records
        const TrendFit t = fitTrend(h, col, c.window);
        const double ratio = t.slope / rate;
        slopes.push_back(t.slope);
        predicted.push_back(rate);
        ratios.push_back(ratio);
        inRange += inClaimRange(c, ratio);
    }
    if (ratios.empty()) {
        res.status = ClaimStatus::Pending;
        res.detail = res.measured = "waiting for data";
        return res;
    }
    const int n = static_cast<int>(ratios.size());
    res.seeds = n;
    res.seedsInRange = inRange;
    const SeedSummary sum = summariseSeeds(ratios);
    applySummary(sum, res);
    std::string text = "rate ÷ law " + claimNumber(res.value);
    if (n > 1)
        text += " ± " + claimNumber(res.sd) + " (" + std::to_string(n) + " seeds, " +
                claimNumber(res.lo) + " to " + claimNumber(res.hi) + "; the mean's 95% CI " +
                claimNumber(res.meanLo) + " to " + claimNumber(res.meanHi) + ")";
    text += "; measured " + claimNumber(summariseSeeds(slopes).mean) + " per step over the last " +
            claimNumber(c.window * 100) + "% of the run, the law " + c.law + " predicts " +
            claimNumber(summariseSeeds(predicted).mean) + " per step (" + law->formula + "); " +
            claimRange(c);
    if (inRange < n && n > 1)
        text += "; " + std::to_string(inRange) + "/" + std::to_string(n) + " seeds in range";
    return judgeClaim(c, res, allFinished, 1, "", text);
}

}  // namespace ade
