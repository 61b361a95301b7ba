#include "config/Config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "config/ParamSpec.h"

namespace ade {

namespace {

std::string lower(std::string s) {
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

ConfigError makeError(const ParamSpec& spec, const std::string& value, const std::string& why) {
    ConfigError e;
    e.key = spec.key;
    e.value = value;
    e.message = "invalid value '" + value + "' for key '" + spec.key + "'" +
                (why.empty() ? "" : " (" + why + ")") + ": expected " + spec.allowedText();
    return e;
}

std::optional<ConfigError> unknownKey(const std::string& key, const std::string& value) {
    ConfigError e;
    e.key = key;
    e.value = value;
    std::string known;
    for (const auto& s : ParamRegistry::instance().all())
        known += (known.empty() ? "" : ", ") + s.key;
    e.message = "unknown key '" + key + "'; known keys: " + known;
    return e;
}

// Checks a numeric value against the spec's bounds.
std::optional<ConfigError> checkRange(const ParamSpec& spec, double v, const std::string& text) {
    if (!std::isfinite(v)) return makeError(spec, text, "not a finite number");
    if (v < spec.min || v > spec.max || (spec.minExclusive && v <= spec.min))
        return makeError(spec, text, "out of range");
    return std::nullopt;
}

// Plain decimal notation only ([+-]digits[.digits][e[+-]digits]): strtod alone would also take
// hexadecimal ("0x10") and other forms a user did not mean.
bool plainDecimal(const std::string& t) {
    std::size_t i = 0;
    const std::size_t n = t.size();
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    std::size_t digits = 0;
    while (i < n && std::isdigit(static_cast<unsigned char>(t[i])))
        ++i, ++digits;
    if (i < n && t[i] == '.') {
        ++i;
        while (i < n && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
        std::size_t exp = 0;
        while (i < n && std::isdigit(static_cast<unsigned char>(t[i])))
            ++i, ++exp;
        if (exp == 0) return false;
    }
    return i == n;
}

bool isNonFiniteWord(const std::string& t) {
    const std::string l = lower(t);
    for (const char* w :
         {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"})
        if (l == w) return true;
    return false;
}

// A finite number in plain decimal notation, or an error naming the key and the value.
std::optional<ConfigError> parseDecimal(const ParamSpec& spec, const std::string& text,
                                        double& out) {
    if (isNonFiniteWord(text)) return makeError(spec, text, "not a finite number");
    if (!plainDecimal(text)) return makeError(spec, text, "not a number");
    out = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(out)) return makeError(spec, text, "not a finite number");  // 1e999
    return std::nullopt;
}

std::string jsonText(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace

Config::Config() {
    for (const auto& s : ParamRegistry::instance().all())
        values_[s.key] = s.defaultValue;
}

const nlohmann::json& Config::get(const std::string& key) const {
    return values_.at(ParamRegistry::instance().canonicalKey(key));
}
std::int64_t Config::getInt(const std::string& key) const {
    return get(key).get<std::int64_t>();
}
double Config::getReal(const std::string& key) const {
    return get(key).get<double>();
}
bool Config::getBool(const std::string& key) const {
    return get(key).get<bool>();
}
std::string Config::getString(const std::string& key) const {
    return get(key).get<std::string>();
}

bool Config::isRelevant(const std::string& key, std::string* why) const {
    const ParamSpec* spec = ParamRegistry::instance().find(key);
    if (!spec) return false;
    if (!spec->appliesTo(experiment())) {
        if (why) *why = "not a key of experiment " + experiment();
        return false;
    }
    if (spec->relevantWhen.empty()) return true;
    auto text = [](const nlohmann::json& v) {
        return v.is_string() ? v.get<std::string>() : v.dump();
    };
    std::string current;
    for (const Relevance& r : spec->relevantWhen) {
        const std::string v = text(get(r.key));
        if (std::find(r.values.begin(), r.values.end(), v) != r.values.end()) return true;
        current += (current.empty() ? "" : ", ") + r.key + " = " + v;
    }
    if (why) *why = "not used with " + current + " (" + spec->relevanceText() + ")";
    return false;
}

std::optional<ConfigError> Config::setText(const std::string& rawKey, const std::string& rawText) {
    const std::string key = trim(rawKey);
    const std::string text = trim(rawText);
    const ParamSpec* spec = ParamRegistry::instance().find(key);
    if (!spec) return unknownKey(key, text);
    switch (spec->type) {
        case ParamType::Int: {
            std::int64_t v = 0;
            const char* b = text.data();
            const char* e = b + text.size();
            auto [ptr, ec] = std::from_chars(b, e, v);
            if (ec == std::errc::result_out_of_range) return makeError(*spec, text, "too large");
            if (ec != std::errc() || ptr != e) {
                // Accept integral reals such as 1e3 or 2000.0.
                double d = 0;
                if (auto e = parseDecimal(*spec, text, d)) return e;
                if (d != std::floor(d)) return makeError(*spec, text, "not an integer");
                if (std::fabs(d) > 9.0e18) return makeError(*spec, text, "too large");
                v = static_cast<std::int64_t>(d);
            }
            return setJson(spec->key, nlohmann::json(v));
        }
        case ParamType::Real: {
            double d = 0;
            if (auto e = parseDecimal(*spec, text, d)) return e;
            return setJson(spec->key, nlohmann::json(d));
        }
        case ParamType::Bool: {
            const std::string l = lower(text);
            if (l == "true" || l == "1" || l == "yes" || l == "on") return setJson(spec->key, true);
            if (l == "false" || l == "0" || l == "no" || l == "off")
                return setJson(spec->key, false);
            return makeError(*spec, text, "");
        }
        case ParamType::Choice:
        case ParamType::Text:
            return setJson(spec->key, nlohmann::json(text));
    }
    return std::nullopt;
}

std::optional<ConfigError> Config::setJson(const std::string& rawKey, const nlohmann::json& value) {
    const ParamSpec* spec = ParamRegistry::instance().find(rawKey);
    if (!spec) return unknownKey(rawKey, jsonText(value));
    const std::string text = jsonText(value);
    switch (spec->type) {
        case ParamType::Int: {
            double d = 0;
            std::int64_t v = 0;
            if (value.is_number_integer()) {
                if (value.is_number_unsigned() &&
                    value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
                    return makeError(*spec, text, "too large");
                v = value.get<std::int64_t>();
                d = static_cast<double>(v);
            } else if (value.is_number_float()) {
                d = value.get<double>();
                if (!std::isfinite(d)) return makeError(*spec, text, "not a finite number");
                if (d != std::floor(d)) return makeError(*spec, text, "not an integer");
                if (std::fabs(d) > 9.0e18) return makeError(*spec, text, "too large");
                v = static_cast<std::int64_t>(d);
            } else if (value.is_string()) {
                return setText(spec->key, value.get<std::string>());
            } else {
                return makeError(*spec, text, "wrong type");
            }
            // Compare in integer arithmetic where the bound is exactly representable.
            if (static_cast<double>(v) < spec->min || static_cast<double>(v) > spec->max)
                return makeError(*spec, text, "out of range");
            values_[spec->key] = v;
            return std::nullopt;
        }
        case ParamType::Real: {
            if (value.is_string()) return setText(spec->key, value.get<std::string>());
            if (!value.is_number()) return makeError(*spec, text, "wrong type");
            const double d = value.get<double>();
            if (auto e = checkRange(*spec, d, text)) return e;
            values_[spec->key] = d;
            return std::nullopt;
        }
        case ParamType::Bool:
            if (value.is_boolean()) {
                values_[spec->key] = value.get<bool>();
                return std::nullopt;
            }
            if (value.is_string()) return setText(spec->key, value.get<std::string>());
            if (value.is_number_integer() && (value == 0 || value == 1)) {
                values_[spec->key] = value == 1;
                return std::nullopt;
            }
            return makeError(*spec, text, "wrong type");
        case ParamType::Choice: {
            std::string s;
            if (value.is_string())
                s = value.get<std::string>();
            else if (value.is_boolean())  // e.g. "preconditioner": true
                s = value.get<bool>() ? "true" : "false";
            else
                return makeError(*spec, text, "wrong type");
            s = ParamRegistry::instance().canonicalKey(spec->key + "=" + s);
            if (auto p = s.find('='); p != std::string::npos && s.rfind(spec->key + "=", 0) == 0)
                s = s.substr(p + 1);
            for (const auto& c : spec->choices)
                if (c == s) {
                    values_[spec->key] = s;
                    return std::nullopt;
                }
            return makeError(*spec, text, "");
        }
        case ParamType::Text:
            if (!value.is_string()) return makeError(*spec, text, "wrong type");
            values_[spec->key] = value.get<std::string>();
            return std::nullopt;
    }
    return std::nullopt;
}

std::optional<ConfigError> Config::apply(const nlohmann::json& object,
                                         std::vector<std::string>* unknownKeys) {
    if (!object.is_object()) {
        ConfigError e;
        e.message =
            "expected a JSON object of configuration keys, got " + std::string(object.type_name());
        return e;
    }
    // Apply "experiment" first so that later checks see it.
    if (object.contains("experiment"))
        if (auto e = setJson("experiment", object["experiment"])) return e;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (it.key() == "experiment") continue;
        if (it.value().is_object()) {
            nlohmann::json flat = nlohmann::json::object();
            for (auto jt = it.value().begin(); jt != it.value().end(); ++jt)
                flat[it.key() + "." + jt.key()] = jt.value();
            if (auto e = apply(flat, unknownKeys)) return e;
            continue;
        }
        if (!ParamRegistry::instance().find(it.key()) && unknownKeys) {
            unknownKeys->push_back(it.key());
            continue;
        }
        if (auto e = setJson(it.key(), it.value())) return e;
    }
    return std::nullopt;
}

nlohmann::json Config::toJson() const {
    nlohmann::json out = nlohmann::json::object();
    const std::string exp = experiment();
    for (const auto& s : ParamRegistry::instance().all())
        if (s.appliesTo(exp)) out[s.key] = values_.at(s.key);
    return out;
}

std::vector<std::string> differingKeys(const Config& a, const Config& b) {
    std::vector<std::string> keys;
    for (const ParamSpec& spec : ParamRegistry::instance().all()) {
        if (spec.key == "seed") continue;
        const bool inA = spec.appliesTo(a.experiment()), inB = spec.appliesTo(b.experiment());
        if (!inA && !inB) continue;
        const bool used = a.isRelevant(spec.key) || b.isRelevant(spec.key);
        if (used && (inA != inB || a.get(spec.key) != b.get(spec.key))) keys.push_back(spec.key);
    }
    return keys;
}

bool splitAssignment(const std::string& text, std::string& key, std::string& value) {
    const auto p = text.find('=');
    if (p == std::string::npos) return false;
    key = trim(text.substr(0, p));
    value = trim(text.substr(p + 1));
    return true;
}

}  // namespace ade
