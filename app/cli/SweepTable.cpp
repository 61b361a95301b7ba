// What the sweep commands print: the results table (one row per config, best first), the
// successive-halving rungs, the fitted power laws and the preset's claims.
#include "SweepTable.h"

#include <cmath>
#include <cstdio>

#include "SweepCommand.h"

using namespace ade;

void printResults(const std::vector<ConfigResult>& configs, const Objective& objective,
                  const std::string& metric, bool showLabel) {
    if (configs.empty()) return;
    std::printf("\nresults: %s %s over seeds, mean ± sd, %s is better (best first)\n",
                objective.stat.c_str(), metric.c_str(),
                objective.lowerIsBetter ? "lower" : "higher");
    std::printf("%4s  ", "rank");
    if (showLabel) std::printf("%-14s ", "run");
    for (const auto& [k, v] : configs.front().values)
        std::printf("%-14s ", k.c_str());
    // Under a stopping rule the iterations are a cap: say how far the seeds ran and how many
    // were stopped by the rule (converged) or by the cap.
    bool ruled = false;
    for (const auto& c : configs)
        ruled = ruled || c.seedsConverged + c.seedsCapped > 0;
    std::printf("%-26s %5s %6s %10s%s\n", "objective", "seeds", "failed", "iterations",
                ruled ? "  stopping rule" : "");
    int rank = 0;
    for (const auto& c : configs) {
        std::printf("%4d  ", ++rank);
        if (showLabel) std::printf("%-14s ", c.label.c_str());
        for (const auto& [k, v] : c.values)
            std::printf("%-14s ", v.c_str());
        char obj[64];
        if (std::isfinite(c.mean))
            std::snprintf(obj, sizeof obj, "%.6g ± %.2g", c.mean, c.sd);
        else
            std::snprintf(obj, sizeof obj, "-");
        // "±" is two bytes but one column: pad by what is seen, not by bytes.
        std::string cell = obj;
        const std::size_t shown = cell.size() - (cell.find("±") != std::string::npos ? 1 : 0);
        if (shown < 26) cell.append(26 - shown, ' ');
        std::printf("%s %5d %6d %10ld", cell.c_str(), c.seedsDone, c.seedsFailed, c.iterations);
        if (ruled) {
            std::string at = std::to_string(c.doneMin);
            if (c.doneMax != c.doneMin) at += "-" + std::to_string(c.doneMax);
            std::printf("  %d converged, %d cap (ran %s)", c.seedsConverged, c.seedsCapped,
                        at.c_str());
        }
        std::printf("\n");
    }
}

void printRungs(const std::vector<HalvingRung>& rungs, int eta) {
    if (rungs.empty()) return;
    std::printf("\nsuccessive halving (eta %d; each rung reruns its configs from the start):\n", eta);
    std::printf("%5s %12s %9s %6s\n", "rung", "iterations", "configs", "kept");
    for (std::size_t r = 0; r < rungs.size(); ++r)
        std::printf("%5zu %12ld %9d %6d\n", r, rungs[r].iterations, rungs[r].configs, rungs[r].kept);
}

void printFits(const std::vector<RunOutcome>& outcomes, const SweepDesign& design) {
    if (design.fitX.empty()) return;
    for (const auto& f : fitPowerLaw(outcomes, design.fitX, design.fitY, "floor")) {
        // A line through two points fits perfectly and says nothing: no slope below three.
        if (f.points < 3) {
            std::printf("fit %s: none (a power law needs 3 or more positive values of %s; %d "
                        "here)\n",
                        f.series.c_str(), design.fitX.c_str(), f.points);
            continue;
        }
        std::printf("fit %s: floor %s ~ %s^%.3f (R^2 = %.3f, %d points)\n", f.series.c_str(),
                    design.fitY.c_str(), design.fitX.c_str(), f.slope, f.r2, f.points);
    }
}

void printClaims(const Plan& plan, const std::vector<RunOutcome>& outcomes, int seeds) {
    const auto runs = claimRuns(outcomes);
    std::printf("claims (%d seed%s per run):\n", seeds, seeds == 1 ? "" : "s");
    for (const auto& c : plan.claims) {
        const ClaimResult r = evaluateClaim(c, runs);
        std::printf("  %-13s %s\n      %s\n", statusText(r.status).c_str(), c.text.c_str(),
                    r.measured.c_str());
    }
}
