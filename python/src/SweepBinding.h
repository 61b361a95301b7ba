#pragma once
// attention_explorer.sweep(): the CLI's `sweep` (app/cli/SweepCommand.cpp) on this machine:
// the keys' value forms (a list, lin:, log:, rand:), seeds, random samples, the objective,
// successive halving, the sweep folder, all from core/sweep; returns the ranked table.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "RunBinding.h"

namespace ade::python {

struct SweepOptions {
    std::vector<std::string> vary;  // "KEY=VALUES" (--vary); empty: the preset's own sweep
    int seeds = 0;                  // 0: the design's
    int samples = 0;
    long long sampleSeed = -1;  // -1: 1
    std::string metric, stat;   // "" = the headline metric, floor
    bool higherBetter = false;
    bool halving = false;
    int eta = 0;  // 0 = 3
    long minIterations = 0;
    int jobs = 1;
    std::string out;  // "" = no sweep folder
    std::string commandLine;
};

struct SweepRequest {
    PlanSource source;
    SweepOptions options;
};

// {plan, metric, stat, lower_is_better, table (LoadBinding.h: rankedTable), rungs, fits,
//  claims, interrupted}. ValueError with the CLI's message for a bad key, value or option.
py::dict runSweep(const SweepRequest& request);

}  // namespace ade::python
