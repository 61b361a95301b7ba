#pragma once
// A claim of kind "law" (claims/Claims.h): a run's measured rate against the rate a law of its
// experiment predicts from its config (experiments/ExperimentRegistry.h, LawInfo).
#include <string>
#include <vector>

#include "claims/Claims.h"

namespace ade {

// `runs`: the claim's run, one per seed; `allFinished`: whether every one has ended.
ClaimResult evaluateLawClaim(const ClaimSpec& claim, const std::vector<const ClaimRun*>& runs,
                             bool allFinished);

// The verdict of a measured claim (Claims.cpp): every seed in range, or with "judge": "mean"
// the mean's 95% interval (res.meanLo, res.meanHi) inside it, stated at the end of `text`
// (numbers times `scale`, followed by `unit`); pending while a run goes on.
ClaimResult judgeClaim(const ClaimSpec& c, ClaimResult res, bool allFinished, double scale,
                       const std::string& unit, std::string text);

}  // namespace ade
