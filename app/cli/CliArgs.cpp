#include "CliArgs.h"

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

std::string usageText() {
    return R"(attention-explorer-cli: run the Attention Dynamics Explorer's experiments headless.

Usage:
  attention-explorer-cli presets
      List the presets with one-line descriptions.
  attention-explorer-cli keys [--preset NAME]
      List every configuration key with its default, range and meaning.
  attention-explorer-cli run (--preset NAME | --config FILE.json) [--set KEY=VALUE]...
                             [--seeds K] [--jobs J] --out DIR [--save-data] [--quiet]
      Run every run of the preset or config (a comparison), each with the preset's seeds
      (--seeds K: K seeds per run), J runs at a time (default 1; the results do not depend on
      it), and check the preset's claims. Writes DIR/<run>/metrics.csv,
      DIR/<run>/summary.json and DIR/<run>/params/<name>.npy (and DIR/<run>/data/*.npy with
      --save-data). A preset that defines a sweep runs its sweep.
  attention-explorer-cli sweep (--preset NAME | --config FILE) --vary KEY=VALUES [--vary ...]
                               [--samples N] [--sample-seed S] [--seeds K] [--set KEY=VALUE]...
                               [--metric M] [--stat final|best|floor] [--higher-better]
                               [--halving [--eta 3] [--min-iterations N]] [--jobs J]
                               [--backend local|slurm] --out DIR
      Run every config of the grid (and random samples), each with K seeds, and rank them:
      VALUES is a list 32,64,128, lin:LO:HI:N, log:LO:HI:N, or rand:LO:HI (N random samples,
      --samples; log-uniform for log-scale keys or HI/LO >= 100). Prints one row per config,
      the objective (--metric, default the headline metric; --stat, default floor) as mean ± sd
      over seeds, best first. --halving: successive halving (the best 1/eta of the configs go on
      to eta times the iterations; the rung table is printed). Writes the sweep folder:
      DIR/sweep.json, DIR/configs/, DIR/runs/<task>/, DIR/sweep.csv (one row per run: varied
      values, seed, final, best and floor metrics), DIR/timing.csv (wall times), DIR/fit.json
      (power law of the first key, for grids), DIR/session.json. The same command again on DIR
      resumes (finished tasks are skipped). A preset with a sweep runs its own without --vary.
      --backend slurm [--dry-run] [--array-throttle N] [--time T] [--mem M] [--cpus-per-task C]
                      [--partition P] [--account A] [--sbatch-arg ARG]... [--setup-cmd CMD]...
      writes DIR/slurm/array.sbatch (a job array, one task per run) and submits it with sbatch
      (--dry-run: only writes, and prints the sbatch command); time and memory default to
      values derived from a short calibration run (docs/sweeps.md).
  attention-explorer-cli sweep task DIR [--index I]
      Run task I of a sweep folder (default: $SLURM_ARRAY_TASK_ID); a finished task is skipped.
  attention-explorer-cli sweep collect DIR [--metric M] [--stat S] [--higher-better]
                                           [--resubmit [--array-throttle N] [--dry-run]]
      Gather the finished runs into DIR/sweep.csv, timing.csv, fit.json and session.json, print
      the results and the missing and failed tasks (exit 6 when there are any); --resubmit
      submits just those tasks again.

  attention-explorer-cli figure (--preset NAME | --config FILE | --session FILE) --out DIR
                                [--format png,svg,pdf] [--size WxH] [--style screen|publication]
                                [--set KEY=VALUE]...
                                [--panels charts,matrices,attention,factor-plane,landscape]
                                [--run NAME] [--iteration N] [--grid N]
      Render the explorer's charts (loss, weight norms, manifold distance, other metrics) with
      the same code as the GUI's export: runs the preset or config first (or reads a saved
      session), writes DIR/<chart>.<format> and DIR/session.json. --panels chooses what to draw
      (default: charts): the inside views matrices, attention, factor-plane and landscape write
      DIR/<panel>.<format> of run NAME (default: the first with parameters) at its snapshot at
      or before iteration N (default: its latest; without snapshots its final parameters). The
      landscape is the contour map around that iterate, t along the symmetry orbit, s along a
      random direction, on an N x N grid (--grid, 3-64, default 33).

  attention-explorer-cli animate --session FILE --out FILE.mp4|FILE.gif|DIR [--fps N]
                                 [--size WxH] [--run NAME]
                                 [--panels charts,matrices,attention,factor-plane]
      A run over its parameter snapshots as an animation, as the GUI's File > Export animation:
      each frame shows the --panels (default: charts, with a cursor at the snapshot's iteration;
      the inside views of the run at that snapshot; several: a grid, two columns), a PNG
      sequence always (DIR, or FILE_frames/ beside the film), and MP4 (H.264) or an animated GIF
      made by the ffmpeg command. --run: the session's run whose snapshots are the frames
      (default: the first one that has snapshots); --fps 1 to 60 (default 10); --size default
      1200x800.

  attention-explorer-cli report --out DIR [--quick] [--only NAME,NAME] [--jobs J] [--no-figures]
      The reproduction report: runs every preset (every seed; a preset's sweep), checks every
      claim the presets declare, and writes DIR/report.md and DIR/report.json (one section per
      paper: each claim, its measured number with the spread over seeds, holds or not) with
      each preset's runs and figures under DIR/<preset>/. --quick runs each preset at its
      "quick" sizes (minutes in all: a test that the science still holds, not the papers'
      sizes). Exits 5 when a claim does not hold.

  attention-explorer-cli --version
      Print the version.

Presets are read from $ADE_RESOURCES/presets (if set) and from the folder installed beside the
program (<prefix>/share/attention-explorer/presets); a name found in the first wins.

Exit status: 0 done, 2 invalid input, 3 a run diverged (its metrics are kept),
4 a file could not be written, 5 a claim of the report does not hold, 6 sweep collect: tasks
are missing or failed, 130 interrupted (what was computed is written).
)";
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
        } else if (a.command == "sweep" && !arg.empty() && arg[0] != '-') {
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
