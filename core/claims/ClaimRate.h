#pragma once
// A claim of kind "rate" (claims/Claims.h): how fast a run's gap to its own limit contracts
// while it converges geometrically — the factor ρ by which the gap shrinks per iteration (or per
// data pass: "by"), with the seeds' 95% interval; with "other", how many times faster `run`
// contracts than `other` (ln ρ_run / ln ρ_other), both factors stated beside it.
#include <map>
#include <string>

#include "claims/Claims.h"
#include "training/Trainer.h"

namespace ade {

// One run's geometric phase: the least-squares slope of ln(value − limit) against the `by`
// column over the records whose gap lies between `tol`·|limit| (above the limit's own scale)
// and half the first record's gap (past the start). The limit is the run's floor (the mean of
// its last tenth). `factor` is exp(slope): the contraction per unit of `by`; NaN with fewer
// than three records in the phase.
struct GeometricRate {
    double factor = NAN, ci95 = NAN;  // ci95: the 95% half-width of the slope (one run's fit)
    double limit = NAN, r2 = NAN;
    int points = 0;
};
GeometricRate geometricRate(const HistoryView& h, int column, const std::string& by,
                            double tol);

// `mine` and `others`: the claim's run and (when the claim has "other") its other run, keyed by
// seed and sweep values as Claims.cpp pairs them; `allFinished`: whether every one has ended.
ClaimResult evaluateRateClaim(const ClaimSpec& claim,
                              const std::map<std::string, const ClaimRun*>& mine,
                              const std::map<std::string, const ClaimRun*>& others,
                              bool allFinished);

}  // namespace ade
