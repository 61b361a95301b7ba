#include "output/Session.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "io/JsonText.h"
#include "output/RunOutput.h"

namespace ade {

namespace {

nlohmann::json paramsToJson(const ParamSet& p) {
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t i = 0; i < p.size(); ++i) {
        std::vector<double> values(p[i].data(), p[i].data() + p[i].size());  // column-major
        out[p.names[i]] = {
            {"rows", p[i].rows()}, {"cols", p[i].cols()}, {"order", "F"}, {"values", values}};
    }
    return out;
}

nlohmann::json number(double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

struct Reader {
    std::vector<std::string>* warnings;
    std::string error;

    bool fail(const std::string& where, const std::string& what) {
        if (error.empty()) error = where + ": " + what;
        return false;
    }
    void warnUnknown(const nlohmann::json& obj, const std::set<std::string>& known,
                     const std::string& where) {
        for (auto it = obj.begin(); it != obj.end(); ++it)
            if (!known.count(it.key()))
                warnings->push_back(where + ": unknown field '" + it.key() + "' ignored");
    }

    bool params(const nlohmann::json& j, const std::string& where, std::optional<ParamSet>& out) {
        if (!j.is_object()) return fail(where, "expected an object of matrices");
        ParamSet p;
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string w = where + "." + it.key();
            const auto& m = it.value();
            if (!m.is_object() || !m.contains("rows") || !m.contains("cols") ||
                !m.contains("values"))
                return fail(w, "expected {rows, cols, values}");
            if (!m["rows"].is_number_integer() || !m["cols"].is_number_integer() ||
                !m["values"].is_array())
                return fail(w, "rows and cols must be integers and values an array");
            const auto rows = m["rows"].get<long long>(), cols = m["cols"].get<long long>();
            if (rows < 0 || cols < 0 || rows > 100000 || cols > 100000 ||
                static_cast<unsigned long long>(rows) * static_cast<unsigned long long>(cols) !=
                    m["values"].size())
                return fail(w, "shape " + std::to_string(rows) + "x" + std::to_string(cols) +
                                   " does not match " + std::to_string(m["values"].size()) +
                                   " values");
            Eigen::MatrixXd mat(rows, cols);
            for (std::size_t i = 0; i < m["values"].size(); ++i) {
                if (!m["values"][i].is_number())
                    return fail(w + ".values[" + std::to_string(i) + "]", "not a number");
                mat.data()[i] = m["values"][i].get<double>();
            }
            if (m.contains("order") && m["order"] != "F")
                return fail(w + ".order", "only \"F\" (column-major) is supported");
            p.names.push_back(it.key());
            p.mats.push_back(std::move(mat));
        }
        out = std::move(p);
        return true;
    }

    bool history(const nlohmann::json& j, const std::string& where, MetricHistory& h) {
        if (!j.is_object() || !j.contains("columns") || !j.contains("rows"))
            return fail(where, "expected {columns, rows}");
        if (!j["columns"].is_array() || j["columns"].empty())
            return fail(where + ".columns", "expected a non-empty array of names");
        for (std::size_t c = 0; c < j["columns"].size(); ++c) {
            if (!j["columns"][c].is_string())
                return fail(where + ".columns[" + std::to_string(c) + "]", "not a string");
            h.columns.push_back(j["columns"][c].get<std::string>());
        }
        if (!j["rows"].is_array()) return fail(where + ".rows", "expected an array");
        h.rows.reserve(j["rows"].size());
        for (std::size_t r = 0; r < j["rows"].size(); ++r) {
            const auto& row = j["rows"][r];
            const std::string w = where + ".rows[" + std::to_string(r) + "]";
            if (!row.is_array() || row.size() != h.columns.size())
                return fail(w, "expected " + std::to_string(h.columns.size()) + " numbers, found " +
                                   (row.is_array() ? std::to_string(row.size()) : row.type_name()));
            std::vector<double> values(row.size());
            for (std::size_t c = 0; c < row.size(); ++c) {
                if (row[c].is_null())
                    values[c] = std::numeric_limits<double>::quiet_NaN();
                else if (row[c].is_number())
                    values[c] = row[c].get<double>();
                else
                    return fail(w + "[" + std::to_string(c) + "]", "not a number");
            }
            h.rows.push_back(std::move(values));
        }
        return true;
    }

    bool run(const nlohmann::json& j, const std::string& where, SessionRun& r) {
        if (!j.is_object()) return fail(where, "expected an object");
        warnUnknown(
            j,
            {"name", "color", "group", "seed_index", "visible", "config", "status", "running",
             "message", "stop", "iterations_done", "diverged_at", "iterations_per_second",
             "history", "params", "initial_params", "snapshots", "claim_label"},
            where);
        if (!j.contains("name") || !j["name"].is_string() || j["name"].get<std::string>().empty())
            return fail(where + ".name", "missing or not a non-empty string");
        r.name = j["name"].get<std::string>();
        if (j.contains("color")) {
            if (!j["color"].is_string()) return fail(where + ".color", "not a string");
            r.color = j["color"].get<std::string>();
        }
        if (j.contains("group")) {
            if (!j["group"].is_string()) return fail(where + ".group", "not a string");
            r.group = j["group"].get<std::string>();
        }
        if (j.contains("seed_index")) {
            if (!j["seed_index"].is_number_integer() || j["seed_index"].get<long long>() < 0 ||
                j["seed_index"].get<long long>() > 1000000)
                return fail(where + ".seed_index", "not an integer in [0, 1000000]");
            r.seedIndex = j["seed_index"].get<int>();
        }
        if (j.contains("visible")) {
            if (!j["visible"].is_boolean()) return fail(where + ".visible", "not true/false");
            r.visible = j["visible"].get<bool>();
        }
        if (!j.contains("config")) return fail(where + ".config", "missing");
        std::vector<std::string> unknown;
        if (auto e = r.config.apply(j["config"], &unknown))
            return fail(where + ".config", e->message);
        for (const auto& k : unknown)
            warnings->push_back(where + ".config: unknown key '" + k + "' ignored");
        if (j.contains("status")) {
            bool ok = false;
            r.status = runStatusFromString(
                j["status"].is_string() ? j["status"].get<std::string>() : "", &ok);
            if (!ok)
                return fail(where + ".status", "expected completed, diverged, cancelled or failed");
        }
        r.running = j.value("running", false);
        if (j.contains("message") && j["message"].is_string())
            r.message = j["message"].get<std::string>();
        if (j.contains("stop") && j["stop"].is_string()) r.stop = j["stop"].get<std::string>();
        if (j.contains("claim_label") && j["claim_label"].is_string())
            r.claimLabel = j["claim_label"].get<std::string>();
        if (j.contains("iterations_done") && j["iterations_done"].is_number_integer())
            r.iterationsDone = j["iterations_done"].get<long>();
        if (j.contains("diverged_at") && j["diverged_at"].is_number_integer())
            r.divergedAt = j["diverged_at"].get<long>();
        if (j.contains("iterations_per_second") && j["iterations_per_second"].is_number())
            r.iterationsPerSecond = j["iterations_per_second"].get<double>();
        if (!j.contains("history")) return fail(where + ".history", "missing");
        if (!history(j["history"], where + ".history", r.history)) return false;
        if (j.contains("params") && !j["params"].is_null())
            if (!params(j["params"], where + ".params", r.finalParams)) return false;
        if (j.contains("initial_params") && !j["initial_params"].is_null())
            if (!params(j["initial_params"], where + ".initial_params", r.initialParams))
                return false;
        if (j.contains("snapshots") && !j["snapshots"].is_null())
            if (!snapshots(j["snapshots"], where + ".snapshots", r.snapshots)) return false;
        return true;
    }

    bool snapshots(const nlohmann::json& j, const std::string& where, std::vector<Snapshot>& out) {
        if (!j.is_array()) return fail(where, "expected an array of {iteration, params}");
        for (std::size_t i = 0; i < j.size(); ++i) {
            const std::string w = where + "[" + std::to_string(i) + "]";
            const auto& s = j[i];
            if (!s.is_object() || !s.contains("iteration") || !s["iteration"].is_number_integer() ||
                !s.contains("params"))
                return fail(w, "expected {iteration: integer, params}");
            Snapshot snap;
            snap.iteration = s["iteration"].get<long>();
            if (snap.iteration < 0) return fail(w + ".iteration", "negative");
            if (!out.empty() && snap.iteration <= out.back().iteration)
                return fail(w + ".iteration", "snapshots must be in increasing iteration order");
            std::optional<ParamSet> p;
            if (!params(s["params"], w + ".params", p)) return false;
            snap.params = std::move(*p);
            out.push_back(std::move(snap));
        }
        return true;
    }
};

}  // namespace

