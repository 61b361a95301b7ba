// Which configs a sweep runs: the value forms of one key (parseAxis), random samples, the grid
// expansion into tasks, and the design's JSON (the manifest's "design").
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "config/ParamSpec.h"
#include "output/RunOutput.h"
#include "sweep/Sweep.h"

namespace ade {

namespace {

bool parseDouble(const std::string& text, double& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(out);
}

bool parseCount(const std::string& text, int& out) {
    double d = 0;
    if (!parseDouble(text, d) || d != std::floor(d) || d < 2 || d > 10000) return false;
    out = static_cast<int>(d);
    return true;
}

std::vector<std::string> splitOn(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(text);
    for (std::string item; std::getline(ss, item, sep);)
        out.push_back(item);
    if (!text.empty() && text.back() == sep) out.emplace_back();
    return out;
}

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// The text of a value of `spec`: integers without a fraction, reals shortest round-trip.
std::string valueText(const ParamSpec& spec, double v) {
    if (spec.type == ParamType::Int) return std::to_string(std::llround(v));
    return formatNumber(v);
}

// Checks one value against the key's type and range (the same check as --set).
bool checkValue(const ParamSpec& spec, const std::string& value, std::string* error) {
    Config probe;
    if (auto e = probe.setText(spec.key, value)) {
        if (error) *error = "--vary " + spec.key + ": " + e->message;
        return false;
    }
    return true;
}

const char* kindName(AxisSpec::Kind k) {
    switch (k) {
        case AxisSpec::Kind::List: return "list";
        case AxisSpec::Kind::Linear: return "lin";
        case AxisSpec::Kind::Log: return "log";
        case AxisSpec::Kind::Random: return "rand";
    }
    return "list";
}

// splitmix64: a fixed generator, so the same sample seed gives the same samples everywhere.
std::uint64_t nextRandom(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

bool axisIsLogUniform(const AxisSpec& axis) {
    const ParamSpec* spec = ParamRegistry::instance().find(axis.key);
    if (spec && spec->logScale && axis.lo > 0) return true;
    return axis.lo > 0 && axis.hi / axis.lo >= 100;
}

std::optional<AxisSpec> parseAxis(const std::string& text, std::string* error,
                                  const std::string& key) {
    auto fail = [&](const std::string& message) -> std::optional<AxisSpec> {
        if (error) *error = message;
        return std::nullopt;
    };
    std::string rawKey = key, values = text;
    if (key.empty() && (!splitAssignment(text, rawKey, values) || rawKey.empty()))
        return fail("malformed --vary '" + text + "': expected KEY=VALUES (a list 1,2,3, "
                    "lin:LO:HI:N, log:LO:HI:N or rand:LO:HI)");
    values = trimmed(values);
    const ParamSpec* spec =
        ParamRegistry::instance().find(ParamRegistry::instance().canonicalKey(trimmed(rawKey)));
    if (!spec)
        return fail("--vary: unknown key '" + trimmed(rawKey) +
                    "'; see attention-explorer-cli keys");
    AxisSpec axis;
    axis.key = spec->key;
    if (values.empty()) return fail("--vary " + axis.key + ": no values");
    const bool numeric = spec->type == ParamType::Int || spec->type == ParamType::Real;
    const auto colon = values.find(':');
    const std::string form = colon == std::string::npos ? "" : values.substr(0, colon);
    if (form == "lin" || form == "log" || form == "rand") {
        const std::string usage = form == "rand" ? "rand:LO:HI" : form + ":LO:HI:N";
        if (!numeric)
            return fail("--vary " + axis.key + ": " + form + ": needs a numeric key; " +
                        axis.key + " is " + spec->allowedText() + " (give a list)");
        const auto parts = splitOn(values.substr(colon + 1), ':');
        const std::size_t want = form == "rand" ? 2 : 3;
        if (parts.size() != want || !parseDouble(trimmed(parts[0]), axis.lo) ||
            !parseDouble(trimmed(parts[1]), axis.hi))
            return fail("--vary " + axis.key + ": malformed '" + values + "': expected " + usage +
                        " with numbers LO, HI" + (form == "rand" ? "" : " and a count N"));
        if (form != "rand" && !parseCount(trimmed(parts[2]), axis.count))
            return fail("--vary " + axis.key + ": in '" + values +
                        "' the count N must be an integer in [2, 10000]");
        if (!(axis.lo < axis.hi))
            return fail("--vary " + axis.key + ": in '" + values + "' LO must be below HI");
        if (form == "log" && axis.lo <= 0)
            return fail("--vary " + axis.key + ": log: needs LO > 0 (got " + formatNumber(axis.lo) +
                        ")");
        if (!checkValue(*spec, valueText(*spec, axis.lo), error) ||
            !checkValue(*spec, valueText(*spec, axis.hi), error))
            return std::nullopt;
        if (form == "rand") {
            axis.kind = AxisSpec::Kind::Random;
            return axis;
        }
        axis.kind = form == "lin" ? AxisSpec::Kind::Linear : AxisSpec::Kind::Log;
        std::set<std::string> seen;
        for (int i = 0; i < axis.count; ++i) {
            const double t = static_cast<double>(i) / (axis.count - 1);
            double v = axis.kind == AxisSpec::Kind::Linear
                           ? axis.lo + t * (axis.hi - axis.lo)
                           : std::exp(std::log(axis.lo) + t * (std::log(axis.hi) - std::log(axis.lo)));
            if (i == 0) v = axis.lo;
            if (i == axis.count - 1) v = axis.hi;
            const std::string s = valueText(*spec, v);
            if (seen.insert(s).second) axis.values.push_back(s);  // integers may round together
        }
        return axis;
    }
    if (!form.empty() && numeric)
        return fail("--vary " + axis.key + ": unknown form '" + form +
                    ":'; the forms are a list 1,2,3, lin:LO:HI:N, log:LO:HI:N and rand:LO:HI");
    axis.kind = AxisSpec::Kind::List;
    std::set<std::string> seen;
    for (const auto& raw : splitOn(values, ',')) {
        const std::string v = trimmed(raw);
        if (v.empty()) return fail("--vary " + axis.key + ": empty value in '" + values + "'");
        if (!checkValue(*spec, v, error)) return std::nullopt;
        if (!seen.insert(v).second)
            return fail("--vary " + axis.key + ": value '" + v + "' is given twice");
        axis.values.push_back(v);
    }
    return axis;
}

std::string axisText(const AxisSpec& axis) {
    switch (axis.kind) {
        case AxisSpec::Kind::List: {
            std::string out;
            for (const auto& v : axis.values)
                out += (out.empty() ? "" : ",") + v;
            return out;
        }
        case AxisSpec::Kind::Linear:
        case AxisSpec::Kind::Log:
            return std::string(kindName(axis.kind)) + ":" + formatNumber(axis.lo) + ":" +
                   formatNumber(axis.hi) + ":" + std::to_string(axis.count);
        case AxisSpec::Kind::Random:
            return "rand:" + formatNumber(axis.lo) + ":" + formatNumber(axis.hi);
    }
    return "";
}

SweepDesign designFromSweepSpec(const SweepSpec& sweep) {
    SweepDesign d;
    for (const auto& [key, values] : sweep.vary) {
        AxisSpec a;
        a.key = key;
        a.values = values;
        d.axes.push_back(std::move(a));
    }
    d.seeds = std::max(1, sweep.seeds);
    if (!sweep.vary.empty()) {
        d.fitX = sweep.fitX.empty() ? sweep.vary.front().first : sweep.fitX;
        d.fitY = sweep.fitY;
    }
    return d;
}

std::vector<std::vector<std::pair<std::string, std::string>>> randomSamples(
    const SweepDesign& design) {
    std::vector<std::vector<std::pair<std::string, std::string>>> out;
    std::uint64_t state = design.sampleSeed;
    for (int s = 0; s < design.samples; ++s) {
        std::vector<std::pair<std::string, std::string>> sample;
        for (const auto& axis : design.axes) {
            if (axis.kind != AxisSpec::Kind::Random) continue;
            const double u = static_cast<double>(nextRandom(state) >> 11) * 0x1.0p-53;
            double v = axisIsLogUniform(axis)
                           ? std::exp(std::log(axis.lo) + u * (std::log(axis.hi) - std::log(axis.lo)))
                           : axis.lo + u * (axis.hi - axis.lo);
            const ParamSpec* spec = ParamRegistry::instance().find(axis.key);
            std::string text;
            if (spec && spec->type == ParamType::Int) {
                text = std::to_string(std::llround(v));
            } else {  // 4 significant digits (readable task names), kept inside [lo, hi]
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.4g", v);
                v = std::clamp(std::strtod(buf, nullptr), axis.lo, axis.hi);
                text = formatNumber(v);
            }
            sample.emplace_back(axis.key, text);
        }
        out.push_back(std::move(sample));
    }
    return out;
}

std::optional<std::vector<PlannedRun>> expandDesign(const Plan& plan, const SweepDesign& design,
                                                    std::string* error) {
    auto fail = [&](const std::string& m) -> std::optional<std::vector<PlannedRun>> {
        if (error) *error = m;
        return std::nullopt;
    };
    if (design.axes.empty()) return fail("a sweep needs at least one key to vary");
    if (design.seeds < 1) return fail("a sweep needs at least one seed");
    bool anyRandom = false;
    std::set<std::string> keys;
    for (const auto& a : design.axes) {
        anyRandom = anyRandom || a.kind == AxisSpec::Kind::Random;
        if (!keys.insert(a.key).second) return fail("--vary " + a.key + " is given twice");
        if (a.kind != AxisSpec::Kind::Random && a.values.empty())
            return fail("--vary " + a.key + ": no values");
    }
    if (anyRandom && design.samples < 1)
        return fail("rand:LO:HI needs the number of random samples (--samples N)");
    if (!anyRandom && design.samples > 0)
        return fail("--samples needs a key varied as rand:LO:HI");
    // The points: the grid of the list axes (first key varying fastest, as expandSweep), for
    // each random sample; every point in the axes' order.
    std::vector<std::vector<std::pair<std::string, std::string>>> points;
    const auto samples = anyRandom ? randomSamples(design)
                                   : std::vector<std::vector<std::pair<std::string, std::string>>>(1);
    std::set<std::vector<std::pair<std::string, std::string>>> seen;
    for (const auto& sample : samples) {
        std::vector<std::size_t> idx(design.axes.size(), 0);
        for (;;) {
            std::vector<std::pair<std::string, std::string>> point;
            std::size_t r = 0;
            for (std::size_t a = 0; a < design.axes.size(); ++a) {
                const auto& axis = design.axes[a];
                if (axis.kind == AxisSpec::Kind::Random)
                    point.push_back(sample[r++]);
                else
                    point.emplace_back(axis.key, axis.values[idx[a]]);
            }
            if (seen.insert(point).second) point.swap(points.emplace_back());
            std::size_t a = 0;
            for (; a < idx.size(); ++a) {
                if (design.axes[a].kind == AxisSpec::Kind::Random) continue;
                if (++idx[a] < design.axes[a].values.size()) break;
                idx[a] = 0;
            }
            if (a == idx.size()) break;
        }
    }
    // Each point through expandSweep (its values x seeds x runs): one naming and validation.
    std::vector<PlannedRun> out;
    for (const auto& point : points) {
        SweepSpec one;
        for (const auto& [k, v] : point)
            one.vary.emplace_back(k, std::vector<std::string>{v});
        one.seeds = design.seeds;
        auto runs = expandSweep(plan, one, error);
        if (!runs) return std::nullopt;
        for (auto& r : *runs)
            out.push_back(std::move(r));
    }
    std::set<std::string> names;
    for (const auto& r : out)
        if (!names.insert(r.name).second)
            return fail("two runs of the sweep would share the name '" + r.name + "'");
    return out;
}

nlohmann::json designToJson(const SweepDesign& d) {
    nlohmann::json axes = nlohmann::json::array();
    for (const auto& a : d.axes) {
        nlohmann::json j = {{"key", a.key}, {"kind", kindName(a.kind)}, {"text", axisText(a)}};
        if (a.kind != AxisSpec::Kind::Random) j["values"] = a.values;
        if (a.kind != AxisSpec::Kind::List) j["lo"] = a.lo, j["hi"] = a.hi;
        if (a.kind == AxisSpec::Kind::Linear || a.kind == AxisSpec::Kind::Log) j["count"] = a.count;
        axes.push_back(std::move(j));
    }
    return {{"axes", axes},
            {"seeds", d.seeds},
            {"samples", d.samples},
            {"sample_seed", d.sampleSeed},
            {"objective",
             {{"metric", d.objective.metric},
              {"stat", d.objective.stat},
              {"lower_is_better", d.objective.lowerIsBetter}}},
            {"halving",
             {{"enabled", d.halving.enabled},
              {"eta", d.halving.eta},
              {"min_iterations", d.halving.minIterations}}},
            {"fit", {{"x", d.fitX}, {"y", d.fitY}}}};
}

std::optional<SweepDesign> designFromJson(const nlohmann::json& j, std::string* error) {
    try {
        SweepDesign d;
        for (const auto& a : j.at("axes")) {
            AxisSpec axis;
            axis.key = a.at("key").get<std::string>();
            const std::string kind = a.at("kind").get<std::string>();
            if (kind == "list") axis.kind = AxisSpec::Kind::List;
            else if (kind == "lin") axis.kind = AxisSpec::Kind::Linear;
            else if (kind == "log") axis.kind = AxisSpec::Kind::Log;
            else if (kind == "rand") axis.kind = AxisSpec::Kind::Random;
            else throw std::runtime_error("axis kind '" + kind + "' is not list, lin, log or rand");
            if (a.contains("values")) axis.values = a["values"].get<std::vector<std::string>>();
            axis.lo = a.value("lo", 0.0);
            axis.hi = a.value("hi", 0.0);
            axis.count = a.value("count", 0);
            if (!ParamRegistry::instance().find(axis.key))
                throw std::runtime_error("unknown key '" + axis.key + "'");
            d.axes.push_back(std::move(axis));
        }
        d.seeds = j.at("seeds").get<int>();
        d.samples = j.value("samples", 0);
        d.sampleSeed = j.value("sample_seed", std::uint64_t{1});
        const auto& o = j.at("objective");
        d.objective.metric = o.value("metric", "");
        d.objective.stat = o.value("stat", "floor");
        d.objective.lowerIsBetter = o.value("lower_is_better", true);
        if (j.contains("halving")) {
            const auto& h = j["halving"];
            d.halving.enabled = h.value("enabled", false);
            d.halving.eta = h.value("eta", 3);
            d.halving.minIterations = h.value("min_iterations", 0L);
        }
        if (j.contains("fit")) {
            d.fitX = j["fit"].value("x", "");
            d.fitY = j["fit"].value("y", "");
        }
        return d;
    } catch (const std::exception& e) {
        if (error) *error = std::string("sweep design: ") + e.what();
        return std::nullopt;
    }
}

}  // namespace ade
