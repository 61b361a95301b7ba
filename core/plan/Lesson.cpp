#include "plan/Lesson.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "experiments/ExperimentRegistry.h"
#include "io/JsonText.h"

namespace ade {

namespace {

const char* const kTopKeys = "name, title, description, steps";
const char* const kStepKeys = "title, caption, preset, config, set, highlight, pause";

// "step 2 ("Norms drift")": how every message about a step begins (1-based, as a person counts).
std::string stepLabel(std::size_t index, const std::string& title) {
    std::string s = "step " + std::to_string(index + 1);
    if (!title.empty()) s += " (\"" + title + "\")";
    return s;
}

std::string jsonTypeName(const nlohmann::json& v) {
    return v.is_null() ? "null" : std::string(v.type_name());
}

bool readText(const std::filesystem::path& file, std::string* text, std::string* error) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        *error = file.string() + ": is a directory, not a JSON file";
        return false;
    }
    errno = 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        const int e = errno;
        *error = file.string() + ": cannot open file: " + (e ? std::strerror(e) : "not readable");
        return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    *text = ss.str();
    return true;
}

// A non-empty string member, or an error naming it.
bool stringMember(const nlohmann::json& obj, const char* key, bool required, std::string* out,
                  std::string* error) {
    if (!obj.contains(key)) {
        if (required) *error = "needs \"" + std::string(key) + "\" (a non-empty string)";
        return !required;
    }
    const auto& v = obj.at(key);
    if (!v.is_string() || v.get<std::string>().empty()) {
        *error = "\"" + std::string(key) + "\" must be a non-empty string, not " +
                 (v.is_string() ? std::string("an empty one") : jsonTypeName(v));
        return false;
    }
    *out = v.get<std::string>();
    return true;
}

// One step's shape; `error` without the step prefix (the caller adds it).
bool parseStep(const nlohmann::json& s, LessonStep& step, std::string* error) {
    if (!s.is_object()) {
        *error = "must be an object, not " + jsonTypeName(s);
        return false;
    }
    // The title first, so that the other messages can name the step by it.
    if (s.contains("title") && s.at("title").is_string()) step.title = s.at("title").get<std::string>();
    static const std::set<std::string> known = {"title",  "caption",   "preset", "config",
                                                "set",    "highlight", "pause"};
    for (auto it = s.begin(); it != s.end(); ++it)
        if (!known.count(it.key())) {
            *error = "unknown key \"" + it.key() + "\"; a step has: " + kStepKeys;
            return false;
        }
    if (!stringMember(s, "title", true, &step.title, error)) return false;
    if (!stringMember(s, "caption", true, &step.caption, error)) return false;
    const bool hasPreset = s.contains("preset"), hasConfig = s.contains("config");
    if (hasPreset == hasConfig) {
        *error = hasPreset ? "has both \"preset\" and \"config\"; give one"
                           : "needs \"preset\" (a preset's name) or \"config\" (its keys)";
        return false;
    }
    if (hasPreset && !stringMember(s, "preset", true, &step.preset, error)) return false;
    if (hasConfig) {
        if (!s.at("config").is_object()) {
            *error = "\"config\" must be an object of keys (or a plan with \"config\" and "
                     "\"runs\"), not " + jsonTypeName(s.at("config"));
            return false;
        }
        step.config = s.at("config");
    }
    if (s.contains("set")) {
        const auto& set = s.at("set");
        if (!set.is_object()) {
            *error = "\"set\" must be an object {\"key\": value}, not " + jsonTypeName(set);
            return false;
        }
        for (auto it = set.begin(); it != set.end(); ++it) {
            const auto& v = it.value();
            if (!v.is_string() && !v.is_number() && !v.is_boolean()) {
                *error = "\"set\": the value of \"" + it.key() +
                         "\" must be a number, string or true/false (write nested keys with a "
                         "dot: \"data.n\"), not " + jsonTypeName(v);
                return false;
            }
            step.set.push_back(it.key() + "=" + (v.is_string() ? v.get<std::string>() : v.dump()));
        }
    }
    if (s.contains("highlight")) {
        const auto& h = s.at("highlight");
        if (!h.is_object()) {
            *error = "\"highlight\" must be an object with \"chart\", \"run\" or \"claim\", not " +
                     jsonTypeName(h);
            return false;
        }
        for (auto it = h.begin(); it != h.end(); ++it)
            if (it.key() != "chart" && it.key() != "run" && it.key() != "claim") {
                *error = "unknown key \"highlight." + it.key() + "\"; it has: chart, run, claim";
                return false;
            }
        std::string e;
        if (!stringMember(h, "chart", false, &step.highlightChart, &e) ||
            !stringMember(h, "run", false, &step.highlightRun, &e) ||
            !stringMember(h, "claim", false, &step.highlightClaim, &e)) {
            *error = "in \"highlight\": " + e;
            return false;
        }
    }
    if (s.contains("pause")) {
        const auto& p = s.at("pause");
        const bool ok = p.is_object() && p.size() == 1 &&
                        (p.contains("iteration") || p.contains("claim"));
        if (!ok) {
            *error = "\"pause\" must be {\"iteration\": N} or {\"claim\": \"id\"}";
            return false;
        }
        if (p.contains("iteration")) {
            const auto& it = p.at("iteration");
            if (!it.is_number_integer() || it.get<long long>() < 1) {
                *error = "\"pause.iteration\" must be a whole number ≥ 1, not " + it.dump();
                return false;
            }
            step.pauseIteration = static_cast<long>(it.get<long long>());
        } else {
            std::string e;
            if (!stringMember(p, "claim", true, &step.pauseClaim, &e)) {
                *error = "in \"pause\": " + e;
                return false;
            }
        }
    }
    return true;
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s.empty() ? "none" : s;
}

}  // namespace

