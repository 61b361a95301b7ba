#pragma once
// Printing a sweep's results (SweepTable.cpp).
#include <string>
#include <vector>

#include "sweep/Sweep.h"

void printResults(const std::vector<ade::ConfigResult>& configs, const ade::Objective& objective,
                  const std::string& metric, bool showLabel);
void printRungs(const std::vector<ade::HalvingRung>& rungs, int eta);
void printFits(const std::vector<ade::RunOutcome>& outcomes, const ade::SweepDesign& design);
