// RunBinding.h: core's runPlanned on a thread of its own (Released.h), records handed to
// on_record, the outputs and claims as the CLI's `run` command writes and evaluates them.
#include "RunBinding.h"

#include <mutex>
#include <optional>

#include "Convert.h"
#include "PlanLoad.h"
#include "Released.h"
#include "output/RunOutput.h"
#include "plan/PlanRunner.h"
#include "util/RunControl.h"

namespace ade::python {

py::dict runPlan(const RunRequest& request, py::object onRecord, long every) {
    Plan plan = loadPlan(request.source);
    if (plan.sweep)
        throw std::invalid_argument("'" + plan.name +
                                    "' defines a sweep: run it with attention_explorer.sweep()");
    if (request.seeds > 0) plan.seeds = request.seeds;
    std::string error;
    if (!request.out.empty() && !prepareOutputFolder(request.out, &error)) throw FileError(error);
    const std::vector<PlannedRun> runs = plainRuns(plan);

    const bool callback = !onRecord.is_none();
    every = std::max(1L, every);
    RunControl control;
    RecordHandoff handoff;
    std::vector<long> recordsSeen(runs.size(), 0);  // per run; training threads only, locked
    std::mutex countMutex;
    PlanRunOptions o;
    o.outDir = request.out;
    o.jobs = std::max(1, request.jobs);
    o.saveData = request.saveData;
    o.commandLine = request.commandLine;
    o.control = &control;
    o.keepSnapshots = true;
    if (callback)
        o.progress = [&](const ProgressEvent& e) {
            {
                std::lock_guard lock(countMutex);
                if (recordsSeen[e.runIndex]++ % every != 0) return;
            }
            if (e.row && e.columns && !control.stopRequested())
                handoff.deliver(e.runIndex, *e.columns, *e.row);
        };

    std::vector<RunOutcome> outcomes;
    bool stoppedByCallback = false, interruptedInCallback = false;
    std::optional<py::error_already_set> callbackError;
    auto released = runReleased(
        control, handoff, [&] { outcomes = runPlanned(runs, plan.name, o); },
        [&] {
            py::dict row;
            row["run"] = runs[handoff.runIndex()].name;
            for (std::size_t c = 0; c < handoff.columns().size() && c < handoff.row().size(); ++c)
                row[py::str(handoff.columns()[c])] = handoff.row()[c];
            try {
                const py::object answer = onRecord(row);
                if (py::isinstance<py::bool_>(answer) && !answer.cast<bool>()) {
                    stoppedByCallback = true;
                    control.requestStop();
                }
            } catch (py::error_already_set& e) {
                // Ctrl-C while on_record ran is Ctrl-C: the runs are returned.
                if (e.matches(PyExc_KeyboardInterrupt))
                    interruptedInCallback = true;
                else if (!callbackError)
                    callbackError.emplace(std::move(e));
                control.requestStop();
            }
        });
    if (!callbackError && released.error) callbackError = std::move(released.error);
    const bool interrupted = released.interrupted || interruptedInCallback;
    const std::string crash = released.crash;
    if (!crash.empty()) throw std::runtime_error("the run failed: " + crash);

    // As the CLI: a run that could not start is the config's fault; a file not written, the disk's.
    for (const auto& out : outcomes)
        if (out.result.status == RunStatus::Failed)
            throw std::invalid_argument(out.run.name + ": " + out.error);
    for (const auto& out : outcomes)
        if (!request.out.empty() && !out.written &&
            !(out.result.status == RunStatus::Cancelled && out.result.history.rows.empty()))
            throw FileError(out.error);
    if (!request.out.empty()) {
        Session session;
        session.preset = plan.name;
        for (const auto& out : outcomes)
            if (!out.result.history.rows.empty())
                session.runs.push_back(sessionRunOf(out, plan.seeds));
        if (!writeSessionFile(std::filesystem::path(request.out) / "session.json", session, true,
                              &error))
            throw FileError(error);
    }

    py::dict result;
    result["plan"] = plan.name;
    result["description"] = plan.description;
    result["seeds"] = plan.seeds;
    py::list runDicts;
    for (const auto& out : outcomes)
        runDicts.append(runDict(out, plan.name, request.commandLine));
    result["runs"] = runDicts;
    result["claims"] = claimsList(plan.claims, outcomes);
    result["interrupted"] = interrupted;
    result["stopped_by_callback"] = stoppedByCallback;
    if (callbackError) {
        py::object value = callbackError->value();
        if (!callbackError->trace().is_none())
            PyException_SetTraceback(value.ptr(), callbackError->trace().ptr());
        result["callback_error"] = value;
    } else {
        result["callback_error"] = py::none();
    }
    return result;
}

}  // namespace ade::python