std::optional<Lesson> parseLesson(const std::string& text, const std::string& sourceName,
                                  LessonError* error) {
    auto fail = [&](const std::string& m) -> std::optional<Lesson> {
        if (error) error->message = sourceName + ": " + m;
        return std::nullopt;
    };
    JsonTextError jsonError;
    const auto parsed = parseJsonText(text, &jsonError);
    if (!parsed) return fail(jsonError.message);
    const nlohmann::json& doc = *parsed;
    if (!doc.is_object()) return fail("expected a JSON object at the top level");
    for (auto it = doc.begin(); it != doc.end(); ++it)
        if (it.key() != "name" && it.key() != "title" && it.key() != "description" &&
            it.key() != "steps")
            return fail("unknown top-level key \"" + it.key() + "\"; a lesson has: " + kTopKeys);
    Lesson lesson;
    lesson.name = sourceName;
    std::string e;
    if (!stringMember(doc, "name", false, &lesson.name, &e) ||
        !stringMember(doc, "title", true, &lesson.title, &e) ||
        !stringMember(doc, "description", false, &lesson.description, &e))
        return fail(e);
    if (!doc.contains("steps") || !doc.at("steps").is_array() || doc.at("steps").empty())
        return fail("needs \"steps\", a non-empty array of steps");
    const auto& steps = doc.at("steps");
    for (std::size_t i = 0; i < steps.size(); ++i) {
        LessonStep step;
        if (!parseStep(steps[i], step, &e)) return fail(stepLabel(i, step.title) + ": " + e);
        lesson.steps.push_back(std::move(step));
    }
    return lesson;
}

std::optional<Lesson> loadLessonFile(const std::filesystem::path& file, LessonError* error) {
    std::string text, e;
    if (!readText(file, &text, &e)) {
        if (error) error->message = e;
        return std::nullopt;
    }
    return parseLesson(text, file.stem().string(), error);
}

