// SweepBinding.h. The design is core's sweepDesignOf, as the CLI's; the runs go through core's
// runSweepLocal on a thread of its own (Released.h).
#include "SweepBinding.h"

#include "Convert.h"
#include "LoadBinding.h"
#include "PlanLoad.h"
#include "Released.h"
#include "sweep/Sweep.h"

namespace ade::python {

py::dict runSweep(const SweepRequest& request) {
    const Plan plan = loadPlan(request.source);
    bool presetSweep = false;
    std::string error;
    const auto designed = sweepDesignOf(plan, request.ask, &presetSweep, &error);
    if (!designed) throw std::invalid_argument(error);
    const SweepDesign& design = *designed;

    RunControl control;
    RecordHandoff handoff;  // no records go to Python during a sweep: Ctrl-C only
    PlanRunOptions o;
    o.outDir = request.out;
    o.jobs = std::max(1, request.jobs);
    o.commandLine = request.commandLine;
    o.control = &control;
    o.keepSnapshots = false;
    std::vector<RunOutcome> outcomes;
    std::vector<HalvingRung> rungs;
    auto released = runReleased(
        control, handoff, [&] { outcomes = runSweepLocal(plan, design, o, &rungs, &error); },
        [] {});
    if (!released.crash.empty()) throw std::runtime_error("the sweep failed: " + released.crash);
    if (released.error) throw std::move(*released.error);
    if (outcomes.empty() && !error.empty()) throw std::invalid_argument(error);
    if (!error.empty()) throw FileError(error);
    for (const auto& out : outcomes)
        if (out.result.status == RunStatus::Failed)
            throw std::invalid_argument(out.run.name + ": " + out.error);

    py::dict d;
    d["plan"] = plan.name;
    d["metric"] = outcomes.empty() ? design.objective.metric
                                   : objectiveMetric(design.objective, outcomes.front());
    d["stat"] = design.objective.stat;
    d["lower_is_better"] = design.objective.lowerIsBetter;
    d["table"] = rankedTable(aggregateConfigs(outcomes, design.objective));
    py::list rungList;
    for (const HalvingRung& r : rungs) {
        py::dict row;
        row["iterations"] = r.iterations;
        row["configs"] = r.configs;
        row["kept"] = r.kept;
        rungList.append(row);
    }
    d["rungs"] = rungList;
    py::list fits;
    if (!design.fitX.empty())
        for (const PowerLawFit& f : fitPowerLaw(outcomes, design.fitX, design.fitY, "floor")) {
            py::dict row;
            row["series"] = f.series;
            row["x"] = design.fitX;
            row["y"] = design.fitY;
            row["slope"] = f.slope;
            row["intercept"] = f.intercept;
            row["r2"] = f.r2;
            row["points"] = f.points;
            fits.append(row);
        }
    d["fits"] = fits;
    // The preset's claims hold for its own sweep, as the CLI checks them.
    const bool claims = presetSweep && !plan.claims.empty() && design.seeds == plan.sweep->seeds;
    d["claims"] = claims ? claimsList(plan.claims, outcomes) : py::list();
    d["interrupted"] = released.interrupted;
    return d;
}

}  // namespace ade::python
