#include "plan/Report.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"
#include "output/Session.h"
#include "util/RunControl.h"

namespace ade {

namespace {

std::string paperOf(const Plan& plan) {
    if (!plan.claims.empty()) return plan.claims.front().paper;
    return !plan.runs.empty() && plan.runs.front().config.experiment() == "a" ? "A" : "B";
}

const char* mark(ClaimStatus s) {
    switch (s) {
    case ClaimStatus::Holds: return "✓ holds";
    case ClaimStatus::DoesNotHold: return "✗ does not hold";
    case ClaimStatus::Pending: return "◌ pending";
    case ClaimStatus::Unavailable: return "– unavailable";
    }
    return "";
}

// Markdown table cells hold no '|' or line breaks.
std::string cell(std::string s) {
    for (auto& ch : s)
        if (ch == '|' || ch == '\n') ch = ch == '|' ? '/' : ' ';
    return s;
}

// The control column: what is absent, and what the claim measured on it.
std::string controlCell(const PresetReport& p, std::size_t i) {
    const auto& c = p.claims[i].control;
    if (!c) return "none declared";
    std::string s = c->why;
    if (i < p.controls.size() && p.controls[i].ran) {
        s += ": " + p.controls[i].result.measured;
        const ControlReport& cr = p.controls[i];
        if (cr.runs || cr.reused)
            s += " (" + std::to_string(cr.runs) + " runs" +
                 (cr.reused ? ", " + std::to_string(cr.reused) + " reused" : std::string()) + ")";
        else
            s += " (the claim's runs)";
    }
    if (i < p.controls.size() && !p.controls[i].problem.empty())
        s += "; problem: " + p.controls[i].problem;
    return cell(s);
}

std::string controlVerdict(const PresetReport& p, std::size_t i) {
    if (!p.claims[i].control) return "**– the claim is not shown able to fail**";
    if (i >= p.controls.size() || !p.controls[i].ran) return "– not checked";
    const ClaimResult& r = p.controls[i].result;
    if (r.status == ClaimStatus::DoesNotHold) return "✗ does not hold, as it must";
    if (r.status == ClaimStatus::Holds) return "**✓ holds: the claim cannot fail here**";
    return mark(r.status);
}

std::string seconds(double s) {
    char buf[32];
    if (s < 100)
        std::snprintf(buf, sizeof buf, "%.1f s", s);
    else
        std::snprintf(buf, sizeof buf, "%.0f s (%.1f min)", s, s / 60);
    return buf;
}

}  // namespace

PresetReport skippedPresetReport(const Plan& plan, const std::string& reason) {
    PresetReport rep;
    rep.preset = plan.name;
    rep.description = plan.description;
    rep.paper = paperOf(plan);
    rep.claims = plan.claims;
    rep.seeds = plan.seeds;
    rep.skipped = reason;
    return rep;
}

ReportSummary summarize(const std::vector<PresetReport>& presets) {
    ReportSummary s;
    for (const auto& p : presets) {
        if (!p.skipped.empty()) s.skippedClaims += static_cast<int>(p.claims.size());
        else if (p.results.size() < p.claims.size()) {
            const int missing = static_cast<int>(p.claims.size() - p.results.size());
            s.claims += missing;
            s.unavailable += missing;
        }
        for (std::size_t i = 0; i < p.claims.size(); ++i) {
            if (!p.claims[i].control) {
                ++s.claimsWithoutControl;
                continue;
            }
            ++s.controls;
            if (i >= p.controls.size() || !p.controls[i].ran ||
                p.controls[i].result.status == ClaimStatus::Unavailable ||
                p.controls[i].result.status == ClaimStatus::Pending)
                ++s.controlsUnchecked;
            else if (p.controls[i].failsAsItMust())
                ++s.controlsFailing;
            else
                ++s.controlsHolding;
        }
        for (const auto& r : p.results) {
            ++s.claims;
            s.holding += r.status == ClaimStatus::Holds;
            s.notHolding += r.status == ClaimStatus::DoesNotHold;
            s.unavailable += r.status == ClaimStatus::Unavailable || r.status == ClaimStatus::Pending;
        }
    }
    return s;
}

PresetReport runPresetForReport(const Plan& plan, const std::filesystem::path& dir, int jobs,
                                const std::string& commandLine, RunControl* control,
                                const std::function<void(const std::string&)>& log,
                                std::vector<RunOutcome>* outcomesOut) {
    PresetReport rep;
    rep.preset = plan.name;
    rep.description = plan.description;
    rep.paper = paperOf(plan);
    rep.claims = plan.claims;
    rep.folder = plan.name;
    std::vector<PlannedRun> runs;
    if (plan.sweep) {
        std::string error;
        auto points = expandSweep(plan, *plan.sweep, &error);
        if (!points) {
            rep.problems.push_back(error);
            return rep;
        }
        runs = std::move(*points);
        rep.seeds = plan.sweep->seeds;
    } else {
        runs = plainRuns(plan);
        rep.seeds = plan.seeds;
    }
    rep.runs = static_cast<int>(runs.size());
    std::string error;
    if (!prepareOutputFolder(dir, &error)) {
        rep.problems.push_back(error);
        return rep;
    }
    PlanRunOptions o;
    o.outDir = dir;
    o.jobs = std::max(1, jobs);
    o.commandLine = commandLine;
    o.control = control;
    o.keepSnapshots = false;  // the report's sessions are written without parameters
    o.finished = [&](const RunOutcome& out) {
        if (log)
            log(out.run.name + ": " + toString(out.result.status) + " after " +
                std::to_string(out.result.iterationsDone) + " iterations");
    };
    const auto t0 = std::chrono::steady_clock::now();
    auto outcomes = runPlanned(runs, plan.name, o);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (const auto& out : outcomes) {
        if (out.result.status != RunStatus::Completed)
            rep.problems.push_back(out.run.name + ": " + toString(out.result.status) +
                                   (out.result.message.empty() ? "" : " - " + out.result.message));
        else if (!out.written)
            rep.problems.push_back(out.run.name + ": " + out.error);
        if (out.result.stop == "converged") ++rep.converged;
        if (out.result.stop == "cap") rep.capped.push_back(out.run.name);
    }
    std::string err;
    if (plan.sweep) {
        if (!writeFileAtomic(dir / "sweep.csv", sweepCsv(outcomes), &err) ||
            !writeFileAtomic(dir / "timing.csv", timingCsv(outcomes), &err))
            rep.problems.push_back(err);
        rep.fitX = plan.sweep->fitX.empty() && !plan.sweep->vary.empty()
                       ? plan.sweep->vary.front().first
                       : plan.sweep->fitX;
        rep.fitY = plan.sweep->fitY;
        rep.fits = fitPowerLaw(outcomes, rep.fitX, rep.fitY, "floor");
        rep.laws = compareScalingModels(outcomes, rep.fitX, rep.fitY, "floor");
    } else {
        Session session;
        session.preset = plan.name;
        for (const auto& out : outcomes)
            if (!out.result.history.rows.empty())
                session.runs.push_back(sessionRunOf(out, plan.seeds));
        if (!writeSessionFile(dir / "session.json", session, false, &err))
            rep.problems.push_back(err);
    }
    const auto claimInput = claimRuns(outcomes);
    for (const auto& c : plan.claims)
        rep.results.push_back(evaluateClaim(c, claimInput));
    runControlsForReport(plan, outcomes, dir, jobs, commandLine, control, log, rep);
    if (outcomesOut) *outcomesOut = std::move(outcomes);
    return rep;
}

std::string reportMarkdown(const std::vector<PresetReport>& presets, const ReportHeader& h) {
    const ReportSummary s = summarize(presets);
    std::string md;
    md += "# Reproduction report\n\n";
    md += std::string("Every preset ") +
          (h.quick ? "at its **quick** sizes (a smoke test of the science, not the papers' sizes)"
                   : "at its defaults") +
          ", every claim checked over all its seeds. A claim holds when the number it measures "
          "lies in its range for every seed; the spread is the standard deviation and the "
          "range over seeds (for a slope: the 95% confidence interval of the fit).\n\n";
    md += "- **Claims:** " + std::to_string(s.holding) + " of " + std::to_string(s.claims) +
          " hold";
    if (s.notHolding) md += ", **" + std::to_string(s.notHolding) + " do not hold**";
    if (s.unavailable) md += ", " + std::to_string(s.unavailable) + " could not be checked";
    if (s.skippedClaims)
        md += "; " + std::to_string(s.skippedClaims) +
              " more belong to presets without quick sizes (checked by the full report)";
    md += "\n";
    md += "- **Negative controls:** " + std::to_string(s.controlsFailing) + " of " +
          std::to_string(s.controls) +
          " fail as they must (each claim checked once more on a variant of its preset in which "
          "its effect is absent)";
    if (s.controlsHolding)
        md += ", **" + std::to_string(s.controlsHolding) +
              " still hold: those claims cannot fail there**";
    if (s.controlsUnchecked) md += ", " + std::to_string(s.controlsUnchecked) + " not checked";
    if (s.claimsWithoutControl)
        md += "; **" + std::to_string(s.claimsWithoutControl) + " claims declare no control**";
    md += "\n";
    md += "- **Version:** " + h.version + "; " + h.date + "; " + std::to_string(h.cores) +
          " cores; wall time " + seconds(h.seconds) + "\n";
    md += "- **Command:** `" + h.commandLine + "`\n\n";

    const std::map<std::string, std::string> papers = {
        {"A", "Paper A: softmax self-attention on linear regression, its matrix-factorisation limit "
              "and the structure-aware algorithm"},
        {"B", "Paper B: stochastic training of attention and LoRA, weak regularisers and "
              "weight-norm growth"}};
    for (const auto& [paper, title] : papers) {
        bool any = false;
        for (const auto& p : presets)
            any = any || p.paper == paper;
        if (!any) continue;
        md += "## " + title + "\n\n";
        for (const auto& p : presets) {
            if (p.paper != paper) continue;
            md += "### " + p.preset + "\n\n" + p.description + "\n\n";
            if (!p.skipped.empty()) {
                md += "*Not run at quick sizes: " + p.skipped + " Its " +
                      std::to_string(p.claims.size()) +
                      " claims are checked by the full report; their negative controls, at the "
                      "controls' own sizes, here:*\n\n";
                md += "| claim | negative control | control's verdict |\n|---|---|---|\n";
                for (std::size_t i = 0; i < p.claims.size(); ++i)
                    md += "| " + cell(p.claims[i].text) + " | " + controlCell(p, i) + " | " +
                          controlVerdict(p, i) + " |\n";
                md += "\n";
                continue;
            }
            md += "*" + std::to_string(p.runs) + " runs (" + std::to_string(p.seeds) +
                  (p.seeds == 1 ? " seed" : " seeds") + " each), " + seconds(p.seconds) +
                  "; run folders in `" + p.folder + "/`.*\n\n";
            if (p.converged > 0 || !p.capped.empty()) {
                const int ruled = p.converged + static_cast<int>(p.capped.size());
                md += "Stopping rule: " + std::to_string(p.converged) + " of " +
                      std::to_string(ruled) + " runs converged before their iteration cap";
                if (!p.capped.empty()) {
                    md += "; **" + std::to_string(p.capped.size()) +
                          " reached the cap first (not converged):** ";
                    for (std::size_t i = 0; i < p.capped.size(); ++i)
                        md += (i ? ", " : "") + cell(p.capped[i]);
                }
                md += ".\n\n";
            }
            if (p.claims.empty()) {
                md += "No claims declared.\n\n";
            } else {
                md +=
                    "| claim | measured | verdict | threshold | negative control | control's "
                    "verdict | compute per run |\n|---|---|---|---|---|---|---|\n";
                for (std::size_t i = 0; i < p.claims.size(); ++i) {
                    const std::string threshold = p.claims[i].threshold
                                                      ? cell(thresholdText(*p.claims[i].threshold))
                                                      : std::string("not stated");
                    const std::string control = " | " + threshold + " | " + controlCell(p, i) +
                                                " | " + controlVerdict(p, i) + " | ";
                    if (i >= p.results.size()) {  // its runs could not start (see Problems)
                        md += "| " + cell(p.claims[i].text) + " | not measured | – unavailable" +
                              control + " |\n";
                        continue;
                    }
                    const ClaimResult& r = p.results[i];
                    md += "| " + cell(p.claims[i].text) + " | " + cell(r.measured) + " | " +
                          mark(r.status) + control + cell(computeText(r.compute)) + " |\n";
                }
                md += "\n";
            }
            for (const auto& f : p.fits) {
                char buf[160];
                std::snprintf(buf, sizeof buf,
                              "Fitted power law (%s): floor of %s ∝ %s^%.3f, R² %.3f over %d "
                              "values (geometric means over seeds):",
                              f.series.c_str(), p.fitY.c_str(), p.fitX.c_str(), f.slope, f.r2,
                              f.points);
                md += std::string(buf) + "\n\n| " + p.fitX + " | floor of " + p.fitY +
                      " |\n|---|---|\n";
                for (const auto& [x, y] : f.xy) {
                    char row[96];
                    std::snprintf(row, sizeof row, "| %g | %.4g |\n", x, y);
                    md += row;
                }
                md += "\n";
            }
            for (const auto& law : p.laws)
                md += scalingComparisonMarkdown(law, p.fitX, p.fitY);
            for (const auto& fig : p.figures)
                md += "![" + p.preset + ": " + std::filesystem::path(fig).stem().string() + "](" +
                      fig + ")\n";
            if (!p.figures.empty()) md += "\n";
            for (const auto& pr : p.problems)
                md += "- **Problem:** " + cell(pr) + "\n";
            if (!p.problems.empty()) md += "\n";
        }
    }
    return md;
}

nlohmann::json reportJson(const std::vector<PresetReport>& presets, const ReportHeader& h) {
    const ReportSummary s = summarize(presets);
    nlohmann::json j = {{"quick", h.quick},
                        {"version", h.version},
                        {"date", h.date},
                        {"cores", h.cores},
                        {"seconds", h.seconds},
                        {"command", h.commandLine},
                        {"claims", s.claims},
                        {"holding", s.holding},
                        {"not_holding", s.notHolding},
                        {"unavailable", s.unavailable},
                        {"skipped_claims", s.skippedClaims},
                        {"controls", s.controls},
                        {"controls_failing", s.controlsFailing},
                        {"controls_holding", s.controlsHolding},
                        {"controls_unchecked", s.controlsUnchecked},
                        {"claims_without_control", s.claimsWithoutControl}};
    nlohmann::json list = nlohmann::json::array();
    auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); };
    auto computeJson = [&](const std::vector<ClaimCompute>& compute) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& c : compute)
            a.push_back({{"run", c.run},
                         {"runs", c.runs},
                         {"iterations", c.iterations},
                         {"data_passes", num(c.passes)},
                         {"seconds", num(c.seconds)}});
        return a;
    };
    for (const auto& p : presets) {
        nlohmann::json pj = {
            {"preset", p.preset},       {"paper", p.paper},       {"runs", p.runs},
            {"seeds", p.seeds},         {"seconds", p.seconds},   {"folder", p.folder},
            {"figures", p.figures},     {"problems", p.problems}, {"skipped", p.skipped},
            {"converged", p.converged}, {"capped", p.capped}};
        nlohmann::json cl = nlohmann::json::array();
        for (std::size_t i = 0; i < p.claims.size(); ++i) {
            nlohmann::json control;  // null: none declared
            if (p.claims[i].control) {
                control = {{"why", p.claims[i].control->why}, {"status", "not checked"}};
                if (i < p.controls.size()) {
                    const ControlReport& cr = p.controls[i];
                    if (cr.ran) {
                        control["status"] = statusText(cr.result.status);
                        control["value"] = num(cr.result.value);
                        control["measured"] = cr.result.measured;
                    }
                    control["fails_as_it_must"] = cr.failsAsItMust();
                    control["runs"] = cr.runs;
                    control["reused"] = cr.reused;
                    control["seconds"] = cr.seconds;
                    control["problem"] = cr.problem;
                }
            }
            if (i >= p.results.size()) {  // the preset did not run (skipped)
                cl.push_back(
                    {{"claim", toJson(p.claims[i])}, {"status", "not run"}, {"control", control}});
                continue;
            }
            const ClaimResult& r = p.results[i];
            cl.push_back({{"claim", toJson(p.claims[i])},
                          {"status", statusText(r.status)},
                          {"value", num(r.value)},
                          {"sd", num(r.sd)},
                          {"lo", num(r.lo)},
                          {"hi", num(r.hi)},
                          {"seeds", r.seeds},
                          {"seeds_in_range", r.seedsInRange},
                          {"mean_ci95", {num(r.meanLo), num(r.meanHi)}},
                          {"geomean", num(r.geoMean)},
                          {"geomean_ci95", {num(r.geoLo), num(r.geoHi)}},
                          {"measured", r.measured},
                          {"compute", computeJson(r.compute)},
                          {"control", control}});
        }
        nlohmann::json laws = nlohmann::json::array();
        for (const auto& law : p.laws) {
            nlohmann::json models = nlohmann::json::array();
            for (const auto& m : law.models)
                models.push_back({{"model", m.name},
                                  {"constants", m.params},
                                  {"exponent", m.slope},
                                  {"exponent_ci95", m.slopeCi95},
                                  {"log_c", m.logC},
                                  {"rss", m.rss},
                                  {"aicc", m.aicc},
                                  {"weight", m.weight}});
            laws.push_back({{"series", law.series},
                            {"points", law.points},
                            {"x_values", law.xs},
                            {"models", models},
                            {"best", law.best >= 0 ? nlohmann::json(law.models[law.best].name)
                                                   : nlohmann::json()},
                            {"delta_aicc", num(law.deltaAicc)}});
        }
        pj["laws"] = std::move(laws);
        pj["claims"] = std::move(cl);
        list.push_back(std::move(pj));
    }
    j["presets"] = std::move(list);
    return j;
}

}  // namespace ade
