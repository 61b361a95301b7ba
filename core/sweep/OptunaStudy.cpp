// An Optuna study as a sweep (OptunaStudy.h): the journal file's reader, a param's text, and
// the study as the SweepFolder the sweep views show. The SQLite reader is OptunaSqlite.cpp.
#include "sweep/OptunaStudy.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>

#include "output/RunOutput.h"

namespace ade {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Python's json.dumps writes NaN, Infinity and -Infinity, which JSON has not: outside strings
// they become null, "inf" and "-inf" (numberOf reads those back).
std::string pythonJsonToJson(const std::string& line) {
    std::string out;
    out.reserve(line.size());
    bool inString = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < line.size()) out += line[++i];
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') inString = true;
        if (line.compare(i, 3, "NaN") == 0) {
            out += "null";
            i += 2;
        } else if (line.compare(i, 9, "-Infinity") == 0) {
            out += "\"-inf\"";
            i += 8;
        } else if (line.compare(i, 8, "Infinity") == 0) {
            out += "\"inf\"";
            i += 7;
        } else {
            out += c;
        }
    }
    return out;
}

std::optional<double> numberOf(const nlohmann::json& v) {
    if (v.is_number()) return v.get<double>();
    if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
    if (v == "inf") return INFINITY;
    if (v == "-inf") return -INFINITY;
    return std::nullopt;
}

const char* journalState(int s) {
    static const char* names[] = {"RUNNING", "COMPLETE", "PRUNED", "FAIL", "WAITING"};
    return s >= 0 && s <= 4 ? names[s] : "UNKNOWN";
}

