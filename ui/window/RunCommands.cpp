#include "window/RunCommands.h"

#include <QAction>
#include <QRandomGenerator>

#include "about/AboutPanel.h"
#include "export/DataExport.h"
#include "form/ParamForm.h"
#include "runs/ClaimsMonitor.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "sweep/SweepTab.h"
#include "sweep/SweepView.h"
#include "workspace/Shell.h"
#include "workspace/Workspace.h"

namespace ade::ui {

RunCommands::RunCommands(Workspace* workspace, ParamForm* form, SweepTab* sweep, AboutPanel* about,
                         Shell* shell, QObject* parent)
    : QObject(parent),
      workspace_(workspace),
      form_(form),
      sweep_(sweep),
      about_(about),
      shell_(shell) {
    // A preset's sweep runs on the Sweep tab, outside the store: its runs reach the preset's
    // claims when it ends (pending while it runs).
    SweepView* view = sweep_->view();
    connect(view, &SweepView::started, this, [this, view] {
        if (view->ranPreset()) workspace_->claims()->sweepStarted();
    });
    connect(view, &SweepView::finished, this, [this, view] {
        if (view->ranPreset())
            workspace_->claims()->setSweepRuns(view->outcomes(), view->wasCancelled());
    });
}

bool RunCommands::loadPreset(const QString& name, bool start,
                             const std::vector<std::string>& overrides) {
    QString error;
    auto plan = workspace_->loadPreset(name, overrides, &error);
    if (!plan) {
        qWarning("attention-explorer: cannot load preset %s: %s", qPrintable(name),
                 qPrintable(error));
        shell_->showMessage(tr("Cannot load preset %1: %2").arg(name, error), 10000);
        return false;
    }
    return loadPlan(*plan, name, start);
}

bool RunCommands::loadPlan(const ade::Plan& plan, const QString& name, bool start) {
    if (plan.runs.empty()) return false;
    form_->setConfig(plan.runs.front().config);
    workspace_->setPlan(plan, name, form_->config().toJson().dump());
    about_->showAbout(form_->config().experiment(), workspace_->presetName(),
                      workspace_->presetDescription(), workspace_->presetAbout());
    if (plan.sweep) {
        sweep_->view()->setPlan(plan);
        emit sweepWanted();
        if (start) sweep_->view()->start();
        return true;
    }
    sweep_->view()->clearPlan();
    emit chartsWanted();
    emit stateChanged();  // Start's meaning and the empty charts' hint name the preset
    if (!start) return true;
    QString error;
    if (!workspace_->startComparison(&error)) {
        shell_->showMessage(error, 10000);
        return false;
    }
    return true;
}

bool RunCommands::startStartsComparison() const {
    return workspace_->hasComparison() && !workspace_->controller()->anyActive() &&
           form_->isValid() && workspace_->isPresetForm(form_->config());
}

void RunCommands::start() {
    if (startStartsComparison())
        startPresetComparison();
    else
        startFromForm();
}

void RunCommands::startPresetComparison() {
    emit chartsWanted();
    QString error;
    if (!workspace_->startComparison(&error)) {
        shell_->showMessage(error, 10000);
        return;
    }
    const int runs = static_cast<int>(workspace_->presetRuns().size());
    const QString& preset = workspace_->presetName();
    shell_->showMessage(
        seeds() > 1
            ? tr("Preset %1: %2 × %3 seeds started").arg(preset, runCountText(runs)).arg(seeds())
            : tr("Preset %1: %2 started").arg(preset, runCountText(runs)),
        6000);
}

void RunCommands::startFromForm() {
    if (!form_->isValid()) {
        shell_->showMessage(tr("Cannot start: %1").arg(startBlockedReason()), 10000);
        form_->showField(form_->firstProblemKey());
        return;
    }
    emit chartsWanted();
    QString error;
    if (!workspace_->startConfig(form_->config(), false, &error)) shell_->showMessage(error, 10000);
}

void RunCommands::togglePause() {
    RunController* controller = workspace_->controller();
    if (controller->anyActive()) {
        if (controller->paused())
            controller->resumeAll();
        else
            controller->pauseAll();
        return;
    }
    // Idle: a press meant as "pause" just after the runs ended must not start them again.
    if (workspace_->alreadyRan(form_->config())) {
        const QAction* start = shell_->action(QStringLiteral("start"));
        shell_->showMessage(
            tr("Nothing is running: these settings have run already. Start (%1) runs them "
               "again as a new run; Reset (R) restarts the last runs in place.")
                .arg(start ? start->shortcut().toString(QKeySequence::NativeText) : QString()),
            10000);
        return;
    }
    startFromForm();
}

void RunCommands::step() {
    if (!workspace_->controller()->anyActive()) {
        if (!form_->isValid()) return;
        QString error;
        if (!workspace_->startConfig(form_->config(), true, &error)) {
            shell_->showMessage(error, 10000);
            return;
        }
    }
    workspace_->controller()->stepAll();
}

void RunCommands::stopRuns() {
    workspace_->controller()->stopAll();
}

void RunCommands::resetRuns() {
    QString error;
    if (!workspace_->resetBatch(&error) && !error.isEmpty()) shell_->showMessage(error, 10000);
}

void RunCommands::reseedRuns() {
    if (workspace_->batchRuns().empty()) return;
    const auto seed = static_cast<qint64>(QRandomGenerator::global()->bounded(1, 1000000));
    QString error;
    if (!workspace_->reseedBatch(seed, &error) && !error.isEmpty()) {
        shell_->showMessage(error, 10000);
        return;
    }
    shell_->showMessage(tr("Re-seeded with seed %1: new runs beside the old ones").arg(seed), 6000);
}

void RunCommands::resetForm() {
    form_->resetToDefaults();
    shell_->showMessage(tr("Form reset to the defaults of Experiment %1")
                            .arg(QString::fromStdString(form_->config().experiment()).toUpper()),
                        5000);
}

void RunCommands::editRun(int id) {
    const RunRecord* r = workspace_->store()->run(id);
    if (!r) return;
    form_->setConfig(r->config);
    shell_->showMessage(tr("Form filled from %1: edit and press Start").arg(r->name), 5000);
}

void RunCommands::deleteRun(int id) {
    workspace_->deleteRun(id);
}

void RunCommands::exportRun(int id) {
    QString error;
    if (const RunRecord* r = workspace_->store()->run(id);
        r && !exportRunCsvAs(shell_->dialogParent(), *r, &error) && !error.isEmpty())
        shell_->showMessage(error, 10000);
}

int RunCommands::seeds() const {
    return workspace_->seeds();
}

void RunCommands::setSeeds(int k) {
    workspace_->setSeeds(k);
}

QString RunCommands::startBlockedReason() const {
    return form_->errors().value(0);
}

}  // namespace ade::ui
