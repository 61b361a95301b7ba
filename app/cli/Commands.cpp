// The table of attention-explorer-cli's sub-commands (Commands.h) and its small handlers. A new
// sub-command is one row here and its handler; `help`, the refusal of options it does not take,
// the bash completion and the man page check follow (docs/architecture.md).
#include "Commands.h"

#include <cstdio>
#include <iostream>

#include "ReportCommand.h"
#include "RunCommand.h"
#include "SweepCommand.h"
#include "Version.h"
#include "config/ParamSpec.h"
#include "plan/Preset.h"
#include "util/CpuLevel.h"
#ifdef ADE_HAVE_FIGURES
#include "FigureCommand.h"
#endif

using namespace ade;

namespace {

#ifndef ADE_HAVE_FIGURES
int invalid(const std::string& message) {
    std::cerr << "attention-explorer-cli: " << message << "\n";
    return ExitInvalid;
}
#endif

int help(const CommandContext&) {
    std::cout << usageText();
    return ExitOk;
}

int version(const CommandContext&) {
    std::cout << "attention-explorer-cli " << ADE_VERSION << "\n"
              << "kernels: " << ade::cpu::levelSummary() << "\n";
    return ExitOk;
}

int presets(const CommandContext& c) {
    for (const auto& e : c.lib.entries())
        std::printf("%-24s %s\n", e.name.c_str(), e.description.c_str());
    return ExitOk;
}

int keys(const CommandContext&) {
    for (const auto& s : ParamRegistry::instance().all()) {
        std::string exps;
        for (const auto& e : s.experiments)
            exps += (exps.empty() ? "" : ",") + e;
        std::printf("%-22s default %-12s %s%s\n    %s\n", s.key.c_str(),
                    s.defaultValue.dump().c_str(), s.allowedText().c_str(),
                    exps.empty() ? "" : (" [experiment " + exps + "]").c_str(), s.help.c_str());
    }
    return ExitOk;
}

int run(const CommandContext& c) {
    return runPlanCommand(c.args, c.lib);
}

// `sweep WORD ...` with a WORD that is not a sub-command: runSweepSubcommand names it.
int sweep(const CommandContext& c) {
    if (!c.args.positional.empty()) return runSweepSubcommand(c.args);
    return runPlanCommand(c.args, c.lib);
}

int sweepSubcommand(const CommandContext& c) {
    return runSweepSubcommand(c.args);
}

int figure(const CommandContext& c) {
#ifdef ADE_HAVE_FIGURES
    return runFigureCommand(c.args, c.lib, c.argc, c.argv);
#else
    (void)c;
    return invalid("this build has no Qt: the figure command needs the GUI build");
#endif
}

int animate(const CommandContext& c) {
#ifdef ADE_HAVE_FIGURES
    return runAnimateCommand(c.args, c.argc, c.argv);
#else
    (void)c;
    return invalid("this build has no Qt: the animate command needs the GUI build");
#endif
}

int report(const CommandContext& c) {
    return runReportCommand(c.args, c.lib, c.argc, c.argv);
}

int completeWords(const CommandContext& c) {
    return printCompletionWords(c.args);
}

// Refusals several commands share (their wording is older than the table).
const OptionRefusal kAnimateOnly{{"--run", "--fps"},
                                 "--run and --fps belong to the animate command"};
const OptionRefusal kReportOnly{{"--quick", "--only", "--no-figures"},
                                "--quick, --only and --no-figures belong to the report command"};
OptionRefusal readsSweepJson(const std::string& sub) {
    return {{"--preset", "--config", "--vary", "--out"},
            "sweep " + sub + " DIR reads the sweep from DIR/sweep.json: --preset, --config, "
                             "--vary and --out belong to sweep"};
}

std::vector<CommandSpec> makeCommands() {
    std::vector<CommandSpec> t;
    t.push_back({.name = "presets",
                 .usage = R"(presets
      List the presets with one-line descriptions.
)",
                 .handler = presets});
    t.push_back({.name = "keys",
                 .usage = R"(keys [--preset NAME]
      List every configuration key with its default, range and meaning.
)",
                 .options = {"--preset"},
                 .handler = keys});
    t.push_back({.name = "run",
                 .usage = R"(run (--preset NAME | --config FILE.json) [--set KEY=VALUE]...
                             [--seeds K] [--jobs J] --out DIR [--save-data] [--quiet]
      Run every run of the preset or config (a comparison), each with the preset's seeds
      (--seeds K: K seeds per run), J runs at a time (default 1; the results do not depend on
      it), and check the preset's claims. Writes DIR/<run>/metrics.csv,
      DIR/<run>/summary.json and DIR/<run>/params/<name>.npy (and DIR/<run>/data/*.npy with
      --save-data). A preset that defines a sweep runs its sweep.
)",
                 .options = {"--preset", "--config", "--set", "--seeds", "--jobs", "--out",
                             "--save-data", "--quiet"},
                 .refusals = {kAnimateOnly, kReportOnly,
                              {{"--backend", "--samples", "--halving", "--metric", "--stat",
                                "--dry-run", "--resubmit"},
                               "--backend, --samples, --halving, --metric, --stat, --dry-run and "
                               "--resubmit belong to the sweep command"},
                              {{"--vary"}, "--vary belongs to the sweep command"}},
                 .handler = run});
    t.push_back({.name = "sweep",
                 .usage = R"(sweep (--preset NAME | --config FILE) --vary KEY=VALUES [--vary ...]
                               [--samples N] [--sample-seed S] [--seeds K] [--set KEY=VALUE]...
                               [--metric M] [--stat final|best|floor] [--higher-better]
                               [--halving [--eta 3] [--min-iterations N]] [--jobs J]
                               [--backend local|slurm] --out DIR [--save-data] [--quiet]
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
)",
                 .options = {"--preset", "--config", "--vary", "--samples", "--sample-seed",
                             "--seeds", "--set", "--metric", "--stat", "--higher-better",
                             "--halving", "--eta", "--min-iterations", "--jobs", "--backend",
                             "--out", "--save-data", "--quiet", "--dry-run", "--array-throttle",
                             "--time", "--mem", "--cpus-per-task", "--partition", "--account",
                             "--sbatch-arg", "--setup-cmd"},
                 .refusals = {kAnimateOnly, kReportOnly,
                              {{"--resubmit"}, "--resubmit belongs to sweep collect"},
                              {{"--index"}, "--index belongs to sweep task"}},
                 .handler = sweep,
                 .operands = true});
    t.push_back({.name = "sweep task",
                 .usage = R"(sweep task DIR [--index I]
      Run task I of a sweep folder (default: $SLURM_ARRAY_TASK_ID); a finished task is skipped.
)",
                 .options = {"--index"},
                 .refusals = {kAnimateOnly, kReportOnly, readsSweepJson("task")},
                 .handler = sweepSubcommand,
                 .operands = true});
    t.push_back({.name = "sweep collect",
                 .usage = R"(sweep collect DIR [--metric M] [--stat S] [--higher-better]
                                           [--resubmit [--array-throttle N] [--dry-run]]
      Gather the finished runs into DIR/sweep.csv, timing.csv, fit.json and session.json, print
      the results and the missing and failed tasks (exit 6 when there are any); --resubmit
      submits just those tasks again.
)",
                 .options = {"--metric", "--stat", "--higher-better", "--resubmit",
                             "--array-throttle", "--dry-run"},
                 .refusals = {kAnimateOnly, kReportOnly, readsSweepJson("collect")},
                 .handler = sweepSubcommand,
                 .operands = true});
    t.push_back({.name = "figure",
                 .usage = R"(figure (--preset NAME | --config FILE | --session FILE) --out DIR
                                [--format png,svg,pdf,pgf,mpl] [--size WxH] [--style screen|publication]
                                [--width-cm W | --columns 1|2] [--font-pt P] [--set KEY=VALUE]...
                                [--panels charts,matrices,attention,factor-plane,landscape]
                                [--run NAME] [--iteration N] [--grid N] [--quiet]
      Render the explorer's charts (loss, weight norms, manifold distance, other metrics) with
      the same code as the GUI's export: runs the preset or config first (or reads a saved
      session), writes DIR/<chart>.<format> and DIR/session.json. --panels chooses what to draw
      (default: charts): the inside views matrices, attention, factor-plane and landscape write
      DIR/<panel>.<format> of run NAME (default: the first with parameters) at its snapshot at
      or before iteration N (default: its latest; without snapshots its final parameters). The
      landscape is the contour map around that iterate, t along the symmetry orbit, s along a
      random direction, on an N x N grid (--grid, 3-64, default 33; --quiet: no progress).
      Every panel takes every format; pgf and mpl write the figure's data beside the .tex/.py.
      For a paper: --width-cm W (3-50) or --columns 1|2 (a two-column paper's column, 8.5 cm,
      or its text width, 17.8 cm) sets the size (points, height 2/3 of the width), 8 pt type
      and the legend below, as the GUI's Export dialog does; --font-pt P (4-48) the type size.
)",
                 .options = {"--preset", "--config", "--session", "--out", "--format", "--size",
                             "--style", "--set", "--panels", "--run", "--iteration", "--grid",
                             "--quiet", "--width-cm", "--columns", "--font-pt"},
                 .handler = figure});
    t.push_back({.name = "animate",
                 .usage = R"(animate --session FILE --out FILE.mp4|FILE.gif|DIR [--fps N]
                                 [--size WxH] [--run NAME]
                                 [--panels charts,matrices,attention,factor-plane]
      A run over its parameter snapshots as an animation, as the GUI's File > Export animation:
      each frame shows the --panels (default: charts, with a cursor at the snapshot's iteration;
      the inside views of the run at that snapshot; several: a grid, two columns), a PNG
      sequence always (DIR, or FILE_frames/ beside the film), and MP4 (H.264) or an animated GIF
      made by the ffmpeg command. --run: the session's run whose snapshots are the frames
      (default: the first one that has snapshots); --fps 1 to 60 (default 10); --size default
      1200x800.
)",
                 .options = {"--session", "--out", "--fps", "--size", "--run", "--panels"},
                 .refusals = {{{"--preset", "--config"},
                               "animate reads a saved session: use --session, not --preset or "
                               "--config (`run` writes DIR/session.json)"}},
                 .handler = animate});
    t.push_back({.name = "report",
                 .usage = R"(report --out DIR [--quick] [--only NAME,NAME] [--jobs J] [--no-figures]
                                [--quiet]
      The reproduction report: runs every preset (every seed; a preset's sweep), checks every
      claim the presets declare, and writes DIR/report.md and DIR/report.json (one section per
      paper: each claim, its measured number with the spread over seeds, holds or not) with
      each preset's runs and figures under DIR/<preset>/. --quick runs each preset at its
      "quick" sizes (minutes in all: a test that the science still holds, not the papers'
      sizes). Exits 5 when a claim does not hold.
)",
                 .options = {"--out", "--quick", "--only", "--jobs", "--no-figures", "--quiet"},
                 .refusals = {kAnimateOnly,
                              {{"--preset", "--config", "--set", "--vary"},
                               "report runs every preset as shipped; choose presets with --only "
                               "NAME,NAME"}},
                 .handler = report});
    t.push_back({.name = "help",
                 .aliases = {"--help", "-h"},
                 .usage = R"(help | --help | -h
      Print this text.
)",
                 .handler = help,
                 .anyOption = true});
    t.push_back({.name = "--version",
                 .aliases = {"-V", "version"},
                 .usage = R"(--version | -V
      Print the version and the CPU kernels in use.
)",
                 .handler = version});
    t.push_back({.name = "complete-words",
                 .usage = R"(complete-words [COMMAND]
      The words the bash completion offers: the commands, or COMMAND's options.
)",
                 .handler = completeWords,
                 .operands = true,
                 .hidden = true});
    return t;
}

}  // namespace

const std::vector<CommandSpec>& commands() {
    static const std::vector<CommandSpec> table = makeCommands();
    return table;
}

const std::vector<OptionSpec>& cliOptions() {
    static const std::vector<OptionSpec> options = {
        {"--preset", "NAME"},        {"--config", "FILE.json"},
        {"--session", "FILE.json"},  {"--out", "DIR"},
        {"--set", "KEY=VALUE", true}, {"--vary", "KEY=VALUES", true},
        {"--seeds", "K"},            {"--jobs", "J"},
        {"--save-data", ""},         {"--quiet", ""},
        {"--format", "LIST"},        {"--size", "WxH"},
        {"--style", "STYLE"},        {"--panels", "LIST"},
        {"--run", "NAME"},           {"--iteration", "N"},
        {"--grid", "N"},             {"--fps", "N"},
        {"--width-cm", "W"},         {"--columns", "1|2"},
        {"--font-pt", "P"},
        {"--quick", ""},             {"--only", "NAME,NAME"},
        {"--no-figures", ""},        {"--samples", "N"},
        {"--sample-seed", "S"},      {"--metric", "M"},
        {"--stat", "S"},             {"--higher-better", ""},
        {"--halving", ""},           {"--eta", "E"},
        {"--min-iterations", "N"},   {"--backend", "local|slurm"},
        {"--dry-run", ""},           {"--array-throttle", "N"},
        {"--time", "T"},             {"--mem", "M"},
        {"--cpus-per-task", "C"},    {"--partition", "P"},
        {"--account", "A"},          {"--sbatch-arg", "ARG", true},
        {"--setup-cmd", "CMD", true}, {"--index", "I"},
        {"--resubmit", ""},
    };
    return options;
}
