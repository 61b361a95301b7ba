// The sweep folder every backend fills (Sweep.h): the manifest and config files, reading the
// finished runs back (metrics.csv + summary.json), one task run by index (a Slurm array task),
// and the results collect writes (sweep.csv, timing.csv, fit.json, session.json).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "output/RunOutput.h"
#include "output/Session.h"
#include "sweep/Sweep.h"

namespace ade {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "attention-explorer-sweep";

std::optional<std::string> readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

nlohmann::json taskJson(std::size_t index, const PlannedRun& t) {
    nlohmann::json varied = nlohmann::json::array();
    for (const auto& [k, v] : t.varied)
        varied.push_back({k, v});
    return {{"index", index},
            {"name", t.name},
            {"label", t.label},
            {"varied", varied},
            {"seed_index", t.seedIndex},
            {"seed", t.config.getInt("seed")},
            {"iterations", t.config.getInt("iterations")}};
}

// Parses metrics.csv text (header on the first non-comment line) into a history.
bool parseMetricsCsv(const std::string& text, MetricHistory& h) {
    std::istringstream in(text);
    bool header = false;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');)
            cells.push_back(c);
        if (!header) {
            h.columns = cells;
            header = true;
            continue;
        }
        if (cells.size() != h.columns.size()) return false;
        std::vector<double> row;
        for (const auto& c : cells)
            row.push_back(std::strtod(c.c_str(), nullptr));  // reads "nan", "inf" too
        h.rows.push_back(std::move(row));
    }
    return true;
}

bool containsError(const std::string& text) {
    std::string lower(text.size(), ' ');
    std::transform(text.begin(), text.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower.find("error") != std::string::npos;
}

}  // namespace

bool writeSweepManifest(const fs::path& dir, const std::string& planName,
                        const SweepDesign& design, const std::vector<PlannedRun>& tasks,
                        const std::string& commandLine, std::string* error) {
    // Config files first: the manifest names only tasks whose config exists.
    for (const auto& t : tasks) {
        const fs::path file = dir / "configs" / (t.name + ".json");
        const std::string text = t.config.toJson().dump(2) + "\n";
        if (readText(file) == text) continue;
        if (!writeFileAtomic(file, text, error)) return false;
    }
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < tasks.size(); ++i)
        list.push_back(taskJson(i, tasks[i]));
    const nlohmann::json m = {{"format", kFormat}, {"version", 1},       {"plan", planName},
                              {"design", designToJson(design)},           {"command", commandLine},
                              {"tasks", list}};
    return writeFileAtomic(dir / "sweep.json", m.dump(2) + "\n", error);
}

std::optional<SweepFolder> readSweepManifest(const fs::path& dir, std::string* error) {
    auto fail = [&](const std::string& m) -> std::optional<SweepFolder> {
        if (error) *error = m;
        return std::nullopt;
    };
    const auto text = readText(dir / "sweep.json");
    if (!text) return fail((dir / "sweep.json").string() + ": cannot read (not a sweep folder?)");
    SweepFolder f;
    f.dir = dir;
    try {
        const auto m = nlohmann::json::parse(*text);
        if (m.value("format", "") != kFormat)
            return fail((dir / "sweep.json").string() + ": not a sweep manifest");
        f.planName = m.at("plan").get<std::string>();
        f.commandLine = m.value("command", "");
        std::string derr;
        auto design = designFromJson(m.at("design"), &derr);
        if (!design) return fail((dir / "sweep.json").string() + ": " + derr);
        f.design = *design;
        for (const auto& t : m.at("tasks")) {
            PlannedRun r;
            r.name = t.at("name").get<std::string>();
            r.label = t.at("label").get<std::string>();
            r.seedIndex = t.value("seed_index", 0);
            for (const auto& kv : t.at("varied"))
                r.varied.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
            const fs::path cfile = dir / "configs" / (r.name + ".json");
            const auto ctext = readText(cfile);
            if (!ctext) return fail(cfile.string() + ": cannot read the task's config");
            if (auto e = r.config.apply(nlohmann::json::parse(*ctext)))
                return fail(cfile.string() + ": " + e->message);
            f.tasks.push_back(std::move(r));
        }
    } catch (const std::exception& e) {
        return fail((dir / "sweep.json").string() + ": " + e.what());
    }
    return f;
}

