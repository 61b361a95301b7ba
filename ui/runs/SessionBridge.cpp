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
    for (const auto& r : store.runs()) {
        ade::SessionRun run;
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
        run.history = r->history();
        run.iterationsDone = r->lastIteration();
        run.iterationsPerSecond = r->iterationsPerSecond;
        if (r->state == RunState::Diverged) run.divergedAt = r->lastIteration() + 1;
        run.finalParams = r->finalParams;
        run.initialParams = r->initialParams;
        run.snapshots = r->snapshots;
        s.runs.push_back(std::move(run));
    }
    return s;
}

std::vector<int> addSessionToStore(const ade::Session& session, RunStore& store) {
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
        const int id = store.addRun(QString::fromStdString(run.name), run.config, group,
                                    run.seedIndex);
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
        store.appendSnapshots(id, run.snapshots);
        store.setColumns(id, run.history.columns);
        store.appendRows(id, run.history.rows);
        store.setVisible(id, run.visible);
        store.setState(id, stateFromStatus(run.status), QString::fromStdString(run.message));
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
