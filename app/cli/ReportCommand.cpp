#include "ReportCommand.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <thread>

#ifdef ADE_HAVE_FIGURES
#include "FigureCommand.h"
#endif
#include "Version.h"
#include "experiments/ExperimentRegistry.h"
#include "io/Files.h"
#include "output/Session.h"
#include "plan/Report.h"
#include "util/RunControl.h"

using namespace ade;

namespace {

RunControl* gReportControl = nullptr;
void onReportSignal(int) {
    if (gReportControl) gReportControl->requestStopFromSignal();
}

int fail(int code, const std::string& m) {
    std::cerr << "attention-explorer-cli: " << m << "\n";
    return code;
}

std::string today() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
    return buf;
}

}  // namespace

int runReportCommand(const CliArgs& a, const PresetLibrary& lib, int argc, char** argv) {
    if (a.outDir.empty()) return fail(ExitInvalid, "--out DIR is required");
    for (const auto& name : a.only)
        if (!lib.find(name))
            return fail(ExitInvalid, "--only: unknown preset '" + name + "'; available: " + lib.names());
    // Every preset loads (and has valid quick sizes) before anything runs.
    std::vector<Plan> plans;
    for (const auto& e : lib.entries()) {
        if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), e.name) == a.only.end())
            continue;
        PlanError pe;
        auto plan = lib.load(e.name, {}, &pe);
        if (plan && a.quick) plan = quickPlan(*plan, &pe);
        if (!plan) return fail(ExitInvalid, pe.message);
        plans.push_back(std::move(*plan));
    }
    if (plans.empty()) return fail(ExitInvalid, "no presets found: " + lib.names());
    std::string error;
    if (!prepareOutputFolder(a.outDir, &error)) return fail(ExitFailed, error);

#ifdef ADE_HAVE_FIGURES
    int qtArgc = argc;
    std::unique_ptr<HeadlessQt> qt;
    if (!a.noFigures) qt = std::make_unique<HeadlessQt>(qtArgc, argv);
#else
    (void)argc;
    (void)argv;
#endif
    RunControl control;
    gReportControl = &control;
    std::signal(SIGINT, onReportSignal);
    std::signal(SIGTERM, onReportSignal);
    const int jobs =
        a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<PresetReport> reports;
    const std::filesystem::path out(a.outDir);
    const auto log = [&](const std::string& line) {
        if (!a.quiet) std::printf("    %s\n", line.c_str()), std::fflush(stdout);
    };
    for (std::size_t i = 0; i < plans.size() && !control.stopRequested(); ++i) {
        const Plan& plan = plans[i];
        if (!a.quiet)
            std::printf("[%zu/%zu] %s\n", i + 1, plans.size(), plan.name.c_str()), std::fflush(stdout);
        if (a.quick && !plan.quickSkipReason().empty()) {
            if (!a.quiet) std::printf("    not run at quick sizes: %s\n", plan.quickSkipReason().c_str());
            PresetReport rep = skippedPresetReport(plan, plan.quickSkipReason());
            // Its controls still run, at the sizes they declare.
            runControlsForReport(plan, {}, out / plan.name, jobs, a.commandLine, &control, log,
                                 rep);
            reports.push_back(std::move(rep));
            continue;
        }
        std::vector<RunOutcome> outcomes;
        PresetReport rep = runPresetForReport(plan, out / plan.name, jobs, a.commandLine, &control,
                                              log, &outcomes);
#ifdef ADE_HAVE_FIGURES
        if (qt && !plan.sweep && !outcomes.empty()) {
            Session session;
            session.preset = plan.name;
            for (const auto& o : outcomes)
                if (!o.result.history.rows.empty())
                    session.runs.push_back(sessionRunOf(o, plan.seeds));
            std::string ferr;
            for (const auto& f :
                 renderSessionFigures(session, (out / plan.name / "figures").string(),
                                      a.commandLine, &ferr))
                rep.figures.push_back(std::filesystem::relative(f, out).string());
            if (!ferr.empty()) rep.problems.push_back("figures: " + ferr);
        }
        if (qt && plan.sweep && !rep.fits.empty()) {
            const std::filesystem::path fig = out / plan.name / "figures" / "scaling.png";
            const std::string experiment =
                plan.runs.empty() ? std::string() : plan.runs.front().config.experiment();
            const MetricInfo m = describeColumn(experiment, rep.fitY);
            std::string ferr;
            if (renderScalingFigure(rep.fits, rep.fitX, "floor of " + m.label, fig.string(), &ferr))
                rep.figures.push_back(std::filesystem::relative(fig, out).string());
            else
                rep.problems.push_back("figures: " + ferr);
        }
#endif
        for (std::size_t c = 0; c < rep.claims.size() && !a.quiet; ++c)
            std::printf("    %s %s: %s\n",
                        rep.results[c].status == ClaimStatus::Holds ? "holds        "
                        : rep.results[c].status == ClaimStatus::DoesNotHold ? "DOES NOT HOLD"
                                                                            : "unavailable  ",
                        rep.claims[c].id.c_str(), rep.results[c].measured.c_str());
        reports.push_back(std::move(rep));
    }
    gReportControl = nullptr;
    ReportHeader h;
    h.quick = a.quick;
    h.version = ADE_VERSION;
    h.commandLine = a.commandLine;
    h.date = today();
    h.cores = static_cast<int>(std::thread::hardware_concurrency());
    h.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string err;
    if (!writeFileAtomic(out / "report.md", reportMarkdown(reports, h), &err) ||
        !writeFileAtomic(out / "report.json", reportJson(reports, h).dump(2) + "\n", &err))
        return fail(ExitFailed, err);
    const ReportSummary s = summarize(reports);
    std::printf("claims: %d of %d hold", s.holding, s.claims);
    if (s.notHolding) std::printf(", %d do not hold", s.notHolding);
    if (s.unavailable) std::printf(", %d could not be checked", s.unavailable);
    if (s.skippedClaims) std::printf(", %d not run at quick sizes", s.skippedClaims);
    std::printf("; negative controls: %d of %d fail as they must", s.controlsFailing, s.controls);
    if (s.controlsHolding)
        std::printf(", %d HOLD (their claims cannot fail there)", s.controlsHolding);
    if (s.controlsUnchecked) std::printf(", %d not checked", s.controlsUnchecked);
    std::printf(" (%.0f s); wrote %s/report.md and report.json\n", h.seconds, a.outDir.c_str());
    if (control.stopRequested()) {
        std::cerr << "attention-explorer-cli: interrupted; the report covers the presets run so far\n";
        return ExitInterrupted;
    }
    bool problems = false;
    for (const auto& r : reports)
        problems = problems || !r.problems.empty();
    if (s.notHolding || s.unavailable || s.controlsHolding || s.controlsUnchecked)
        return ExitClaims;
    return problems ? ExitFailed : ExitOk;
}