std::optional<Plan> stepPlan(const Lesson& lesson, std::size_t index,
                             const PresetLibrary& presets, LessonError* error) {
    if (index >= lesson.steps.size()) {
        if (error)
            error->message = lesson.name + ": no step " + std::to_string(index + 1) + " (it has " +
                             std::to_string(lesson.steps.size()) + ")";
        return std::nullopt;
    }
    const LessonStep& step = lesson.steps[index];
    auto fail = [&](const std::string& m) -> std::optional<Plan> {
        if (error) error->message = lesson.name + ": " + stepLabel(index, step.title) + ": " + m;
        return std::nullopt;
    };
    PlanError pe;
    std::optional<Plan> plan;
    if (!step.preset.empty()) {
        if (!presets.find(step.preset))
            return fail("unknown preset \"" + step.preset + "\"; available: " + presets.names());
        plan = presets.load(step.preset, step.set, &pe);
    } else {
        plan = parsePlan(step.config.dump(), lesson.name + "-step" + std::to_string(index + 1),
                         step.set, &pe);
    }
    if (!plan) return fail(pe.message);
    if (plan->runs.empty()) return fail("its plan has no runs");

    std::vector<std::string> labels;
    for (const auto& r : plan->runs)
        labels.push_back(r.name);
    if (!step.highlightChart.empty()) {
        if (plan->sweep)
            return fail("highlights chart \"" + step.highlightChart +
                        "\", but its plan is a sweep: the sweep plot is what is shown");
        std::vector<std::string> ids;
        for (const auto& r : plan->runs)
            for (const auto& c : chartsOf(r.config.experiment()))
                if (std::find(ids.begin(), ids.end(), c.id) == ids.end()) ids.push_back(c.id);
        if (std::find(ids.begin(), ids.end(), step.highlightChart) == ids.end())
            return fail("highlights chart \"" + step.highlightChart +
                        "\", which its experiment does not draw; its charts: " + joined(ids));
    }
    if (!step.highlightRun.empty()) {
        if (plan->sweep)
            return fail("highlights run \"" + step.highlightRun +
                        "\", but its plan is a sweep (every grid point is a run)");
        if (std::find(labels.begin(), labels.end(), step.highlightRun) == labels.end())
            return fail("highlights run \"" + step.highlightRun + "\", which its plan does not " +
                        "have; its runs: " + joined(labels));
    }
    std::vector<std::string> claimIds;
    for (const auto& c : plan->claims)
        claimIds.push_back(c.id);
    for (const std::string* id : {&step.highlightClaim, &step.pauseClaim}) {
        if (id->empty() ||
            std::find(claimIds.begin(), claimIds.end(), *id) != claimIds.end())
            continue;
        return fail("names claim \"" + *id + "\", which its plan does not declare; its claims: " +
                    joined(claimIds));
    }
    if (!step.pauseClaim.empty() && plan->sweep)
        return fail("pauses when claim \"" + step.pauseClaim +
                    "\" holds, but its plan is a sweep (a sweep has nothing to pause)");
    if (step.pauseIteration > 0) {
        if (plan->sweep) return fail("pauses at an iteration, but its plan is a sweep");
        long longest = 0;
        for (const auto& r : plan->runs)
            longest = std::max<long>(longest, static_cast<long>(r.config.getInt("iterations")));
        if (step.pauseIteration > longest)
            return fail("pauses at iteration " + std::to_string(step.pauseIteration) +
                        ", after its runs end (iterations = " + std::to_string(longest) + ")");
    }
    return plan;
}

std::optional<LessonError> checkLesson(const Lesson& lesson, const PresetLibrary& presets) {
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        LessonError e;
        if (!stepPlan(lesson, i, presets, &e)) return e;
    }
    return std::nullopt;
}

std::vector<std::filesystem::path> LessonLibrary::defaultDirectories(const std::string& argv0) {
    // The preset folders' siblings: <resources>/presets -> <resources>/lessons.
    std::vector<std::filesystem::path> dirs;
    for (const auto& d : PresetLibrary::defaultDirectories(argv0))
        dirs.push_back(d.parent_path() / "lessons");
    return dirs;
}

LessonLibrary::LessonLibrary(std::vector<std::filesystem::path> dirs) {
    std::set<std::string> seen;
    for (const auto& dir : dirs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) continue;
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(dir, ec))
            if (e.path().extension() == ".json") files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) {
            Entry entry{f.stem().string(), f.stem().string(), "", f};
            LessonError err;
            if (const auto lesson = loadLessonFile(f, &err)) {
                entry.name = lesson->name;
                entry.title = lesson->title;
                entry.description = lesson->description;
            } else {
                entry.description = err.message;  // listed, so that its error can be seen
            }
            if (seen.insert(entry.name).second) entries_.push_back(entry);
        }
    }
}

const LessonLibrary::Entry* LessonLibrary::find(const std::string& name) const {
    for (const auto& e : entries_)
        if (e.name == name) return &e;
    return nullptr;
}

std::optional<Lesson> LessonLibrary::load(const std::string& name, LessonError* error) const {
    const Entry* e = find(name);
    if (!e) {
        std::vector<std::string> names;
        for (const auto& x : entries_)
            names.push_back(x.name);
        if (error) error->message = "unknown lesson \"" + name + "\"; available: " + joined(names);
        return std::nullopt;
    }
    return loadLessonFile(e->file, error);
}

}  // namespace ade
