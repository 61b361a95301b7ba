#include "output/RunOutput.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "experiments/ExperimentRegistry.h"
#include "io/Npy.h"
#include "util/CpuLevel.h"

namespace ade {

std::string formatNumber(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, p) : std::to_string(v);
}

std::string historyCsv(const MetricHistory& h, const std::string& headerComment) {
    std::string out;
    std::size_t start = 0;
    while (!headerComment.empty() && start <= headerComment.size()) {
        const auto end = headerComment.find('\n', start);
        out += "# " + headerComment.substr(start, end - start) + "\n";
        if (end == std::string::npos) break;
        start = end + 1;
    }
    for (std::size_t i = 0; i < h.columns.size(); ++i)
        out += (i ? "," : "") + h.columns[i];
    out += "\n";
    for (const auto& row : h.rows) {
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (i) out += ',';
            // iteration is an integer; keep it so.
            out += i == 0 ? std::to_string(static_cast<long long>(row[i])) : formatNumber(row[i]);
        }
        out += "\n";
    }
    return out;
}

std::string columnsComment(const std::string& experiment, const std::vector<std::string>& columns) {
    std::string out;
    for (const auto& c : columns) {
        const MetricInfo m = describeColumn(experiment, c);
        out += (out.empty() ? "" : "\n") + c + ": " + m.label + " [" + m.units + "]. " + m.meaning;
    }
    return out;
}

nlohmann::json summaryMetrics(const MetricHistory& h) {
    nlohmann::json out = {{"final", nlohmann::json::object()},
                          {"initial", nlohmann::json::object()},
                          {"best", nlohmann::json::object()},
                          {"floor", nlohmann::json::object()}};
    if (h.rows.empty()) return out;
    const std::size_t tail = std::max<std::size_t>(1, h.rows.size() / 10);
    for (std::size_t c = 1; c < h.columns.size(); ++c) {
        const auto& name = h.columns[c];
        auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
        out["final"][name] = num(h.rows.back()[c]);
        out["initial"][name] = num(h.rows.front()[c]);
        double best = INFINITY, sum = 0;
        for (const auto& r : h.rows)
            if (std::isfinite(r[c])) best = std::min(best, r[c]);
        for (std::size_t i = h.rows.size() - tail; i < h.rows.size(); ++i)
            sum += h.rows[i][c];
        out["best"][name] = num(best);
        out["floor"][name] = num(sum / static_cast<double>(tail));
    }
    return out;
}

nlohmann::json runSummary(const std::string& runName, const std::string& planName,
                          const Config& config, const RunResult& result,
                          const std::string& commandLine) {
    nlohmann::json s;
    s["name"] = runName;
    s["plan"] = planName;
    s["experiment"] = config.experiment();
    s["seed"] = config.getInt("seed");
    s["config"] = config.toJson();
    s["status"] = toString(result.status);
    if (!result.message.empty()) s["message"] = result.message;
    s["diverged_at"] =
        result.divergedAt >= 0 ? nlohmann::json(result.divergedAt) : nlohmann::json();
    s["iterations_done"] = result.iterationsDone;
    // The stopping rule's verdict: "converged", "cap" (reached `iterations` first) or null
    // (no rule, or the run ended otherwise).
    s["stop"] = result.stop.empty() ? nlohmann::json() : nlohmann::json(result.stop);
    s["stop_change"] =
        std::isfinite(result.stopChange) ? nlohmann::json(result.stopChange) : nlohmann::json();
    s["seconds"] = result.seconds;
    // The instruction-set level the kernels ran at (util/CpuLevel.h): speed and the last bits of
    // the numbers depend on it.
    s["cpu_level"] = cpu::levelName();
    s["iterations_per_second"] = result.iterationsPerSecond;
    s["records"] = result.history.rows.size();
    s["metrics"] = summaryMetrics(result.history);
    // What each metrics.csv column is (metrics.csv itself stays plain: header on line one).
    nlohmann::json columns = nlohmann::json::object();
    for (const auto& c : result.history.columns) {
        const MetricInfo m = describeColumn(config.experiment(), c);
        columns[c] = {{"label", m.label}, {"units", m.units}, {"meaning", m.meaning}};
    }
    s["columns"] = std::move(columns);
    s["command"] = commandLine;
    return s;
}

RunFiles writeRunFolder(const std::filesystem::path& dir, const std::string& runName,
                        const std::string& planName, const Config& config, const RunResult& result,
                        const std::string& commandLine, const std::vector<NamedArray>& dataArrays) {
    RunFiles out;
    auto write = [&](const std::filesystem::path& p, const std::string& bytes) {
        std::string err;
        if (!writeFileAtomic(p, bytes, &err) && out.ok) {
            out.ok = false;
            out.error = err;
        }
    };
    // metrics.csv stays plain (header on the first line); summary.json carries the config.
    write(dir / "metrics.csv", historyCsv(result.history));
    for (std::size_t i = 0; i < result.finalParams.size(); ++i)
        write(dir / "params" / (safeName(result.finalParams.names[i]) + ".npy"),
              encodeNpy(toNamedArray(result.finalParams.names[i], result.finalParams[i])));
    for (const auto& a : dataArrays)
        write(dir / "data" / (safeName(a.name) + ".npy"), encodeNpy(a));
    // Last: its presence (with a readable metrics.csv) means the run's folder is complete (a
    // sweep resumes from it). Written even when another file failed: it says what happened.
    write(dir / "summary.json",
          runSummary(runName, planName, config, result, commandLine).dump(2) + "\n");
    return out;
}

}  // namespace ade
