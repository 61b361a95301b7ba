// MainWindow: presets and the run actions (Start, Play/Pause, Step, Stop, Reset, Re-seed).
#include <QApplication>
#include <QFileDialog>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include "charts/ChartArea.h"
#include "runs/ClaimsMonitor.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "sessions/SessionManager.h"
#include "sweep/SweepView.h"
#include "inspect/InsideView.h"
#include "output/RunOutput.h"

namespace ade::ui {

bool MainWindow::loadPreset(const QString& name, bool start,
                            const std::vector<std::string>& overrides) {
    QString error;
    auto plan = workspace_->loadPreset(name, overrides, &error);
    if (!plan) {
        qWarning("attention-explorer: cannot load preset %s: %s", qPrintable(name),
                 qPrintable(error));
        statusBar()->showMessage(tr("Cannot load preset %1: %2").arg(name, error), 10000);
        return false;
    }
    return loadPlan(*plan, name, start);
}

bool MainWindow::loadPlan(const ade::Plan& plan, const QString& name, bool start) {
    if (plan.runs.empty()) return false;
    form_->setConfig(plan.runs.front().config);
    workspace_->setPlan(plan, name, form_->config().toJson().dump());
    showAbout(workspace_->presetName(), workspace_->presetDescription(),
              workspace_->presetAbout());
    if (plan.sweep) {
        sweep_->setPlan(plan);
        tabs_->setCurrentWidget(sweepTab_);
        if (start) sweep_->start();
        return true;
    }
    sweep_->clearPlan();
    // Its runs are drawn in the charts (or inside the model, when that tab is in front).
    if (tabs_->currentWidget() != inside_) tabs_->setCurrentWidget(charts_);
    updateActions();  // Start's meaning and the empty charts' hint name the preset
    if (!start) return true;
    QString error;
    if (!workspace_->startComparison(&error)) {
        statusBar()->showMessage(error, 10000);
        return false;
    }
    return true;
}

bool MainWindow::startStartsComparison() const {
    return workspace_->hasComparison() && !controller_->anyActive() && form_->isValid() &&
           workspace_->isPresetForm(form_->config());
}

void MainWindow::start() {
    if (startStartsComparison())
        startPresetComparison();
    else
        startFromForm();
}

void MainWindow::startPresetComparison() {
    if (tabs_->currentWidget() != inside_) tabs_->setCurrentWidget(charts_);
    QString error;
    if (!workspace_->startComparison(&error)) {
        statusBar()->showMessage(error, 10000);
        return;
    }
    const int runs = static_cast<int>(workspace_->presetRuns().size());
    const QString& preset = workspace_->presetName();
    statusBar()->showMessage(seeds() > 1 ? tr("Preset %1: %2 × %3 seeds started")
                                               .arg(preset, runCount(runs))
                                               .arg(seeds())
                                         : tr("Preset %1: %2 started").arg(preset, runCount(runs)),
                             6000);
}

void MainWindow::startFromForm() {
    if (!form_->isValid()) {
        statusBar()->showMessage(tr("Cannot start: %1").arg(startBlockedReason()), 10000);
        form_->showField(form_->firstProblemKey());
        return;
    }
    if (tabs_->currentWidget() != inside_) tabs_->setCurrentWidget(charts_);
    QString error;
    if (!workspace_->startConfig(form_->config(), false, &error))
        statusBar()->showMessage(error, 10000);
}

void MainWindow::togglePause() {
    if (controller_->anyActive()) {
        if (controller_->paused())
            controller_->resumeAll();
        else
            controller_->pauseAll();
        return;
    }
    // Idle: a press meant as "pause" just after the runs ended must not start them again.
    if (workspace_->alreadyRan(form_->config())) {
        statusBar()->showMessage(
            tr("Nothing is running: these settings have run already. Start (%1) runs them "
               "again as a new run; Reset (R) restarts the last runs in place.")
                .arg(action(QStringLiteral("start"))
                         ->shortcut()
                         .toString(QKeySequence::NativeText)),
            10000);
        return;
    }
    startFromForm();
}

void MainWindow::step() {
    if (!controller_->anyActive()) {
        if (!form_->isValid()) return;
        QString error;
        if (!workspace_->startConfig(form_->config(), true, &error)) {
            statusBar()->showMessage(error, 10000);
            return;
        }
    }
    controller_->stepAll();
}

void MainWindow::stopRuns() {
    controller_->stopAll();
}

void MainWindow::resetRuns() {
    QString error;
    if (!workspace_->resetBatch(&error) && !error.isEmpty())
        statusBar()->showMessage(error, 10000);
}

void MainWindow::reseedRuns() {
    if (workspace_->batchRuns().empty()) return;
    const auto seed = static_cast<qint64>(QRandomGenerator::global()->bounded(1, 1000000));
    QString error;
    if (!workspace_->reseedBatch(seed, &error) && !error.isEmpty()) {
        statusBar()->showMessage(error, 10000);
        return;
    }
    statusBar()->showMessage(tr("Re-seeded with seed %1: new runs beside the old ones").arg(seed),
                             6000);
}

void MainWindow::resetForm() {
    form_->resetToDefaults();
    statusBar()->showMessage(tr("Form reset to the defaults of Experiment %1")
                                 .arg(QString::fromStdString(form_->config().experiment()).toUpper()),
                             5000);
}

void MainWindow::editRun(int id) {
    const RunRecord* r = store_->run(id);
    if (!r) return;
    form_->setConfig(r->config);
    statusBar()->showMessage(tr("Form filled from %1: edit and press Start").arg(r->name), 5000);
}

void MainWindow::deleteRun(int id) {
    workspace_->deleteRun(id);
}

}  // namespace ade::ui
