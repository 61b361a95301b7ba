#pragma once
// What the module lists without running anything: the presets, the parameter registry and an
// experiment's metrics and charts (the CLI's `presets` and `keys`, the GUI's About panel).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ade::python {

// [{name, description, file}] of the presets in `dirs` (PresetLibrary's search order).
nlohmann::json presetList(const std::vector<std::string>& dirs);
// Every key of the registry (or those that apply to `experiment` when it is not empty): key,
// type, group, label, default, allowed, min, max, choices, experiments, help, relevance,
// log_scale. Throws std::invalid_argument with the CLI's message for an unknown experiment.
nlohmann::json keyList(const std::string& experiment);
// An experiment's title, headline metric, default preset, About text, metrics, charts and laws.
nlohmann::json experimentDescription(const std::string& experiment);
// The experiments' names.
std::vector<std::string> experimentNames();

}  // namespace ade::python
