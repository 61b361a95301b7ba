#pragma once
#include "CliArgs.h"
#include "plan/Preset.h"

// `report`: every preset run, every claim checked, DIR/report.md and DIR/report.json written
// (core/plan/Report.h); figures when the build has Qt.
int runReportCommand(const CliArgs& args, const ade::PresetLibrary& lib, int argc, char** argv);
