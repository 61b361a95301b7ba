#pragma once
// The sweep commands (docs/sweeps.md): `sweep` (local or Slurm backend), `sweep task DIR` (one
// run of a sweep folder, as a Slurm array task runs it) and `sweep collect DIR`. An option the
// command does not take is refused before these run (Commands.cpp).
#include <vector>

#include "CliArgs.h"
#include "plan/PlanRunner.h"
#include "plan/Preset.h"

int runSweepCommand(const CliArgs& a, const ade::Plan& plan);
int runSweepSubcommand(const CliArgs& a);  // a.positional = {"task" | "collect", DIR}

// The preset's claims, checked over every run and seed (the report's check, for one preset).
void printClaims(const ade::Plan& plan, const std::vector<ade::RunOutcome>& outcomes, int seeds);
