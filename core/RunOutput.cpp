#include "RunOutput.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "Npy.h"
#include "Preset.h"

namespace ade {

bool writeFileAtomic(const std::filesystem::path& path, const std::string& bytes,
                     std::string* error) {
    auto fail = [&](const std::string& reason) {
        if (error) *error = "cannot write " + path.string() + ": " + reason;
        return false;
    };
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    if (ec)
        return fail("cannot create folder " + path.parent_path().string() + ": " + ec.message());
    // An existing file without write permission is not replaced: the rename below would swap it
    // silently (whoever may write the folder), even for root, whom permissions do not stop. A
    // replaced file keeps its permission bits.
    struct stat old {};
    const bool exists = ::stat(path.c_str(), &old) == 0 && S_ISREG(old.st_mode);
    if (exists && ((old.st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0))
        return fail("the existing file is read-only");
    // "<name>.tmp-<pid>-<n>" next to the target (same file system, so the rename is atomic),
    // unique per write even across threads; the name part is shortened when the whole would
    // exceed NAME_MAX, so any name that is valid for the target works.
    static std::atomic<unsigned> counter{0};
    const std::string suffix =
        ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
    std::string name = path.filename().string();
    if (name.size() + suffix.size() > NAME_MAX) name.resize(NAME_MAX - suffix.size());
    const auto tmp = (path.parent_path() / (name + suffix)).string();
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return fail(std::strerror(errno));
    // The first error wins; a full disk shows as a short write, a failed flush or close.
    int err = 0;
    errno = 0;
    if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) err = errno ? errno : EIO;
    if (std::fflush(f) != 0 && !err) err = errno ? errno : EIO;
    if (!err && exists) ::fchmod(::fileno(f), old.st_mode & 0777);
    if (!err && ::fsync(::fileno(f)) != 0) err = errno;
    if (std::fclose(f) != 0 && !err) err = errno ? errno : EIO;
    if (err) {
        std::remove(tmp.c_str());
        return fail(std::strerror(err));
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return fail(ec.message());
    }
    return true;
}

bool prepareOutputFolder(const std::filesystem::path& dir, std::string* error) {
    auto fail = [&](const std::string& reason) {
        if (error) *error = "cannot write to " + dir.string() + ": " + reason;
        return false;
    };
    std::error_code ec;
    if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec))
        return fail("it is a file, not a folder");
    std::filesystem::create_directories(dir, ec);
    if (ec) return fail(ec.message());
    const auto probe = dir / (".write-test.tmp-" + std::to_string(::getpid()));
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return fail(std::strerror(errno));
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

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
    s["seconds"] = result.seconds;
    s["iterations_per_second"] = result.iterationsPerSecond;
    s["records"] = result.history.rows.size();
    s["metrics"] = summaryMetrics(result.history);
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
    write(dir / "summary.json",
          runSummary(runName, planName, config, result, commandLine).dump(2) + "\n");
    for (std::size_t i = 0; i < result.finalParams.size(); ++i)
        write(dir / "params" / (safeName(result.finalParams.names[i]) + ".npy"),
              encodeNpy(toNamedArray(result.finalParams.names[i], result.finalParams[i])));
    for (const auto& a : dataArrays)
        write(dir / "data" / (safeName(a.name) + ".npy"), encodeNpy(a));
    return out;
}

}  // namespace ade