RunStatus runStatusFromString(const std::string& s, bool* ok) {
    if (ok) *ok = true;
    for (RunStatus st :
         {RunStatus::Completed, RunStatus::Diverged, RunStatus::Cancelled, RunStatus::Failed})
        if (s == toString(st)) return st;
    if (ok) *ok = false;
    return RunStatus::Failed;
}

SessionRun sessionRunFrom(const std::string& name, const Config& config, const RunResult& r) {
    SessionRun s;
    s.name = name;
    s.config = config;
    s.status = r.status;
    s.message = r.message;
    s.stop = r.stop;
    s.iterationsDone = r.iterationsDone;
    s.divergedAt = r.divergedAt;
    s.iterationsPerSecond = r.iterationsPerSecond;
    s.history = r.history;
    if (r.finalParams.size()) s.finalParams = r.finalParams;
    if (r.initialParams.size()) s.initialParams = r.initialParams;
    s.snapshots = r.snapshots;
    return s;
}

namespace {

nlohmann::json sessionHeader(const Session& s) {
    nlohmann::json out;
    out["format"] = kSessionFormat;
    out["version"] = kSessionVersion;
    if (!s.preset.empty()) out["preset"] = s.preset;
    if (s.plan.is_object()) out["plan"] = s.plan;
    out["chart_settings"] = s.chartSettings;
    return out;
}

nlohmann::json snapshotJson(const Snapshot& snap) {
    return {{"iteration", snap.iteration}, {"params", paramsToJson(snap.params)}};
}

// A run with its history rows and snapshots, or without them (`withRows`, `withSnapshots`).
nlohmann::json runToJson(const SessionRun& r, bool withParams, bool withRows = true,
                         bool withSnapshots = true) {
    nlohmann::json j;
    j["name"] = r.name;
    if (!r.color.empty()) j["color"] = r.color;
    if (!r.group.empty()) {
        j["group"] = r.group;
        j["seed_index"] = r.seedIndex;
    }
    j["visible"] = r.visible;
    j["config"] = r.config.toJson();
    j["status"] = toString(r.status);
    if (r.running) j["running"] = true;
    if (!r.message.empty()) j["message"] = r.message;
    if (!r.stop.empty()) j["stop"] = r.stop;
    if (!r.claimLabel.empty()) j["claim_label"] = r.claimLabel;
    j["iterations_done"] = r.iterationsDone;
    j["diverged_at"] = r.divergedAt >= 0 ? nlohmann::json(r.divergedAt) : nlohmann::json();
    j["iterations_per_second"] = number(r.iterationsPerSecond);
    nlohmann::json rows = nlohmann::json::array();
    if (withRows)
        for (const auto& row : r.history.rows) {
            nlohmann::json jr = nlohmann::json::array();
            for (double v : row)
                jr.push_back(number(v));
            rows.push_back(std::move(jr));
        }
    j["history"] = {{"columns", r.history.columns}, {"rows", std::move(rows)}};
    if (withParams && r.finalParams) j["params"] = paramsToJson(*r.finalParams);
    if (withParams && r.initialParams) j["initial_params"] = paramsToJson(*r.initialParams);
    if (withSnapshots && withParams && !r.snapshots.empty()) {
        nlohmann::json snaps = nlohmann::json::array();
        for (const auto& snap : r.snapshots)
            snaps.push_back(snapshotJson(snap));
        j["snapshots"] = std::move(snaps);
    }
    return j;
}

}  // namespace

