#pragma once
#include "CliArgs.h"
#include "plan/Preset.h"

// `report`: every preset run, every claim checked, DIR/report.md and DIR/report.json written
// (core/plan/Report.h); figures when the build has Qt. --preset, --config, --set and --vary are
// refused before it runs (Commands.cpp).
int runReportCommand(const CliArgs& args, const ade::PresetLibrary& lib, int argc, char** argv);
