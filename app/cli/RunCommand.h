#pragma once
#include "CliArgs.h"
#include "plan/Preset.h"

// `run`, and `sweep` without a sub-command: loads the plan (--preset or --config, --set), then
// runs its runs and writes their outputs, or runs its sweep (SweepCommand.h).
int runPlanCommand(const CliArgs& args, const ade::PresetLibrary& lib);
