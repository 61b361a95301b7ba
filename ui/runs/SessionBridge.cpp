#include "runs/SessionBridge.h"

#include <QStringList>

#include <map>

#include "base/Palette.h"

namespace ade::ui {

RunState stateFromStatus(ade::RunStatus s) {
    switch (s) {
        case ade::RunStatus::Completed:
            return RunState::Completed;
        case ade::RunStatus::Diverged:
            return RunState::Diverged;
        case ade::RunStatus::Cancelled:
            return RunState::Stopped;
        case ade::RunStatus::Failed:
            return RunState::Failed;
    }
    return RunState::Failed;
}

namespace {
ade::RunStatus statusFromState(RunState s) {
    switch (s) {
        case RunState::Completed:
            return ade::RunStatus::Completed;
        case RunState::Diverged:
            return ade::RunStatus::Diverged;
        case RunState::Failed:
            return ade::RunStatus::Failed;
        default:
            return ade::RunStatus::Cancelled;  // stopped, or still active when saved
    }
}
}  // namespace

ade::Session sessionFromStore(const RunStore& store, const nlohmann::json& chartSettings) {
    ade::Session s;
    if (chartSettings.is_object()) s.chartSettings = chartSettings;
    for (const auto& r : store.runs())
        s.runs.push_back(sessionRunFromRecord(*r));
    return s;
}

ade::SessionRun sessionRunFromRecord(const RunRecord& rec, bool withData) {
    const RunRecord* r = &rec;
    ade::SessionRun run;
    {
        run.name = r->name.toStdString();
        run.color = paletteColor(r->colorIndex).name().toStdString();
        run.group = r->group.toStdString();
        run.seedIndex = r->seedIndex;
        run.visible = r->visible;
        run.config = r->config;
        run.status = statusFromState(r->state);
        run.running = isActive(r->state);
        run.message = r->message.toStdString();
        run.stop = r->stop.toStdString();
        if (withData)
            run.history = r->history();
        else
            run.history.columns = r->columns;
        run.iterationsDone = r->lastIteration();
        run.iterationsPerSecond = r->iterationsPerSecond;
        if (r->state == RunState::Diverged) run.divergedAt = r->lastIteration() + 1;
        if (withData) {
            run.finalParams = r->finalParams;
            run.initialParams = r->initialParams;
            run.snapshots = r->snapshots;
        }
    }
    return run;
}

namespace {
bool sameParams(const ade::ParamSet& a, const ade::ParamSet& b) {
    if (a.names != b.names || a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].rows() != b[i].rows() || a[i].cols() != b[i].cols() || a[i] != b[i]) return false;
    return true;
}
}  // namespace

long paramsIteration(const RunRecord& r) {
    const long last = r.lastIteration();
    if (r.finalParams && !r.snapshots.empty() && r.snapshots.back().iteration < last &&
        sameParams(r.snapshots.back().params, *r.finalParams))
        return r.snapshots.back().iteration;
    return last;
}

std::vector<int> addSessionToStore(const ade::Session& session, RunStore& store, bool recovered) {
    std::vector<int> ids;
    std::map<std::string, QString> groupNames;  // the file's group -> the window's
    for (const auto& run : session.runs) {
        // A group's label may be taken by a run already in the window: the opened seeds then
        // form a group of their own ("none (2)"), never one with the window's runs.
        QString group = QString::fromStdString(run.group);
        if (!group.isEmpty()) {
            const auto it = groupNames.find(run.group);
            group = it != groupNames.end() ? it->second
                                           : (groupNames[run.group] = store.uniqueGroup(group));
        }
        const int id =
            store.addRun(QString::fromStdString(run.name), run.config, group, run.seedIndex);
        RunRecord* r = store.run(id);
        // The saved colour, unless a run already in the window has it (then the first free one
        // addRun gave stays: no two runs share a colour).
        for (int i = 0; i < 3 * paletteSize(); ++i)
            if (paletteColor(i).name().toStdString() == run.color) {
                store.setColorIndex(id, i);
                break;
            }
        r->iterationsPerSecond = run.iterationsPerSecond;
        r->stop = QString::fromStdString(run.stop);
        r->initialParams = run.initialParams;
        r->finalParams = run.finalParams;
        // Saved while it ran (a recovery file, or a session saved mid-run): its parameters are
        // the last ones it kept, its last snapshot.
        if (!r->finalParams && run.running && !run.snapshots.empty())
            r->finalParams = run.snapshots.back().params;
        // Its initial weights (a worker hands them over when its run ends): the snapshot of
        // iteration 0 (Reset and "same start as" use them).
        if (!r->initialParams && run.running && !run.snapshots.empty() &&
            run.snapshots.front().iteration == 0)
            r->initialParams = run.snapshots.front().params;
        store.appendSnapshots(id, run.snapshots);
        store.setColumns(id, run.history.columns);
        store.appendRows(id, run.history.rows);
        store.setVisible(id, run.visible);
        QString message = QString::fromStdString(run.message);
        if (recovered && run.running) {
            const long last = r->lastIteration();
            const long from = paramsIteration(*r);
            message = QObject::tr(
                          "stopped at iteration %1 by a crash (recovered from the last "
                          "automatic save)")
                          .arg(last);
            if (!r->finalParams)
                message += QObject::tr(
                    "; no parameters were kept (snapshots = 0): Continue "
                    "cannot go on from it");
            else if (from < last)
                message += QObject::tr(
                               "; Continue goes on from iteration %1, its last saved "
                               "parameters")
                               .arg(from);
        }
        store.setState(id, stateFromStatus(run.status), message);
        ids.push_back(id);
    }
    return ids;
}

QString reproductionText(const RunStore& store, const QString& commandLine) {
    QStringList lines;
    if (!commandLine.isEmpty()) lines << QStringLiteral("command: ") + commandLine;
    for (const RunRecord* r : store.visibleRuns())
        lines << QStringLiteral("run %1 (seed %2): %3")
                     .arg(r->name)
                     .arg(r->config.getInt("seed"))
                     .arg(QString::fromStdString(r->config.toJson().dump()));
    return lines.join('\n');
}

}  // namespace ade::ui
