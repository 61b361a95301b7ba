#include "config/ParamSpec.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace ade {

bool ParamSpec::appliesTo(const std::string& experiment) const {
    return experiments.empty() ||
           std::find(experiments.begin(), experiments.end(), experiment) != experiments.end();
}

namespace {
// Bounds in plain numbers: integers in full ("9223372036854775807", not "9.22337e+18"), other
// values in the shortest form that reads back exactly ("0.99999999", "1e-08").
std::string num(double v) {
    if (v >= 9.2233720368547e18) return "9223372036854775807";  // INT64_MAX as a double
    if (v <= -9.2233720368547e18) return "-9223372036854775808";
    if (v == std::floor(v) && std::fabs(v) < 1e16)
        return std::to_string(static_cast<std::int64_t>(v));
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
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

std::string ParamSpec::relevanceText() const {
    std::string s;
    for (std::size_t i = 0; i < relevantWhen.size(); ++i) {
        const Relevance& r = relevantWhen[i];
        s += (i ? "; or when " : "used when ") + r.key + (r.values.size() > 1 ? " is one of " : " is ");
        for (std::size_t j = 0; j < r.values.size(); ++j)
            s += (j ? ", " : "") + r.values[j];
    }
    return s;
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

void ParamRegistry::relevantWhen(const std::string& key, std::vector<Relevance> rules) {
    for (auto& s : specs_)
        if (s.key == key) s.relevantWhen = std::move(rules);
}

void ParamRegistry::costNeutral(const std::vector<std::string>& keys) {
    for (const auto& key : keys) {
        auto it = std::find_if(specs_.begin(), specs_.end(),
                               [&](const ParamSpec& s) { return s.key == key; });
        if (it == specs_.end()) {
            std::fprintf(stderr, "costNeutral: unknown key %s\n", key.c_str());
            std::abort();
        }
        it->costNeutral = true;
    }
}

void ParamRegistry::addAlias(const std::string& alias, const std::string& key) {
    aliases_.emplace_back(alias, key);
}

}  // namespace ade
