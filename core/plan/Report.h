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
#include "plan/ScalingModels.h"

namespace ade {

// A claim's negative control as the report ran it (claims/Claims.h): the claim checked on the
// variant of its preset in which the effect is absent. It must not hold.
struct ControlReport {
    bool declared = false;  // the claim declares a control
    bool ran = false;       // it was checked (false: see problem)
    ClaimResult result;     // the claim as the control checks it
    int runs = 0;           // runs made for it (a swap reuses the claim's runs: 0)
    int reused = 0;         // runs the control leaves unchanged, taken from the claim's runs
    double seconds = 0;     // wall time of its runs
    std::string problem;    // why it was not checked, or a run that failed
    bool failsAsItMust() const { return ran && result.status == ClaimStatus::DoesNotHold; }
};

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
    std::vector<ScalingComparison> laws;  // and which law its points follow (ScalingModels.h)
    std::string fitX, fitY;
    std::string skipped;  // why it did not run (a quick report of a preset without quick sizes)
    std::vector<ControlReport> controls;  // one per claim (empty until the controls ran)
    // Runs under a stopping rule (stop_tol > 0): how many it stopped ("converged") and which
    // reached their iteration cap first (not converged), by run name.
    int converged = 0;
    std::vector<std::string> capped;
};

struct ReportSummary {
    int claims = 0, holding = 0, notHolding = 0, unavailable = 0;
    int skippedClaims = 0;  // claims of presets that did not run (quick report)
    int controls = 0;       // controls declared
    int controlsFailing = 0;    // controls on which the claim does not hold, as it must
    int controlsHolding = 0;    // controls on which the claim still holds: it cannot fail there
    int controlsUnchecked = 0;  // controls not run or unavailable
    int claimsWithoutControl = 0;
};
ReportSummary summarize(const std::vector<PresetReport>& presets);

// Runs one preset (its comparison with all seeds, or its sweep) into `dir`, writing the run
// folders, a session (comparisons) or sweep.csv and fit.json (sweeps), and checks its claims.
// `outcomes` receives the runs (for figures).
PresetReport runPresetForReport(const Plan& plan, const std::filesystem::path& dir, int jobs,
                                const std::string& commandLine, RunControl* control,
                                const std::function<void(const std::string&)>& log,
                                std::vector<RunOutcome>* outcomes);

// Runs the negative control of every claim of `plan` that declares one, each into
// dir/controls/<claim id>, and fills rep.controls. `outcomes` are the claim's own runs (empty
// when the preset did not run): a swap alone checks them, and a control run whose config (and
// the config of the run it starts from) is unchanged is taken from them rather than run again
// (same seed, same config: the same run).
void runControlsForReport(const Plan& plan, const std::vector<RunOutcome>& outcomes,
                          const std::filesystem::path& dir, int jobs,
                          const std::string& commandLine, RunControl* control,
                          const std::function<void(const std::string&)>& log, PresetReport& rep);

// A preset that does not run in this report (its "quick" says why it has no quick sizes).
PresetReport skippedPresetReport(const Plan& plan, const std::string& reason);

struct ReportHeader {
    bool quick = false;
    std::string version, commandLine, date;
    double seconds = 0;
    int cores = 0;
};
std::string reportMarkdown(const std::vector<PresetReport>& presets, const ReportHeader& header);
nlohmann::json reportJson(const std::vector<PresetReport>& presets, const ReportHeader& header);

}  // namespace ade
