#pragma once
// The roofline of ade-bench (issue 17, docs/performance.md "Roofline"): micro-benchmarks of what
// bounds the core's training step on this machine, all on the benchmark's thread count at once:
// the FMA rate of independent packet FMAs, the throughput and accuracy of the vectorised exps
// (the kernel's own, Eigen's, glibc's libmvec, SLEEF when built with it), the L2 stream rate,
// and per case the time of each part of the computation on the case's own shapes (the blocked
// products of Experiment A at d > 4, the six small products and the softmax of Darcy stage 2).
// From these, per Experiment A case, the shortest time the kernel's unavoidable work can take.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace adebench {

struct RooflineCase {
    std::string name, experiment;
    int n = 0, prompts = 0, d = 0;
};

// Everything as JSON: "fma", "exp" (per function: rate, error), "l2", "cases" (per case: the
// parts' seconds per training step on `threads` threads, and "bound_s", the shortest step).
nlohmann::json measureRoofline(const std::vector<RooflineCase>& cases, int threads,
                               double minTime);

}  // namespace adebench
