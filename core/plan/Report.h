#pragma once
// The reproduction report: every preset run (at its defaults or its quick sizes), every claim
// checked over all seeds, written as Markdown (report.md) and JSON (report.json) with one
// section per paper. The CLI's `report` command runs the presets and renders the figures; this
// file holds what needs no Qt: running one preset, checking its claims, writing the report.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "plan/PlanRunner.h"
#include "plan/Preset.h"

namespace ade {

struct PresetReport {
    std::string preset, description, paper;  // paper: "A" or "B"
    std::vector<ClaimSpec> claims;
    std::vector<ClaimResult> results;
    int runs = 0;           // runs made (every seed and sweep point)
    int seeds = 1;          // seeds per run (per sweep point)
    double seconds = 0;     // wall time of its runs
    std::string folder;     // its run folders, relative to the report folder
    std::vector<std::string> figures;  // relative to the report folder
    std::vector<std::string> problems; // runs that failed or diverged, files not written
    std::vector<PowerLawFit> fits;     // a sweep's fitted power laws (its "fit" metric)
    std::string fitX, fitY;
};

struct ReportSummary {
    int claims = 0, holding = 0, notHolding = 0, unavailable = 0;
};
ReportSummary summarize(const std::vector<PresetReport>& presets);

// Runs one preset (its comparison with all seeds, or its sweep) into `dir`, writing the run
// folders, a session (comparisons) or sweep.csv and fit.json (sweeps), and checks its claims.
// `outcomes` receives the runs (for figures).
PresetReport runPresetForReport(const Plan& plan, const std::filesystem::path& dir, int jobs,
                                const std::string& commandLine, RunControl* control,
                                const std::function<void(const std::string&)>& log,
                                std::vector<RunOutcome>* outcomes);

struct ReportHeader {
    bool quick = false;
    std::string version, commandLine, date;
    double seconds = 0;
    int cores = 0;
};
std::string reportMarkdown(const std::vector<PresetReport>& presets, const ReportHeader& header);
nlohmann::json reportJson(const std::vector<PresetReport>& presets, const ReportHeader& header);

}  // namespace ade
