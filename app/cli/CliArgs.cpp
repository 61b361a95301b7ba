#include "CliArgs.h"

#include "Commands.h"
#include "LandscapeOptions.h"

#include <charconv>

std::string shellQuote(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./=:,+@%") == std::string::npos)
        return s;
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

namespace {
bool parseInt(const std::string& s, int& out) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}
}  // namespace

std::optional<CliArgs> parseCliArgs(int argc, char** argv, std::string* error) {
    CliArgs a;
    for (int i = 0; i < argc; ++i)
        a.commandLine += (i ? " " : "") + shellQuote(argv[i]);
    if (argc < 2) {
        a.command = "help";
        return a;
    }
    a.command = argv[1];
    if (a.command == "-h" || a.command == "--help") a.command = "help";
    if (a.command == "-V" || a.command == "--version") a.command = "version";
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        // Which options were given, by long name: the command refuses those it does not take
        // (Commands.h).
        if (arg.size() > 1 && arg[0] == '-' && arg != "-h" && arg != "--help")
            a.given.push_back(arg == "-q" ? "--quiet" : arg);
        auto value = [&](std::string& out) {
            if (i + 1 >= argc) {
                *error = "option " + arg + " needs a value";
                return false;
            }
            out = argv[++i];
            return true;
        };
        std::string v;
        if (arg == "--preset") {
            if (!value(a.preset)) return std::nullopt;
        } else if (arg == "--config") {
            if (!value(a.configFile)) return std::nullopt;
        } else if (arg == "--session") {
            if (!value(a.sessionFile)) return std::nullopt;
        } else if (arg == "--format") {
            if (!value(a.formats)) return std::nullopt;
        } else if (arg == "--size") {
            if (!value(a.size)) return std::nullopt;
        } else if (arg == "--style") {
            if (!value(a.style)) return std::nullopt;
        } else if (arg == "--width-cm") {
            if (!value(a.widthCm)) return std::nullopt;
        } else if (arg == "--columns") {
            if (!value(a.columns)) return std::nullopt;
        } else if (arg == "--font-pt") {
            if (!value(a.fontPt)) return std::nullopt;
        } else if (arg == "--panels") {
            if (!value(a.panels)) return std::nullopt;
        } else if (arg == "--run") {
            if (!value(a.run)) return std::nullopt;
        } else if (arg == "--iteration") {
            if (!value(v)) return std::nullopt;
            long long n = 0;
            auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (ec != std::errc() || ptr != v.data() + v.size() || n < 0) {
                *error = "invalid value '" + v + "' for --iteration: expected an integer >= 0";
                return std::nullopt;
            }
            a.iteration = static_cast<long>(n);
        } else if (arg == "--out") {
            if (!value(a.outDir)) return std::nullopt;
        } else if (arg == "--set") {
            if (!value(v)) return std::nullopt;
            a.sets.push_back(v);
        } else if (arg == "--vary") {
            if (!value(v)) return std::nullopt;
            a.varies.push_back(v);
        } else if (arg == "--seeds" || arg == "--jobs") {
            if (!value(v)) return std::nullopt;
            int n = 0;
            if (!parseInt(v, n) || n < 1 || n > 10000) {
                *error =
                    "invalid value '" + v + "' for " + arg + ": expected an integer in [1, 10000]";
                return std::nullopt;
            }
            (arg == "--seeds" ? a.seeds : a.jobs) = n;
        } else if (arg == "--samples" || arg == "--eta" || arg == "--array-throttle" ||
                   arg == "--cpus-per-task") {
            if (!value(v)) return std::nullopt;
            int n = 0;
            const int lo = arg == "--eta" ? 2 : 1;
            if (!parseInt(v, n) || n < lo || n > 100000) {
                *error = "invalid value '" + v + "' for " + arg + ": expected an integer in [" +
                         std::to_string(lo) + ", 100000]";
                return std::nullopt;
            }
            (arg == "--samples" ? a.samples
             : arg == "--eta"   ? a.eta
             : arg == "--array-throttle" ? a.arrayThrottle
                                         : a.cpusPerTask) = n;
        } else if (arg == "--sample-seed" || arg == "--min-iterations" || arg == "--index") {
            if (!value(v)) return std::nullopt;
            long long n = 0;
            auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            const long long lo = arg == "--min-iterations" ? 1 : 0;
            if (ec != std::errc() || ptr != v.data() + v.size() || n < lo) {
                *error = "invalid value '" + v + "' for " + arg + ": expected an integer >= " +
                         std::to_string(lo);
                return std::nullopt;
            }
            if (arg == "--sample-seed") a.sampleSeed = n;
            else if (arg == "--min-iterations") a.minIterations = static_cast<long>(n);
            else a.index = static_cast<long>(n);
        } else if (arg == "--metric") {
            if (!value(a.metric)) return std::nullopt;
        } else if (arg == "--stat") {
            if (!value(a.stat)) return std::nullopt;
            if (a.stat != "final" && a.stat != "best" && a.stat != "floor") {
                *error = "invalid value '" + a.stat + "' for --stat: expected final, best or floor";
                return std::nullopt;
            }
        } else if (arg == "--backend") {
            if (!value(a.backend)) return std::nullopt;
            if (a.backend != "local" && a.backend != "slurm") {
                *error = "invalid value '" + a.backend + "' for --backend: expected local or slurm";
                return std::nullopt;
            }
        } else if (arg == "--time") {
            if (!value(a.time)) return std::nullopt;
        } else if (arg == "--mem") {
            if (!value(a.mem)) return std::nullopt;
        } else if (arg == "--partition") {
            if (!value(a.partition)) return std::nullopt;
        } else if (arg == "--account") {
            if (!value(a.account)) return std::nullopt;
        } else if (arg == "--sbatch-arg") {
            if (!value(v)) return std::nullopt;
            a.sbatchArgs.push_back(v);
        } else if (arg == "--setup-cmd") {
            if (!value(v)) return std::nullopt;
            a.setupCmds.push_back(v);
        } else if (arg == "--higher-better") {
            a.higherBetter = true;
        } else if (arg == "--halving") {
            a.halving = true;
        } else if (arg == "--dry-run") {
            a.dryRun = true;
        } else if (arg == "--resubmit") {
            a.resubmit = true;
        } else if (!arg.empty() && arg[0] != '-' && commandTakesOperands(a.command)) {
            a.positional.push_back(arg);
        } else if (arg == "--fps") {
            if (!value(v)) return std::nullopt;
            if (!parseInt(v, a.fps) || a.fps < 1 || a.fps > 60) {
                *error = "invalid value '" + v + "' for --fps: expected an integer in [1, 60]";
                return std::nullopt;
            }
        } else if (arg == "--only") {
            if (!value(v)) return std::nullopt;
            std::size_t start = 0;
            while (start <= v.size()) {
                const auto comma = v.find(',', start);
                const std::string name =
                    v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                if (!name.empty()) a.only.push_back(name);
                if (comma == std::string::npos) break;
                start = comma + 1;
            }
            if (a.only.empty()) {
                *error = "option --only needs preset names (NAME,NAME)";
                return std::nullopt;
            }
        } else if (arg == "--quick") {
            a.quick = true;
        } else if (arg == "--no-figures") {
            a.noFigures = true;
        } else if (arg == "--save-data") {
            a.saveData = true;
        } else if (arg == "--quiet" || arg == "-q") {
            a.quiet = true;
        } else if (arg == "-h" || arg == "--help") {
            a.command = "help";
        } else if (const int r = parseLandscapeOption(arg, value, a, error); r != 0) {
            if (r < 0) return std::nullopt;
        } else {
            *error = "unknown option '" + arg + "'; see attention-explorer-cli --help";
            return std::nullopt;
        }
    }
    return a;
}
