#include "config/ParamSpec.h"

#include <algorithm>
#include <sstream>

namespace ade {

bool ParamSpec::appliesTo(const std::string& experiment) const {
    return experiments.empty() ||
           std::find(experiments.begin(), experiments.end(), experiment) != experiments.end();
}

namespace {
std::string num(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}
}  // namespace

std::string ParamSpec::allowedText() const {
    switch (type) {
        case ParamType::Int:
            return "an integer in [" + num(min) + ", " + num(max) + "]";
        case ParamType::Real:
            return std::string("a finite number in ") + (minExclusive ? "(" : "[") + num(min) +
                   ", " + num(max) + "]";
        case ParamType::Bool:
            return "true or false";
        case ParamType::Choice: {
            std::string s = "one of ";
            for (size_t i = 0; i < choices.size(); ++i)
                s += (i ? ", " : "") + choices[i];
            return s;
        }
        case ParamType::Text:
            return "text";
    }
    return "";
}

const ParamRegistry& ParamRegistry::instance() {
    static const ParamRegistry registry;
    return registry;
}

ParamRegistry::ParamRegistry() {
    registerAllParams(*this);
}

const ParamSpec* ParamRegistry::find(const std::string& key) const {
    const std::string k = canonicalKey(key);
    for (const auto& s : specs_)
        if (s.key == k) return &s;
    return nullptr;
}

std::string ParamRegistry::canonicalKey(const std::string& key) const {
    for (const auto& [alias, k] : aliases_)
        if (alias == key) return k;
    return key;
}

void ParamRegistry::add(ParamSpec spec) {
    for (auto& s : specs_)
        if (s.key == spec.key) {
            s = std::move(spec);
            return;
        }
    specs_.push_back(std::move(spec));
}

void ParamRegistry::extend(const std::string& key, const std::string& experiment,
                           const std::string& extraHelp) {
    for (auto& s : specs_)
        if (s.key == key) {
            if (!s.experiments.empty() && !s.appliesTo(experiment))
                s.experiments.push_back(experiment);
            if (!extraHelp.empty()) s.help += " " + extraHelp;
            return;
        }
}

void ParamRegistry::addAlias(const std::string& alias, const std::string& key) {
    aliases_.emplace_back(alias, key);
}

}  // namespace ade
