#pragma once
// A preset, a config document or a config file as a Plan, with the `--set` overrides, as the
// CLI loads it (RunCommand.cpp); errors carry the CLI's message.
#include "RunBinding.h"
#include "plan/Preset.h"

namespace ade::python {

// Throws std::invalid_argument (ValueError) with the message the CLI prints.
Plan loadPlan(const PlanSource& source);

}  // namespace ade::python