std::string jsonText(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace

bool isOptunaStorageName(const std::filesystem::path& path) {
    const std::string ext = lower(path.extension().string());
    return ext == ".db" || ext == ".sqlite" || ext == ".sqlite3" || ext == ".log" ||
           ext == ".journal";
}

bool looksLikeOptunaStorage(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    char head[16] = {};
    in.read(head, sizeof head);
    if (in.gcount() == 16 && std::string(head, 16) == std::string("SQLite format 3\0", 16))
        return true;
    // A journal's first line is one operation: {"op_code": 0, …} (a session's first line, as
    // written, is a lone "{").
    in.clear();
    in.seekg(0);
    std::string line;
    if (!std::getline(in, line) || line.empty() || line[0] != '{') return false;
    const auto op = nlohmann::json::parse(pythonJsonToJson(line), nullptr, false);
    return op.is_object() && op.contains("op_code");
}

std::string optunaParamText(double internal, const std::string& distributionJson) {
    const auto d = nlohmann::json::parse(distributionJson, nullptr, false);
    const std::string name = d.is_object() ? d.value("name", std::string()) : "";
    if (name == "CategoricalDistribution" && d.contains("attributes") &&
        d["attributes"].contains("choices") && d["attributes"]["choices"].is_array()) {
        const auto& choices = d["attributes"]["choices"];
        const auto i = static_cast<long long>(std::llround(internal));
        if (i >= 0 && i < static_cast<long long>(choices.size()) && std::isfinite(internal))
            return jsonText(choices[static_cast<std::size_t>(i)]);
    }
    if ((name == "IntDistribution" || name == "IntUniformDistribution" ||
         name == "IntLogUniformDistribution") &&
        std::isfinite(internal))
        return std::to_string(std::llround(internal));
    // A float to 6 significant digits (as the sweep's log: values): TPE's 0.4463640106567031
    // reads 0.446364 in the table and the views, and Apply to form gives that.
    if (!std::isfinite(internal)) return formatNumber(internal);
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", internal);
    return text;
}

std::optional<std::vector<OptunaStudy>> readOptunaJournal(const std::filesystem::path& path,
                                                          std::string* error) {
    const std::string where = path.string() + ": ";
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = where + "cannot read it";
        return std::nullopt;
    }
    std::vector<OptunaStudy> studies;
    std::vector<std::optional<std::size_t>> studyOfId;  // journal ids are 0-based, in order
    std::vector<std::pair<std::size_t, std::size_t>> trialOfId;
    std::string line;
    long lineNo = 0;
    auto trial = [&](const nlohmann::json& op) -> OptunaTrial* {
        const long id = op.value("trial_id", -1L);
        if (id < 0 || id >= static_cast<long>(trialOfId.size())) return nullptr;
        const auto [s, t] = trialOfId[static_cast<std::size_t>(id)];
        return s == SIZE_MAX ? nullptr : &studies[s].trials[t];
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const auto op = nlohmann::json::parse(pythonJsonToJson(line), nullptr, false);
        if (op.is_discarded() || !op.is_object() || !op.contains("op_code") ||
            !op["op_code"].is_number_integer()) {
            // A last line cut short by a writer that is still writing is skipped.
            if (in.peek() == EOF && lineNo > 1) break;
            *error = where + "line " + std::to_string(lineNo) +
                     " is not an Optuna journal operation (a JSON object with op_code)";
            return std::nullopt;
        }
        switch (op["op_code"].get<int>()) {
        case 0: {  // create study
            OptunaStudy s;
            s.name = op.value("study_name", std::string());
            const auto dirs = op.value("directions", nlohmann::json::array());
            s.objectives = std::max<int>(1, static_cast<int>(dirs.size()));
            s.maximize = !dirs.empty() && dirs[0] == 2;
            studyOfId.push_back(studies.size());
            studies.push_back(std::move(s));
            break;
        }
        case 1: {  // delete study
            const long id = op.value("study_id", -1L);
            if (id >= 0 && id < static_cast<long>(studyOfId.size()))
                studyOfId[static_cast<std::size_t>(id)].reset();
            break;
        }
        case 4: {  // create trial (a template trial may bring its state, params, values…)
            const long sid = op.value("study_id", -1L);
            if (sid < 0 || sid >= static_cast<long>(studyOfId.size()) ||
                !studyOfId[static_cast<std::size_t>(sid)]) {
                trialOfId.emplace_back(SIZE_MAX, 0);  // keeps the ids aligned
                break;
            }
            OptunaStudy& st = studies[*studyOfId[static_cast<std::size_t>(sid)]];
            OptunaTrial t;
            t.number = static_cast<int>(st.trials.size());
            t.state = journalState(op.value("state", 0));
            const auto dists = op.value("distributions", nlohmann::json::object());
            const auto params = op.value("params", nlohmann::json::object());
            for (const auto& [k, v] : params.items()) {
                const std::string dist = dists.contains(k) ? jsonText(dists[k]) : "";
                // Template params are external values: a categorical choice as itself.
                if (!v.is_number()) t.params.emplace_back(k, jsonText(v));
                else t.params.emplace_back(k, optunaParamText(v.get<double>(),
                                              dist.find("Categorical") != std::string::npos
                                                  ? "" : dist));
            }
            if (const auto vs = op.value("values", nlohmann::json()); vs.is_array() && !vs.empty())
                t.value = numberOf(vs[0]);
            else if (op.contains("value")) t.value = numberOf(op["value"]);
            const auto steps = op.value("intermediate_values", nlohmann::json::object());
            for (const auto& [k, v] : steps.items())
                t.intermediate.emplace_back(std::stol(k), numberOf(v).value_or(NAN));
            t.userAttrs = op.value("user_attrs", nlohmann::json::object());
            trialOfId.emplace_back(*studyOfId[static_cast<std::size_t>(sid)], st.trials.size());
            st.trials.push_back(std::move(t));
            break;
        }
        case 5:  // set param (internal value, distribution as JSON text)
            if (OptunaTrial* t = trial(op))
                t->params.emplace_back(
                    op.value("param_name", std::string()),
                    optunaParamText(numberOf(op.value("param_value_internal", nlohmann::json()))
                                        .value_or(NAN),
                                    jsonText(op.value("distribution", nlohmann::json("")))));
            break;
        case 6:  // set state (and values)
            if (OptunaTrial* t = trial(op)) {
                t->state = journalState(op.value("state", 0));
                if (const auto vs = op.value("values", nlohmann::json()); vs.is_array() &&
                                                                          !vs.empty())
                    t->value = numberOf(vs[0]);
            }
            break;
        case 7:  // intermediate value
            if (OptunaTrial* t = trial(op)) {
                const long step = op.value("step", 0L);
                const double v =
                    numberOf(op.value("intermediate_value", nlohmann::json())).value_or(NAN);
                auto& iv = t->intermediate;
                const auto it = std::find_if(iv.begin(), iv.end(),
                                             [&](const auto& p) { return p.first == step; });
                if (it != iv.end()) it->second = v;
                else iv.emplace_back(step, v);
            }
            break;
        case 8:  // user attributes
            if (OptunaTrial* t = trial(op)) {
                // (bound to a name: items() of a temporary would outlive it)
                const auto attrs = op.value("user_attr", nlohmann::json::object());
                for (const auto& [k, v] : attrs.items())
                    t->userAttrs[k] = v;
            }
            break;
        default:  // 2, 3 study attributes, 9 system attributes: not shown
            break;
        }
    }
    if (lineNo == 0) {
        *error = where + "empty: not an Optuna storage";
        return std::nullopt;
    }
    std::vector<OptunaStudy> live;
    for (const auto& id : studyOfId)
        if (id) live.push_back(std::move(studies[*id]));
    for (auto& s : live)
        for (auto& t : s.trials)
            std::sort(t.intermediate.begin(), t.intermediate.end());
    return live;
}