bool sameSweep(const SweepFolder& existing, const std::string& planName, const SweepDesign& design,
               const std::vector<PlannedRun>& tasks, std::string* why) {
    auto differ = [&](const std::string& m) {
        if (why) *why = m;
        return false;
    };
    if (existing.planName != planName)
        return differ("it is a sweep of '" + existing.planName + "', not '" + planName + "'");
    if (designToJson(existing.design) != designToJson(design))
        return differ("its design differs (sweep.json \"design\")");
    for (const auto& t : tasks) {
        auto it = std::find_if(existing.tasks.begin(), existing.tasks.end(),
                               [&](const PlannedRun& e) { return e.name == t.name; });
        if (it == existing.tasks.end()) return differ("it has no task " + t.name);
        if (it->config.toJson() != t.config.toJson())
            return differ("task " + t.name + " has another config");
    }
    return true;
}

std::optional<RunOutcome> readRunOutcome(const fs::path& runDir, const PlannedRun& run,
                                         std::string* error) {
    auto fail = [&](const std::string& m) -> std::optional<RunOutcome> {
        if (error) *error = m;
        return std::nullopt;
    };
    const auto stext = readText(runDir / "summary.json");
    if (!stext) return fail((runDir / "summary.json").string() + ": cannot read");
    RunOutcome o;
    o.run = run;
    o.written = true;
    try {
        const auto s = nlohmann::json::parse(*stext);
        bool ok = true;
        o.result.status = runStatusFromString(s.at("status").get<std::string>(), &ok);
        if (!ok) return fail((runDir / "summary.json").string() + ": unknown status");
        o.result.message = s.value("message", "");
        o.result.iterationsDone = s.value("iterations_done", 0L);
        o.result.divergedAt = s["diverged_at"].is_number() ? s["diverged_at"].get<long>() : -1;
        o.result.seconds = s.value("seconds", 0.0);
        if (s.contains("stop") && s["stop"].is_string())
            o.result.stop = s["stop"].get<std::string>();
        if (s.contains("stop_change") && s["stop_change"].is_number())
            o.result.stopChange = s["stop_change"].get<double>();
        o.result.iterationsPerSecond = s.value("iterations_per_second", 0.0);
    } catch (const std::exception& e) {
        return fail((runDir / "summary.json").string() + ": " + e.what());
    }
    if (const auto mtext = readText(runDir / "metrics.csv")) {
        if (!parseMetricsCsv(*mtext, o.result.history))
            return fail((runDir / "metrics.csv").string() + ": a row has the wrong number of cells");
    } else if (o.result.status != RunStatus::Failed) {
        return fail((runDir / "metrics.csv").string() + ": cannot read");
    }
    if (o.result.status == RunStatus::Failed) o.error = o.result.message;
    return o;
}

std::optional<SweepFolder> readSweepFolder(const fs::path& dir, std::string* error) {
    auto folder = readSweepManifest(dir, error);
    if (!folder) return std::nullopt;
    // The newest Slurm log of each task (logs/<job>_<index>.out).
    std::error_code ec;
    std::map<int, fs::file_time_type> logTime;
    for (const auto& e : fs::directory_iterator(dir / "slurm" / "logs", ec)) {
        const std::string n = e.path().filename().string();
        const auto us = n.rfind('_'), dot = n.rfind(".out");
        if (us == std::string::npos || dot == std::string::npos || dot <= us + 1) continue;
        const std::string idx = n.substr(us + 1, dot - us - 1);
        if (idx.find_first_not_of("0123456789") != std::string::npos) continue;
        const int i = std::stoi(idx);
        const auto t = fs::last_write_time(e.path(), ec);
        if (!folder->logs.count(i) || t > logTime[i]) folder->logs[i] = e.path(), logTime[i] = t;
    }
    for (std::size_t i = 0; i < folder->tasks.size(); ++i) {
        const int index = static_cast<int>(i);
        const fs::path runDir = dir / "runs" / folder->tasks[i].name;
        if (!fs::exists(runDir / "summary.json", ec)) {
            folder->missing.push_back(index);
            if (folder->logs.count(index))
                if (const auto log = readText(folder->logs[index]); log && containsError(*log))
                    folder->failed.push_back(index);
            continue;
        }
        std::string unreadable;
        auto o = readRunOutcome(runDir, folder->tasks[i], &unreadable);
        if (!o) {  // a summary without a readable metrics.csv: not finished
            folder->missing.push_back(index);
            continue;
        }
        if (o->result.status == RunStatus::Failed) folder->failed.push_back(index);
        folder->finished.push_back(std::move(*o));
    }
    // A task is missing or failed, not both: a failed log makes it failed.
    std::erase_if(folder->missing, [&](int i) {
        return std::find(folder->failed.begin(), folder->failed.end(), i) != folder->failed.end();
    });
    return folder;
}

