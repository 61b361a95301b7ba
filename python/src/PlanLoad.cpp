// PlanLoad.h: the CLI's loadPlan (app/cli/RunCommand.cpp) for the module's three sources.
#include "PlanLoad.h"

#include <optional>
#include <stdexcept>

namespace ade::python {

Plan loadPlan(const PlanSource& source) {
    PlanError pe;
    std::optional<Plan> plan;
    if (!source.preset.empty()) {
        std::vector<std::filesystem::path> dirs(source.presetDirs.begin(), source.presetDirs.end());
        plan = PresetLibrary(dirs).load(source.preset, source.sets, &pe);
    } else if (!source.configFile.empty()) {
        plan = loadPlanFile(source.configFile, source.sets, &pe);
    } else {
        plan = parsePlan(source.configJson, "config", source.sets, &pe);
    }
    if (!plan) throw std::invalid_argument(pe.message);
    return *plan;
}

}  // namespace ade::python
