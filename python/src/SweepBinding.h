#pragma once
// attention_explorer.sweep(): the CLI's `sweep` (app/cli/SweepCommand.cpp) on this machine:
// the keys' value forms (a list, lin:, log:, rand:), seeds, random samples, the objective,
// successive halving, the sweep folder, all from core/sweep; returns the ranked table.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "RunBinding.h"
#include "sweep/Sweep.h"

namespace ade::python {

struct SweepRequest {
    PlanSource source;
    SweepAsk ask;  // core/sweep/Sweep.h: the CLI's sweep options
    int jobs = 1;
    std::string out;  // "" = no sweep folder
    std::string commandLine;
};

// {plan, metric, stat, lower_is_better, table (LoadBinding.h: rankedTable), rungs, fits,
//  claims, interrupted}. ValueError with the CLI's message for a bad key, value or option.
py::dict runSweep(const SweepRequest& request);

}  // namespace ade::python