nlohmann::json powerLawFitsJson(const std::vector<PowerLawFit>& fits, const std::string& x,
                                const std::string& y, const std::string& stat) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : fits) {
        nlohmann::json pts = nlohmann::json::array();
        for (const auto& [px, py] : f.xy)
            pts.push_back({px, py});
        out.push_back({{"series", f.series},
                       {"x", x},
                       {"y", y},
                       {"stat", stat},
                       {"slope", f.slope},
                       {"intercept", f.intercept},
                       {"r2", f.r2},
                       {"points", pts}});
    }
    return out;
}

bool writeSweepResults(const SweepFolder& folder, std::string* error) {
    // sweep.csv first: a failure (full disk, read-only file) then changes nothing.
    if (!writeFileAtomic(folder.dir / "sweep.csv", sweepCsv(folder.finished), error)) return false;
    if (!writeFileAtomic(folder.dir / "timing.csv", timingCsv(folder.finished), error))
        return false;
    if (!folder.design.fitX.empty()) {
        const auto fits = fitPowerLaw(folder.finished, folder.design.fitX, folder.design.fitY);
        const auto j = powerLawFitsJson(fits, folder.design.fitX, folder.design.fitY, "floor");
        if (!writeFileAtomic(folder.dir / "fit.json", j.dump(2) + "\n", error)) return false;
    }
    Session session;
    session.preset = folder.planName;
    for (const auto& o : folder.finished)
        if (!o.result.history.rows.empty())
            session.runs.push_back(sessionRunOf(o, folder.design.seeds));
    return writeSessionFile(folder.dir / "session.json", session, false, error);
}

TaskRunStatus runSweepTask(const fs::path& dir, int index, const std::string& commandLine,
                           RunOutcome* outcome, std::string* error) {
    auto folder = readSweepManifest(dir, error);
    if (!folder) return TaskRunStatus::Invalid;
    if (index < 0 || index >= static_cast<int>(folder->tasks.size())) {
        if (error)
            *error = "task index " + std::to_string(index) + " is not in 0.." +
                     std::to_string(folder->tasks.size() - 1);
        return TaskRunStatus::Invalid;
    }
    const PlannedRun& task = folder->tasks[static_cast<std::size_t>(index)];
    const fs::path runDir = dir / "runs" / task.name;
    std::error_code ec;
    if (fs::exists(runDir / "summary.json", ec)) {
        std::string err;
        if (auto o = readRunOutcome(runDir, task, &err);
            o && o->result.status != RunStatus::Failed) {
            if (outcome) *outcome = std::move(*o);
            return TaskRunStatus::AlreadyDone;
        }
    }
    PlanRunOptions options;
    options.outDir = dir / "runs";
    options.commandLine = commandLine;
    options.keepSnapshots = false;
    options.context = &folder->tasks;
    auto outcomes = runPlanned({task}, folder->planName, options);
    RunOutcome& o = outcomes.front();
    if (o.result.status == RunStatus::Failed && !o.written) writeFailedTask(dir, folder->planName, o);
    if (outcome) *outcome = o;
    if (!o.written) {
        if (error) *error = o.error;
        return TaskRunStatus::WriteFailed;
    }
    return TaskRunStatus::Ran;
}

void writeFailedTask(const fs::path& dir, const std::string& planName, RunOutcome& o) {
    const auto files = writeRunFolder(dir / "runs" / o.run.name, o.run.name, planName,
                                      o.run.config, o.result, "", {});
    o.written = files.ok;
    if (!files.ok && o.error.empty()) o.error = files.error;
}

}  // namespace ade
