// The report's negative controls (plan/Report.h): every claim checked once more on the variant
// of its preset in which its effect is absent.
#include <chrono>
#include <deque>
#include <map>

#include "io/Files.h"
#include "plan/Report.h"
#include "util/RunControl.h"

namespace ade {

namespace {

// A run a control run may stand for: the claim's own run or a run an earlier control made, of the
// same folder name, the same config and the same varied key; for init = same, the run it starts
// from must be such a run too. The same config and seed give the same numbers bit for bit, so
// two controls that change a preset the same way (b-regularizers' log-flat and log-no-diffusion)
// train once.
using Outcomes = std::multimap<std::string, const RunOutcome*>;
const RunOutcome* reusable(const PlannedRun& run, const std::vector<PlannedRun>& controlRuns,
                           const Outcomes& byName, int depth = 0) {
    if (depth > 16) return nullptr;
    const auto [first, last] = byName.equal_range(run.name);
    for (auto it = first; it != last; ++it) {
        const RunOutcome& out = *it->second;
        if (out.result.status != RunStatus::Completed ||
            out.run.config.toJson() != run.config.toJson() || out.run.varied != run.varied)
            continue;
        if (run.config.getString("init") != "same") return &out;
        const std::string from = run.config.getString("init_from");
        for (const auto& r : controlRuns)
            if (r.label == from && r.varied == run.varied && r.seedIndex == run.seedIndex)
                return reusable(r, controlRuns, byName, depth + 1) ? &out : nullptr;
        return nullptr;
    }
    return nullptr;
}

}  // namespace

void runControlsForReport(const Plan& plan, const std::vector<RunOutcome>& outcomes,
                          const std::filesystem::path& dir, int jobs,
                          const std::string& commandLine, RunControl* control,
                          const std::function<void(const std::string&)>& log, PresetReport& rep) {
    Outcomes byName;
    for (const auto& o : outcomes)
        byName.emplace(o.run.name, &o);
    std::deque<RunOutcome> controlOutcomes;  // every control run made here, for later controls
    rep.controls.assign(plan.claims.size(), ControlReport{});
    for (std::size_t i = 0; i < plan.claims.size(); ++i) {
        const ClaimSpec& claim = plan.claims[i];
        ControlReport& cr = rep.controls[i];
        if (!claim.control) continue;
        cr.declared = true;
        if (control && control->stopRequested()) {
            cr.problem = "interrupted";
            continue;
        }
        const ClaimSpec checked = controlledClaim(claim);
        if (!claim.control->needsRuns()) {  // a swap: the claim's own runs, read the other way
            if (outcomes.empty()) {
                cr.problem = "the claim's runs did not run in this report";
                continue;
            }
            cr.ran = true;
            cr.result = evaluateClaim(checked, claimRuns(outcomes));
            continue;
        }
        PlanError pe;
        const auto cp = controlPlan(plan, claim, &pe);
        if (!cp) {
            cr.problem = pe.message;
            continue;
        }
        std::vector<PlannedRun> runs;
        if (cp->sweep) {
            std::string error;
            auto points = expandSweep(*cp, *cp->sweep, &error);
            if (!points) {
                cr.problem = error;
                continue;
            }
            runs = std::move(*points);
        } else {
            runs = plainRuns(*cp);
        }
        std::vector<RunOutcome> all;
        std::vector<PlannedRun> toRun;
        for (const auto& r : runs) {
            if (const RunOutcome* o = reusable(r, runs, byName)) {
                all.push_back(*o);
                ++cr.reused;
            } else {
                toRun.push_back(r);
            }
        }
        const std::filesystem::path cdir = dir / "controls" / claim.id;
        std::string error;
        if (!toRun.empty() && !prepareOutputFolder(cdir, &error)) {
            cr.problem = error;
            continue;
        }
        PlanRunOptions o;
        o.outDir = cdir;
        o.jobs = std::max(1, jobs);
        o.commandLine = commandLine;
        o.control = control;
        o.keepSnapshots = false;
        o.context = &runs;  // a changed run may start from an unchanged one
        const auto t0 = std::chrono::steady_clock::now();
        auto made = toRun.empty() ? std::vector<RunOutcome>{} : runPlanned(toRun, cp->name, o);
        cr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        cr.runs = static_cast<int>(made.size());
        for (const auto& out : made)
            if (out.result.status != RunStatus::Completed && cr.problem.empty())
                cr.problem = out.run.name + ": " + toString(out.result.status) +
                             (out.result.message.empty() ? "" : " - " + out.result.message);
        for (auto& m : made) {
            if (m.result.status == RunStatus::Completed) {
                controlOutcomes.push_back(m);
                byName.emplace(m.run.name, &controlOutcomes.back());
            }
            all.push_back(std::move(m));
        }
        cr.ran = true;
        cr.result = evaluateClaim(checked, claimRuns(all));
        if (log)
            log("control of " + claim.id + " (" + claim.control->why +
                "): " + statusText(cr.result.status) + (cr.failsAsItMust() ? ", as it must" : "") +
                "; " + std::to_string(cr.runs) + " runs, " + std::to_string(cr.reused) + " reused");
    }
}

}  // namespace ade