nlohmann::json sessionToJson(const Session& s, bool withParams) {
    nlohmann::json out = sessionHeader(s);
    out["runs"] = nlohmann::json::array();
    for (const auto& r : s.runs)
        out["runs"].push_back(runToJson(r, withParams));
    return out;
}

std::string historyRowText(const std::vector<double>& row) {
    nlohmann::json jr = nlohmann::json::array();
    for (double v : row)
        jr.push_back(number(v));
    return jr.dump();
}

std::string snapshotText(const Snapshot& snapshot) {
    return snapshotJson(snapshot).dump();
}

std::string sessionToText(const Session& s, const std::vector<SessionRunTexts>& texts) {
    // The header and each run are dumped by nlohmann without their rows and snapshots, which
    // are spliced in as the texts given: `{…,"rows":[]}}` becomes `{…,"rows":[TEXT]}…}`.
    std::string out = sessionHeader(s).dump();
    out.pop_back();  // '}'
    out += ",\"runs\":[";
    for (std::size_t i = 0; i < s.runs.size(); ++i) {
        if (i) out += ',';
        const SessionRunTexts t = i < texts.size() ? texts[i] : SessionRunTexts{};
        nlohmann::json j = runToJson(s.runs[i], true, !t.rows, !t.snapshots);
        nlohmann::json history = std::move(j["history"]);
        j.erase("history");
        std::string run = j.dump();
        run.pop_back();  // '}'
        if (t.rows) {
            run += ",\"history\":{\"columns\":" + history["columns"].dump() + ",\"rows\":[";
            run += *t.rows;
            run += "]}";
        } else {
            run += ",\"history\":" + history.dump();
        }
        if (t.snapshots && !t.snapshots->empty()) {
            run += ",\"snapshots\":[";
            for (std::size_t k = 0; k < t.snapshots->size(); ++k) {
                if (k) run += ',';
                run += (*t.snapshots)[k];
            }
            run += ']';
        }
        run += '}';
        out += run;
    }
    out += "]}\n";
    return out;
}

