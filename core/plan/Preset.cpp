#include "plan/Preset.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "experiments/ExperimentRegistry.h"
#include "io/Files.h"
#include "io/JsonText.h"

namespace ade {

namespace {

std::string valueText(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

bool isPlanDocument(const nlohmann::json& doc) {
    return doc.contains("config") || doc.contains("runs") || doc.contains("sweep");
}

// Parses a "sweep" object into `sweep` (fields present replace the ones given).
std::optional<std::string> parseSweep(const nlohmann::json& s, SweepSpec& sweep,
                                      const std::string& where) {
    if (!s.is_object()) return "'" + where + "' must be an object";
    if (s.contains("vary")) {
        if (!s.at("vary").is_object()) return "'" + where + ".vary' must be an object";
        sweep.vary.clear();
        for (auto it = s.at("vary").begin(); it != s.at("vary").end(); ++it) {
            if (!it.value().is_array() || it.value().empty())
                return "'" + where + ".vary." + it.key() + "' must be a non-empty array";
            std::vector<std::string> values;
            for (const auto& v : it.value())
                values.push_back(valueText(v));
            sweep.vary.emplace_back(it.key(), values);
        }
    }
    if (s.contains("seeds")) {
        if (!s.at("seeds").is_number_integer() || s.at("seeds").get<long>() < 1 ||
            s.at("seeds").get<long>() > 10000)
            return "'" + where + ".seeds' must be an integer in [1, 10000]";
        sweep.seeds = s.at("seeds").get<int>();
    }
    if (s.contains("fit")) {
        sweep.fitX = s.at("fit").value("x", "");
        sweep.fitY = s.at("fit").value("y", "excess_risk");
    }
    return std::nullopt;
}

std::optional<std::string> parseSeeds(const nlohmann::json& v, int& seeds, const std::string& where) {
    if (!v.is_number_integer() || v.get<long>() < 1 || v.get<long>() > 100)
        return "'" + where + "' must be an integer in [1, 100]";
    seeds = v.get<int>();
    return std::nullopt;
}

// Claims name runs of the plan, metrics its experiments describe, and a swept key.
std::optional<std::string> checkClaims(const Plan& plan) {
    for (const auto& c : plan.claims) {
        const std::string where = "claim '" + c.id + "': ";
        const RunSpec* run = nullptr;
        for (const auto& r : plan.runs) {
            if (r.name == c.run) run = &r;
        }
        if (!run) return where + "\"run\" '" + c.run + "' is not a run of this preset";
        if (!c.other.empty()) {
            bool found = false;
            for (const auto& r : plan.runs)
                found = found || r.name == c.other;
            if (!found) return where + "\"other\" '" + c.other + "' is not a run of this preset";
        }
        bool described = false;
        for (const auto& m : metricsOf(run->config.experiment()))
            described = described || m.column == c.metric;
        if (!described)
            return where + "metric '" + c.metric + "' is not a metric of Experiment " +
                   run->config.experiment();
        if (c.check == ClaimCheck::Law) {
            const LawInfo* law = findLaw(run->config.experiment(), c.law);
            if (!law)
                return where + "\"law\" '" + c.law + "' is not a law of Experiment " +
                       run->config.experiment();
            if (law->metric != c.metric)
                return where + "the law " + c.law + " predicts the rate of '" + law->metric +
                       "', not of '" + c.metric + "'";
        }
        if (c.check == ClaimCheck::Slope) {
            if (!plan.sweep) return where + "a slope needs the preset's \"sweep\"";
            bool swept = false;
            for (const auto& [k, v] : plan.sweep->vary)
                swept = swept || k == c.x;
            if (!swept) return where + "\"x\" '" + c.x + "' is not a key the sweep varies";
        } else if (plan.sweep) {
            return where + "a preset with a sweep can only check slopes";
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<Plan> quickPlan(const Plan& plan, PlanError* error) {
    auto fail = [&](const std::string& m) -> std::optional<Plan> {
        if (error) error->message = plan.name + ": quick: " + m;
        return std::nullopt;
    };
    if (plan.quick.is_null()) return plan;
    if (plan.quick.is_string()) {
        if (plan.quick.get<std::string>().empty())
            return fail("a string must say why the preset has no quick sizes");
        return plan;
    }
    if (!plan.quick.is_object())
        return fail("must be an object of keys, or a string saying why there are none");
    Plan q = plan;
    nlohmann::json keys = nlohmann::json::object();
    try {
        for (auto it = plan.quick.begin(); it != plan.quick.end(); ++it) {
            if (it.key() == "seeds") {
                if (auto e = parseSeeds(it.value(), q.seeds, "quick.seeds")) return fail(*e);
            } else if (it.key() == "sweep") {
                if (!q.sweep) return fail("the preset has no sweep to shrink");
                if (auto e = parseSweep(it.value(), *q.sweep, "quick.sweep")) return fail(*e);
            } else {
                keys[it.key()] = it.value();
            }
        }
        for (auto& r : q.runs) {
            if (auto e = r.config.apply(keys)) return fail("run '" + r.name + "': " + e->message);
            const auto errors = validateConfig(r.config);
            if (!errors.empty()) return fail("run '" + r.name + "': " + errors.front().message);
        }
    } catch (const nlohmann::json::exception& e) {
        return fail(std::string("wrong type: ") + e.what());
    }
    if (auto e = checkClaims(q)) return fail(*e);
    return q;
}

std::optional<Plan> controlPlan(const Plan& plan, const ClaimSpec& claim, PlanError* error) {
    auto fail = [&](const std::string& m) -> std::optional<Plan> {
        if (error) error->message = plan.name + ": claim '" + claim.id + "': control: " + m;
        return std::nullopt;
    };
    if (!claim.control) return fail("the claim declares none");
    const ClaimControl& ctl = *claim.control;
    Plan q = plan;
    q.claims = {controlledClaim(claim)};
    // Runs are paired by seed: a control that moved a run to other seeds would compare nothing.
    bool movesSeed = ctl.config.contains("seed");
    for (auto it = ctl.runs.begin(); it != ctl.runs.end(); ++it)
        movesSeed = movesSeed || (it.value().is_object() && it.value().contains("seed"));
    if (movesSeed)
        return fail(
            "cannot set \"seed\": a claim pairs its runs by seed (change the start with "
            "init or init_scale instead)");
    try {
        for (auto it = ctl.runs.begin(); it != ctl.runs.end(); ++it) {
            bool found = false;
            for (const auto& r : q.runs)
                found = found || r.name == it.key();
            if (!found) return fail("\"runs\": '" + it.key() + "' is not a run of this preset");
        }
        for (auto& r : q.runs) {
            if (auto e = r.config.apply(ctl.config))
                return fail("run '" + r.name + "': " + e->message);
            if (ctl.runs.contains(r.name))
                if (auto e = r.config.apply(ctl.runs.at(r.name)))
                    return fail("run '" + r.name + "': " + e->message);
            const auto errors = validateConfig(r.config);
            if (!errors.empty()) return fail("run '" + r.name + "': " + errors.front().message);
        }
    } catch (const nlohmann::json::exception& e) {
        return fail(std::string("wrong type: ") + e.what());
    }
    // Only the runs the claim compares, and the runs they start from.
    std::set<std::string> keep = {claim.run};
    if (!claim.other.empty()) keep.insert(claim.other);
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& r : q.runs) {
            if (!keep.count(r.name) || r.config.getString("init") != "same") continue;
            const std::string from = r.config.getString("init_from");
            bool exists = false;
            for (const auto& o : q.runs)
                exists = exists || o.name == from;
            if (!exists || from == r.name)
                return fail("run '" + r.name + "' has init = same but init_from = '" + from +
                            "' names no other run of this plan");
            grew = keep.insert(from).second || grew;
        }
    }
    q.runs.erase(std::remove_if(q.runs.begin(), q.runs.end(),
                                [&](const RunSpec& r) { return !keep.count(r.name); }),
                 q.runs.end());
    if (auto e = checkClaims(q)) return fail(*e);
    return q;
}

std::optional<ConfigError> applyOverrides(Config& config, const std::vector<std::string>& sets) {
    for (const auto& s : sets) {
        std::string key, value;
        if (!splitAssignment(s, key, value))
            return ConfigError{"", s, "malformed --set '" + s + "': expected KEY=VALUE"};
        if (auto e = config.setText(key, value)) return e;
    }
    return std::nullopt;
}

std::optional<Plan> parsePlan(const std::string& text, const std::string& sourceName,
                              const std::vector<std::string>& overrides, PlanError* error,
                              std::vector<std::string>* unknownKeys) {
    auto fail = [&](const std::string& m) -> std::optional<Plan> {
        if (error) error->message = sourceName + ": " + m;
        return std::nullopt;
    };
    JsonTextError jsonError;
    const auto parsed = parseJsonText(text, &jsonError);
    if (!parsed) return fail(jsonError.message);
    const nlohmann::json& doc = *parsed;
    if (!doc.is_object()) return fail("expected a JSON object at the top level");

    Plan plan;
    plan.name = sourceName;
    Config base;
    try {
        if (isPlanDocument(doc)) {
            for (auto it = doc.begin(); it != doc.end(); ++it) {
                static const std::set<std::string> known = {
                    "name",  "title", "description", "about",  "config", "runs",
                    "sweep", "seeds", "claims",      "quick", "version"};
                if (!known.count(it.key())) {
                    if (unknownKeys) {
                        unknownKeys->push_back(it.key());
                        continue;
                    }
                    return fail("unknown top-level field '" + it.key() +
                                "'; allowed: name, description, about, config, runs, sweep, seeds, claims, "
                                "quick");
                }
            }
            if (doc.contains("name")) plan.name = doc.at("name").get<std::string>();
            if (doc.contains("description"))
                plan.description = doc.at("description").get<std::string>();
            if (doc.contains("about")) plan.about = doc.at("about").get<std::string>();
            if (doc.contains("config"))
                if (auto e = base.apply(doc.at("config"), unknownKeys)) return fail(e->message);
        } else {
            if (auto e = base.apply(doc, unknownKeys)) return fail(e->message);
        }

        std::vector<std::pair<std::string, nlohmann::json>> runDocs;
        if (doc.contains("runs")) {
            const auto& runs = doc.at("runs");
            if (!runs.is_array() || runs.empty())
                return fail("'runs' must be a non-empty array of {\"name\", \"config\"} objects");
            for (std::size_t i = 0; i < runs.size(); ++i) {
                const auto& r = runs[i];
                if (!r.is_object() || !r.contains("name") || !r.at("name").is_string())
                    return fail("runs[" + std::to_string(i) + "] needs a \"name\" string");
                runDocs.emplace_back(r.at("name").get<std::string>(),
                                     r.value("config", nlohmann::json::object()));
            }
        } else {
            runDocs.emplace_back(isPlanDocument(doc) ? plan.name : "run", nlohmann::json::object());
        }
        std::set<std::string> seen;
        for (const auto& [name, cfg] : runDocs) {
            if (name.empty() || safeName(name) != name)
                return fail("run name '" + name +
                            "' must be non-empty and use only letters, "
                            "digits, '.', '_', '-'");
            if (!seen.insert(name).second) return fail("duplicate run name '" + name + "'");
            RunSpec spec{name, base};
            if (auto e = spec.config.apply(cfg, unknownKeys))
                return fail("run '" + name + "': " + e->message);
            if (auto e = applyOverrides(spec.config, overrides)) return fail(e->message);
            plan.runs.push_back(std::move(spec));
        }
        // init = same: the referenced run must exist in this plan.
        for (const auto& r : plan.runs) {
            if (r.config.getString("init") != "same") continue;
            const std::string from = r.config.getString("init_from");
            if (!seen.count(from))
                return fail("run '" + r.name + "' has init = same but init_from = '" + from +
                            "' names no run of this plan");
            if (from == r.name) return fail("run '" + r.name + "' cannot start from itself");
        }
        for (const auto& r : plan.runs) {
            const auto errors = validateConfig(r.config);
            if (!errors.empty()) return fail("run '" + r.name + "': " + errors.front().message);
        }

        if (doc.contains("sweep")) {
            SweepSpec sweep;
            if (auto e = parseSweep(doc.at("sweep"), sweep, "sweep")) return fail(*e);
            plan.sweep = sweep;
        }
        if (doc.contains("seeds"))
            if (auto e = parseSeeds(doc.at("seeds"), plan.seeds, "seeds")) return fail(*e);
        if (doc.contains("claims")) {
            std::string e;
            auto claims = parseClaims(doc.at("claims"), &e);
            if (!claims) return fail(e);
            plan.claims = std::move(*claims);
            if (auto e2 = checkClaims(plan)) return fail(*e2);
        }
        if (doc.contains("quick")) {
            plan.quick = doc.at("quick");
            PlanError qe;
            if (!quickPlan(plan, &qe)) {
                if (error) *error = qe;
                return std::nullopt;
            }
        }
        // Every control applies to the plan and to its quick sizes.
        PlanError qe;
        const auto quick = quickPlan(plan, &qe);  // checked above
        for (const auto& c : plan.claims) {
            if (!c.control) continue;
            PlanError ce;
            if (!controlPlan(plan, c, &ce) || !quick || !controlPlan(*quick, c, &ce)) {
                if (error) *error = ce;
                return std::nullopt;
            }
        }
    } catch (const nlohmann::json::exception& e) {
        return fail(std::string("wrong type in document: ") + e.what());
    }
    return plan;
}

std::optional<Plan> loadPlanFile(const std::filesystem::path& file,
                                 const std::vector<std::string>& overrides, PlanError* error) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        if (error) error->message = file.string() + ": is a directory, not a JSON file";
        return std::nullopt;
    }
    errno = 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        const int e = errno;
        if (error)
            error->message =
                file.string() + ": cannot open file: " + (e ? std::strerror(e) : "not readable");
        return std::nullopt;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    return parsePlan(ss.str(), file.stem().string(), overrides, error);
}

std::vector<std::filesystem::path> PresetLibrary::defaultDirectories(const std::string& argv0) {
    std::vector<std::filesystem::path> dirs;
    if (const char* env = std::getenv("ADE_RESOURCES"); env && *env)
        dirs.emplace_back(std::filesystem::path(env) / "presets");
    std::error_code ec;
    auto exe = std::filesystem::canonical("/proc/self/exe", ec);
    if (ec && !argv0.empty()) exe = std::filesystem::absolute(argv0, ec);
    // Installed (<prefix>/bin -> <prefix>/share) and build tree (build/app -> build/share, a
    // copy staged by resources/CMakeLists.txt) alike; no path of the source tree is compiled in.
    if (!ec) dirs.push_back(exe.parent_path().parent_path() / "share/attention-explorer/presets");
    return dirs;
}

PresetLibrary::PresetLibrary(std::vector<std::filesystem::path> dirs) : dirs_(dirs) {
    std::set<std::string> seen;
    for (const auto& dir : dirs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) continue;
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(dir, ec))
            if (e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            std::ifstream in(f);
            std::stringstream ss;
            ss << in.rdbuf();
            Entry entry{f.stem().string(), "", f};
            try {
                const auto doc = nlohmann::json::parse(ss.str());
                entry.name = doc.value("name", entry.name);
                entry.description = doc.value("description", "");
            } catch (const nlohmann::json::exception&) {
                entry.description = "(malformed preset file)";
            }
            if (seen.insert(entry.name).second) entries_.push_back(entry);
        }
    }
}

const PresetLibrary::Entry* PresetLibrary::find(const std::string& name) const {
    for (const auto& e : entries_)
        if (e.name == name) return &e;
    return nullptr;
}

std::optional<Plan> PresetLibrary::load(const std::string& name,
                                        const std::vector<std::string>& overrides,
                                        PlanError* error) const {
    const Entry* e = find(name);
    if (!e) {
        if (error) error->message = "unknown preset '" + name + "'; available: " + names();
        return std::nullopt;
    }
    return loadPlanFile(e->file, overrides, error);
}

std::string PresetLibrary::names() const {
    std::string s;
    for (const auto& e : entries_)
        s += (s.empty() ? "" : ", ") + e.name;
    if (!s.empty()) return s;
    std::string where;
    for (const auto& d : dirs_)
        where += (where.empty() ? "" : ", ") + d.string();
    return "none found (looked in " + (where.empty() ? std::string("no folder") : where) +
           "; set ADE_RESOURCES to the folder that holds presets/)";
}

}  // namespace ade
