#include "SweepSlurm.h"

#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <regex>
#include <sstream>

#include "experiments/ExperimentRegistry.h"
#include "io/Files.h"

namespace fs = std::filesystem;
using namespace ade;

namespace {

std::string slurmTime(long seconds) {
    const long minutes = (seconds + 59) / 60;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld-%02ld:%02ld:00", minutes / 1440, (minutes / 60) % 24,
                  minutes % 60);
    return buf;
}

// Output of a shell command (stdout) and its exit status.
std::pair<int, std::string> capture(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (!p) return {-1, ""};
    char buf[512];
    while (std::fgets(buf, sizeof buf, p))
        out += buf;
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string thisExecutable() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("attention-explorer-cli") : self.string();
}

}  // namespace

std::optional<SlurmResources> slurmResources(const CliArgs& a,
                                             const std::vector<PlannedRun>& tasks,
                                             std::string* error) {
    SlurmResources r;
    r.throttle = a.arrayThrottle > 0 ? a.arrayThrottle
                                     : std::min<int>(static_cast<int>(tasks.size()), 32);
    r.cpus = 1;
    for (const auto& t : tasks)
        r.cpus = std::max<int>(r.cpus, static_cast<int>(t.config.getInt("threads")));
    if (a.cpusPerTask > 0) r.cpus = a.cpusPerTask;
    static const std::regex timeForm(R"(^(\d+-)?\d+(:\d{1,2}){0,2}$)");
    static const std::regex memForm(R"(^\d+[KMGT]?$)");
    if (!a.time.empty() && !std::regex_match(a.time, timeForm)) {
        *error = "invalid --time '" + a.time + "': expected MINUTES, HH:MM:SS or D-HH:MM:SS";
        return std::nullopt;
    }
    if (!a.mem.empty() && !std::regex_match(a.mem, memForm)) {
        *error = "invalid --mem '" + a.mem + "': expected a size such as 4000M or 4G";
        return std::nullopt;
    }
    r.time = a.time;
    r.mem = a.mem;
    if (!r.time.empty() && !r.mem.empty()) return r;
    // Calibrate on the largest task: the most iterations x tokens.
    auto size = [](const PlannedRun& t) {
        double s = static_cast<double>(t.config.getInt("iterations"));
        const auto j = t.config.toJson();
        for (const char* k : {"data.n", "data.d", "data.prompts"})
            if (j.contains(k) && j[k].is_number()) s *= std::max(1.0, j[k].get<double>());
        return s;
    };
    const PlannedRun& big =
        *std::max_element(tasks.begin(), tasks.end(),
                          [&](const PlannedRun& x, const PlannedRun& y) { return size(x) < size(y); });
    const long iterations = big.config.getInt("iterations");
    Config probe = big.config;
    const long k = std::max(1L, std::min(iterations, 10L));
    probe.setJson("iterations", k);
    const auto t0 = std::chrono::steady_clock::now();
    std::string err;
    auto trainer = makeTrainer(probe, &err);
    if (!trainer) {
        *error = "calibration run of " + big.name + ": " + err;
        return std::nullopt;
    }
    const double setup =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const RunResult res = trainer->run(nullptr, nullptr);
    const double perIteration = res.seconds / static_cast<double>(std::max(1L, res.iterationsDone));
    const double estimate = setup + static_cast<double>(iterations) * perIteration;
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const double peakMiB = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss in KiB
    const double snapshotMiB = big.config.getReal("snapshot_mb");
    if (r.time.empty()) r.time = slurmTime(std::max(600L, std::lround(300 + 3 * estimate)));
    if (r.mem.empty()) {
        const long mib = std::lround(std::ceil((256 + snapshotMiB + 2 * peakMiB) / 64) * 64);
        r.mem = std::to_string(mib) + "M";
    }
    char how[400];
    std::snprintf(how, sizeof how,
                  "calibrated on %s (%ld of %ld iterations): set-up %.2f s, %.3g s per "
                  "iteration, about %.0f s per task; peak memory %.0f MiB",
                  big.name.c_str(), res.iterationsDone, iterations, setup, perIteration, estimate,
                  peakMiB);
    r.how = how;
    return r;
}

