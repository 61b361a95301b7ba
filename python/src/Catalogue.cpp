// Catalogue.h: the presets, the keys and the experiments' descriptions as JSON.
#include "Catalogue.h"

#include <stdexcept>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "plan/Preset.h"

namespace ade::python {

namespace {

const char* typeName(ParamType t) {
    switch (t) {
        case ParamType::Int:
            return "int";
        case ParamType::Real:
            return "real";
        case ParamType::Bool:
            return "bool";
        case ParamType::Choice:
            return "choice";
        case ParamType::Text:
            return "text";
    }
    return "text";
}

// The experiment named, or the message `--set experiment=NAME` gives for it.
void checkExperiment(const std::string& experiment) {
    Config config;
    if (const auto error = config.setText("experiment", experiment))
        throw std::invalid_argument(error->message);
}

}  // namespace

nlohmann::json presetList(const std::vector<std::string>& dirs) {
    std::vector<std::filesystem::path> paths(dirs.begin(), dirs.end());
    const PresetLibrary lib(paths);
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : lib.entries())
        out.push_back(
            {{"name", e.name}, {"description", e.description}, {"file", e.file.string()}});
    return out;
}

nlohmann::json keyList(const std::string& experiment) {
    if (!experiment.empty()) checkExperiment(experiment);
    nlohmann::json out = nlohmann::json::array();
    for (const ParamSpec& s : ParamRegistry::instance().all()) {
        if (!experiment.empty() && !s.appliesTo(experiment)) continue;
        const bool numeric = s.type == ParamType::Int || s.type == ParamType::Real;
        out.push_back({{"key", s.key},
                       {"type", typeName(s.type)},
                       {"group", s.group},
                       {"label", s.label},
                       {"default", s.defaultValue},
                       {"allowed", s.allowedText()},
                       {"min", numeric ? nlohmann::json(s.min) : nlohmann::json()},
                       {"max", numeric ? nlohmann::json(s.max) : nlohmann::json()},
                       {"choices", s.choices},
                       {"experiments", s.experiments},
                       {"help", s.help},
                       {"relevance", s.relevanceText()},
                       {"log_scale", s.logScale}});
    }
    return out;
}

nlohmann::json experimentDescription(const std::string& experiment) {
    checkExperiment(experiment);
    const ExperimentInfo* info = findExperiment(experiment);
    if (!info) throw std::invalid_argument("unknown experiment '" + experiment + "'");
    nlohmann::json metrics = nlohmann::json::array();
    for (const MetricInfo& m : metricsOf(experiment))
        metrics.push_back({{"column", m.column},
                           {"label", m.label},
                           {"units", m.units},
                           {"chart", m.chart},
                           {"signed", m.isSigned},
                           {"log_suits", m.logSuits},
                           {"meaning", m.meaning}});
    nlohmann::json charts = nlohmann::json::array();
    for (const ChartInfo& c : chartsOf(experiment))
        charts.push_back({{"id", c.id},
                          {"title", c.title},
                          {"units", c.units},
                          {"scale", toString(c.scale)},
                          {"shown_by_default", c.shownByDefault}});
    nlohmann::json laws = nlohmann::json::array();
    for (const LawInfo& l : info->laws)
        laws.push_back({{"name", l.name},
                        {"metric", l.metric},
                        {"formula", l.formula},
                        {"meaning", l.meaning}});
    return {{"name", info->name},
            {"title", info->title},
            {"headline_metric", info->headlineMetric},
            {"default_preset", info->defaultPreset},
            {"about_html", info->aboutHtml},
            {"metrics", metrics},
            {"charts", charts},
            {"laws", laws}};
}

std::vector<std::string> experimentNames() {
    std::vector<std::string> out;
    for (const ExperimentInfo& e : experiments())
        out.push_back(e.name);
    return out;
}

}  // namespace ade::python
