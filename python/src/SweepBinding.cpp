// SweepBinding.h. The design is built as the CLI's designOf (SweepCommand.cpp) builds it, with
// its messages; the runs go through core's runSweepLocal on a thread of its own (Released.h).
#include "SweepBinding.h"

#include "Convert.h"
#include "LoadBinding.h"
#include "PlanLoad.h"
#include "Released.h"
#include "experiments/ExperimentRegistry.h"
#include "sweep/Sweep.h"

namespace ade::python {

namespace {

SweepDesign designOf(const SweepOptions& a, const Plan& plan, bool* presetSweep) {
    SweepDesign d;
    *presetSweep = a.vary.empty() && plan.sweep.has_value();
    std::string error;
    if (*presetSweep) {
        d = designFromSweepSpec(*plan.sweep);
    } else {
        if (a.vary.empty())
            throw std::invalid_argument(
                "sweep needs at least one --vary KEY=VALUES (the preset has no sweep)");
        bool random = false;
        for (const auto& v : a.vary) {
            auto axis = parseAxis(v, &error);
            if (!axis) throw std::invalid_argument(error);
            random = random || axis->kind == AxisSpec::Kind::Random;
            d.axes.push_back(std::move(*axis));
        }
        if (!random && !a.halving) {
            d.fitX = d.axes.front().key;
            const ExperimentInfo* info = findExperiment(plan.runs.front().config.experiment());
            d.fitY = plan.sweep          ? plan.sweep->fitY
                     : !a.metric.empty() ? a.metric
                     : info              ? info->headlineMetric
                                         : "excess_risk";
        }
    }
    if (a.seeds > 0) d.seeds = a.seeds;
    d.samples = a.samples;
    if (a.sampleSeed >= 0) d.sampleSeed = static_cast<std::uint64_t>(a.sampleSeed);
    if (!a.metric.empty()) d.objective.metric = a.metric;
    if (!a.stat.empty()) d.objective.stat = a.stat;
    if (a.higherBetter) d.objective.lowerIsBetter = false;
    if (!d.objective.metric.empty()) {
        const std::string experiment = plan.runs.front().config.experiment();
        std::string names;
        bool known = false;
        for (const auto& m : metricsOf(experiment)) {
            known = known || m.column == d.objective.metric;
            names += (names.empty() ? "" : ", ") + m.column;
        }
        if (!known)
            throw std::invalid_argument("--metric: experiment " + experiment + " has no metric '" +
                                        d.objective.metric + "'; it has " + names);
    }
    d.halving.enabled = a.halving;
    if (a.eta > 0) d.halving.eta = a.eta;
    d.halving.minIterations = a.minIterations;
    if (!a.halving && (a.eta > 0 || a.minIterations > 0))
        throw std::invalid_argument("--eta and --min-iterations belong to --halving");
    return d;
}

}  // namespace

py::dict runSweep(const SweepRequest& request) {
    const Plan plan = loadPlan(request.source);
    bool presetSweep = false;
    const SweepDesign design = designOf(request.options, plan, &presetSweep);

    RunControl control;
    RecordHandoff handoff;  // no records go to Python during a sweep: Ctrl-C only
    PlanRunOptions o;
    o.outDir = request.options.out;
    o.jobs = std::max(1, request.options.jobs);
    o.commandLine = request.options.commandLine;
    o.control = &control;
    o.keepSnapshots = false;
    std::vector<RunOutcome> outcomes;
    std::vector<HalvingRung> rungs;
    std::string error;
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