bool writeArrayScript(const fs::path& dir, const std::string& planName, int tasks,
                      const SlurmResources& r, const CliArgs& a, std::string* error) {
    const fs::path abs = fs::absolute(dir).lexically_normal();
    std::ostringstream s;
    s << "#!/bin/bash\n"
      << "#SBATCH --job-name=ade-" << safeName(planName) << "\n"
      << "#SBATCH --array=" << arraySpec([&] {
             std::vector<int> all(static_cast<std::size_t>(tasks));
             for (int i = 0; i < tasks; ++i) all[static_cast<std::size_t>(i)] = i;
             return all;
         }(), r.throttle) << "\n"
      << "#SBATCH --time=" << r.time << "\n"
      << "#SBATCH --mem=" << r.mem << "\n"
      << "#SBATCH --cpus-per-task=" << r.cpus << "\n"
      << "#SBATCH --output=" << (abs / "slurm" / "logs").string() << "/%A_%a.out\n";
    if (!a.partition.empty()) s << "#SBATCH --partition=" << a.partition << "\n";
    if (!a.account.empty()) s << "#SBATCH --account=" << a.account << "\n";
    for (const auto& extra : a.sbatchArgs)
        s << "#SBATCH " << extra << "\n";
    s << "# Written by: " << a.commandLine << "\n"
      << "# One array task = one run of the sweep (DIR/sweep.json lists them by index).\n"
      << "set -eo pipefail\n";
    for (const auto& cmd : a.setupCmds)
        s << cmd << "\n";
    s << "exec " << shellQuote(thisExecutable()) << " sweep task " << shellQuote(abs.string())
      << " --index \"$SLURM_ARRAY_TASK_ID\"\n";
    std::error_code ec;
    fs::create_directories(dir / "slurm" / "logs", ec);
    if (ec) {
        *error = (dir / "slurm" / "logs").string() + ": " + ec.message();
        return false;
    }
    if (!writeFileAtomic(dir / "slurm" / "array.sbatch", s.str(), error)) return false;
    fs::permissions(dir / "slurm" / "array.sbatch", fs::perms::owner_exec, fs::perm_options::add,
                    ec);
    return true;
}

std::string arraySpec(const std::vector<int>& indices, int throttle) {
    std::string out;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(indices[i]);
        if (j > i) out += "-" + std::to_string(indices[j]);
        i = j + 1;
    }
    return out + "%" + std::to_string(std::max(1, throttle));
}

std::string sbatchCommand(const fs::path& dir, const std::string& array) {
    std::string cmd = "sbatch --parsable";
    if (!array.empty()) cmd += " --array=" + shellQuote(array);
    return cmd + " " + shellQuote((dir / "slurm" / "array.sbatch").string());
}

std::optional<std::string> submitArray(const fs::path& dir, const std::string& array,
                                       std::string* error) {
    const auto [code, out] = capture(sbatchCommand(dir, array) + " 2>&1");
    std::string id = out.substr(0, out.find_first_of(";\n"));
    if (code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        *error = "sbatch failed (exit " + std::to_string(code) + "): " + out +
                 (code == 127 ? " (is Slurm's sbatch on PATH?)" : "");
        return std::nullopt;
    }
    std::time_t now = std::time(nullptr);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    std::ofstream(dir / "slurm" / "jobs.txt", std::ios::app)
        << id << " " << (array.empty() ? "all" : array) << " " << when << "\n";
    return id;
}

std::vector<std::string> recordedJobs(const fs::path& dir) {
    std::vector<std::string> out;
    std::ifstream in(dir / "slurm" / "jobs.txt");
    for (std::string line; std::getline(in, line);)
        if (const auto id = line.substr(0, line.find(' ')); !id.empty()) out.push_back(id);
    return out;
}

std::vector<std::string> queuedJobs(const std::vector<std::string>& jobs) {
    if (jobs.empty()) return {};
    std::string list;
    for (const auto& j : jobs)
        list += (list.empty() ? "" : ",") + j;
    const auto [code, out] = capture("squeue -h -o %A -j " + shellQuote(list) + " 2>/dev/null");
    std::vector<std::string> queued;
    if (code != 0) return queued;  // no squeue, or the jobs are gone from the queue
    std::istringstream in(out);
    for (std::string id; in >> id;)
        if (std::find(queued.begin(), queued.end(), id) == queued.end()) queued.push_back(id);
    return queued;
}