std::string sessionToText(const Session& s, bool withParams) {
    return sessionToJson(s, withParams).dump(1) + "\n";
}

SessionReadResult sessionFromText(const std::string& text) {
    SessionReadResult result;
    JsonTextError jsonError;
    auto parsed = parseJsonText(text, &jsonError);
    if (!parsed) {
        result.error = jsonError.empty ? "the session file is empty"
                                       : "not a valid session file: " + jsonError.message;
        return result;
    }
    nlohmann::json& doc = *parsed;
    Reader reader{&result.warnings, ""};
    Session s;
    auto done = [&](bool ok) {
        if (ok)
            result.session = std::move(s);
        else
            result.error = reader.error;
        return result;
    };
    if (!doc.is_object()) return done(reader.fail("session", "expected a JSON object"));
    // Every read below may meet a value of the wrong JSON type ({"format": 8.8e9}, found by
    // fuzz_session): one handler turns whatever nlohmann throws into the file's error.
    try {
        const auto format = doc.find("format");
        if (format == doc.end() || !format->is_string() ||
            format->get<std::string>() != kSessionFormat)
            return done(reader.fail("format",
                                    std::string("not an attention-explorer session (expected \"") +
                                        kSessionFormat + "\")"));
        if (!doc.contains("version") || !doc["version"].is_number_integer())
            return done(reader.fail("version", "missing or not an integer"));
        const long version = doc["version"].get<long>();
        if (version > kSessionVersion)
            return done(reader.fail("version", "saved by a newer version of the explorer (format " +
                                                   std::to_string(version) +
                                                   "); this one reads up to " +
                                                   std::to_string(kSessionVersion)));
        if (version < 1)
            return done(reader.fail("version", "invalid version " + std::to_string(version)));
        reader.warnUnknown(
            doc, {"format", "version", "preset", "chart_settings", "runs", "saved_at", "plan"},
            "session");
        if (doc.contains("preset") && doc["preset"].is_string())
            s.preset = doc["preset"].get<std::string>();
        if (doc.contains("plan") && doc["plan"].is_object()) s.plan = doc["plan"];
        if (doc.contains("chart_settings")) {
            if (!doc["chart_settings"].is_object())
                return done(reader.fail("chart_settings", "expected an object"));
            s.chartSettings = doc["chart_settings"];
        }
        if (!doc.contains("runs") || !doc["runs"].is_array())
            return done(reader.fail("runs", "missing or not an array"));
        std::set<std::string> names;
        for (std::size_t i = 0; i < doc["runs"].size(); ++i) {
            SessionRun r;
            const std::string where = "runs[" + std::to_string(i) + "]";
            if (!reader.run(doc["runs"][i], where, r)) return done(false);
            if (!names.insert(r.name).second)
                return done(reader.fail(where + ".name", "duplicate run name '" + r.name + "'"));
            s.runs.push_back(std::move(r));
        }
    } catch (const nlohmann::json::exception& e) {
        return done(reader.fail("session", std::string("unexpected content: ") + e.what()));
    }
    return done(true);
}

SessionReadResult readSessionFile(const std::filesystem::path& file) {
    SessionReadResult r;
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        r.error = file.string() + ": is a folder, not a session file";
        return r;
    }
    errno = 0;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        const int e = errno;
        r.error =
            file.string() + ": cannot open: " + (e ? std::strerror(e) : "missing or not readable");
        return r;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    r = sessionFromText(ss.str());
    if (!r.session) r.error = file.string() + ": " + r.error;
    return r;
}

bool writeSessionFile(const std::filesystem::path& file, const Session& s, bool withParams,
                      std::string* error) {
    return writeFileAtomic(file, sessionToText(s, withParams), error);
}

}  // namespace ade