std::optional<std::vector<OptunaStudy>> readOptunaStorage(const std::filesystem::path& path,
                                                          std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = path.string() + ": cannot read it (no such file, or no permission)";
        return std::nullopt;
    }
    char head[16] = {};
    in.read(head, sizeof head);
    if (in.gcount() == 16 && std::string(head, 16) == std::string("SQLite format 3\0", 16))
        return readOptunaSqlite(path, error);
    if (in.gcount() > 0 && head[0] == '{') return readOptunaJournal(path, error);
    *error = path.string() +
             ": not an Optuna storage (neither an SQLite database nor an Optuna journal file)";
    return std::nullopt;
}

SweepFolder sweepFolderOfStudy(const OptunaStudy& study, const std::filesystem::path& path) {
    SweepFolder f;
    f.dir = path;
    f.planName = study.name;
    f.design.objective = {"value", "final", !study.maximize};
    // One axis per param, in the order the trials first name them.
    for (const auto& t : study.trials)
        for (const auto& param : t.params) {
            const std::string& k = param.first;  // a name, not a binding: clang 14 captures no bindings
            if (std::none_of(f.design.axes.begin(), f.design.axes.end(),
                             [&](const AxisSpec& a) { return a.key == k; })) {
                AxisSpec a;
                a.key = k;
                f.design.axes.push_back(a);
            }
        }
    for (const auto& t : study.trials) {
        PlannedRun run;
        run.name = "trial_" + std::to_string(t.number);
        run.label = study.name;
        // The helper's config (its keys as --set takes them), then the params.
        nlohmann::json cfg = t.userAttrs.value("config", nlohmann::json::object());
        if (cfg.is_string()) cfg = nlohmann::json::parse(cfg.get<std::string>(), nullptr, false);
        if (cfg.is_object())
            for (const auto& [k, v] : cfg.items())
                (void)run.config.setText(k, jsonText(v));
        for (const auto& a : f.design.axes)
            for (const auto& [k, v] : t.params)
                if (k == a.key) {
                    run.varied.emplace_back(k, v);
                    (void)run.config.setText(k, v);
                    auto& values = f.design.axes[&a - f.design.axes.data()].values;
                    if (std::find(values.begin(), values.end(), v) == values.end())
                        values.push_back(v);
                }
        const long lastStep = t.intermediate.empty() ? 0 : t.intermediate.back().first;
        // A pruned trial ran to its last report (the helper's pruned_at): its budget.
        if (t.state == "PRUNED") {
            const auto at = t.userAttrs.value("pruned_at", nlohmann::json());
            const long stop = at.is_number() ? at.get<long>() : lastStep;
            if (stop > 0) (void)run.config.setText("iterations", std::to_string(stop));
        } else if (!cfg.is_object() || !cfg.contains("iterations")) {
            if (lastStep > 0) (void)run.config.setText("iterations", std::to_string(lastStep));
        }
        const int index = static_cast<int>(f.tasks.size());
        f.tasks.push_back(run);
        f.trialStates[index] = t.state;
        if (t.state != "COMPLETE" && t.state != "PRUNED" && t.state != "FAIL") {
            f.missing.push_back(index);
            continue;
        }
        RunOutcome o;
        o.run = run;
        RunResult& r = o.result;
        // "value" holds the trial's value on every row: drawn, a level line beside the curve
        // (a lone point on the last row would not show); final = best = floor = the value.
        r.history.columns = {"iteration", "objective", "value"};
        const double value = t.value ? *t.value : NAN;
        for (const auto& [step, v] : t.intermediate)
            r.history.rows.push_back({static_cast<double>(step), v, value});
        if (t.value && r.history.rows.empty())
            r.history.rows.push_back(
                {static_cast<double>(run.config.getInt("iterations")), NAN, value});
        r.iterationsDone = r.history.rows.empty()
                               ? 0
                               : static_cast<long>(r.history.rows.back()[0]);
        if (t.state == "FAIL") {
            r.status = RunStatus::Failed;
            r.message = "the Optuna trial failed";
            if (t.userAttrs.contains("status")) r.message += " (" + t.userAttrs["status"].dump() + ")";
            f.failed.push_back(index);
        } else if (t.state == "PRUNED") {
            r.stop = "pruned";
            r.message = "pruned at iteration " + std::to_string(r.iterationsDone);
        }
        f.finished.push_back(std::move(o));
    }
    f.commandLine = "optuna study " + study.name;
    return f;
}

std::optional<SweepFolder> readOptunaStudy(const std::filesystem::path& path,
                                           const std::string& study, std::string* error,
                                           std::vector<std::string>* names) {
    const auto studies = readOptunaStorage(path, error);
    if (!studies) return std::nullopt;
    if (names) {
        names->clear();
        for (const auto& s : *studies)
            names->push_back(s.name);
    }
    if (studies->empty()) {
        *error = path.string() + ": an Optuna storage without a study";
        return std::nullopt;
    }
    for (const auto& s : *studies)
        if (study.empty() || s.name == study) return sweepFolderOfStudy(s, path);
    *error = path.string() + ": no study named '" + study + "'";
    return std::nullopt;
}

}  // namespace ade
