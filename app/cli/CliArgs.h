#pragma once
// Argument parsing for attention-explorer-cli (wiring only; the work is in core).
#include <optional>
#include <string>
#include <vector>

struct CliArgs {
    std::string command;  // argv[1]: a name of the table of Commands.cpp (presets, run, ...)
    std::string preset, configFile, outDir, sessionFile;
    std::string formats = "png,svg,pdf", size = "1200x800", style = "publication";
    std::vector<std::string> sets;    // --set KEY=VALUE
    std::vector<std::string> varies;  // --vary KEY=V1,V2
    int seeds = 0;                    // 0 = from the plan
    int jobs = 0;                     // 0 = number of cores
    bool saveData = false, quiet = false;
    bool quick = false, noFigures = false;  // report
    std::vector<std::string> only;          // report: these presets only (--only A,B)
    // figure, animate: which panels (charts, matrices, attention, factor-plane, landscape; "" = charts),
    // of run `run` ("" = the first with parameters) at `iteration` (-1 = the latest
    // parameters); the landscape's grid (LandscapeOptions.h).
    std::string panels, run;
    long iteration = -1;
    int grid = 33;
    // figure: a paper's width (--width-cm W, or --columns 1|2 of a two-column paper) and the
    // type size (--font-pt P), as given (FigureCommand checks them before anything is written).
    std::string widthCm, columns, fontPt;
    int fps = 10;                           // animate: frames per second
    // The words that are not options, of a command that takes them (CommandSpec::operands):
    // "sweep task DIR", "sweep collect DIR" (docs/sweeps.md).
    std::vector<std::string> positional;
    int samples = 0;                  // --samples N: random samples of rand: axes
    long long sampleSeed = -1;        // --sample-seed S (-1 = 1)
    std::string metric, stat;         // the objective ("" = headline metric, floor)
    bool higherBetter = false;
    bool halving = false;             // successive halving (--halving, --eta, --min-iterations)
    int eta = 0;                      // 0 = 3
    long minIterations = 0;
    std::string backend;              // local | slurm ("" = local)
    bool dryRun = false, resubmit = false;
    int arrayThrottle = 0, cpusPerTask = 0;  // 0 = derived
    std::string time, mem, partition, account;
    std::vector<std::string> sbatchArgs, setupCmds;
    long index = -1;                  // sweep task --index (-1 = $SLURM_ARRAY_TASK_ID)
    std::string commandLine;  // the exact invocation, shell-quoted
    std::vector<std::string> given;  // the options given, by long name (-q: --quiet), in order
};

// Returns nullopt with a message in `error` for malformed arguments.
std::optional<CliArgs> parseCliArgs(int argc, char** argv, std::string* error);
std::string shellQuote(const std::string& s);

enum ExitCode {
    ExitOk = 0,
    ExitInvalid = 2,
    ExitDiverged = 3,
    ExitFailed = 4,
    ExitClaims = 5,  // report: a claim does not hold, could not be checked, or holds on its control
    ExitIncomplete = 6,  // sweep collect: tasks missing or failed
    ExitInterrupted = 130
};
