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

}  // namespace ade
