// MainWindow: run actions, presets, launch options (autorun, screenshot, stats).
#include <QApplication>
#include <QFileDialog>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <fstream>

#include "ChartArea.h"
#include "MainWindow.h"
#include "ParamForm.h"
#include "RunController.h"
#include "RunListWidget.h"
#include "RunStore.h"
#include "SessionManager.h"
#include "SweepView.h"
#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"

namespace ade::ui {

bool MainWindow::loadPreset(const QString& name, bool start,
                            const std::vector<std::string>& overrides) {
    ade::PlanError err;
    auto plan = presets_->load(name.toStdString(), overrides, &err);
    if (!plan || plan->runs.empty()) {
        qWarning("attention-explorer: cannot load preset %s: %s", qPrintable(name),
                 err.message.c_str());
        statusBar()->showMessage(
            tr("Cannot load preset %1: %2").arg(name, QString::fromStdString(err.message)), 10000);
        return false;
    }
    form_->setConfig(plan->runs.front().config);
    presetName_ = name;
    presetDescription_ = QString::fromStdString(plan->description);
    presetAbout_ = QString::fromStdString(plan->about);
    showAbout(presetName_, presetDescription_, presetAbout_);
    if (plan->sweep) {
        sweep_->setPlan(*plan);
        tabs_->setCurrentWidget(sweep_);
        if (start) sweep_->start();
        return true;
    }
    sweep_->clearPlan();
    tabs_->setCurrentWidget(charts_);
    if (!start) return true;
    // A new comparison: older runs stay in the list, hidden from the charts.
    for (const auto& r : store_->runs())
        store_->setVisible(r->id, false);
    return startBatch(ade::plainRuns(*plan));
}

bool MainWindow::startBatch(const std::vector<ade::PlannedRun>& runs, bool paused) {
    std::vector<std::optional<ade::ParamSet>> initial(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].config.getString("init") != "same") continue;
        std::string error;
        initial[i] = ade::resolveSameStart(runs, runs[i], &error);
        if (!initial[i]) {
            // Not a run of this batch: a run of the list by that name, by its recorded initial
            // weights or, while it runs, rebuilt from its config (initialisation is seeded).
            const QString from = QString::fromStdString(runs[i].config.getString("init_from"));
            for (const auto& r : store_->runs()) {
                if (r->name != from) continue;
                if (r->initialParams) {
                    initial[i] = r->initialParams;
                } else {
                    ade::PlannedRun ref;
                    ref.name = ref.label = from.toStdString();
                    ref.config = r->config;
                    ade::PlannedRun self = runs[i];
                    std::string err;
                    initial[i] = ade::resolveSameStart({ref, self}, self, &err);
                    if (!initial[i]) error = err;
                }
            }
        }
        if (!initial[i]) {
            statusBar()->showMessage(QString::fromStdString(error), 10000);
            return false;
        }
    }
    batch_.clear();
    batchPlan_ = runs;
    for (std::size_t i = 0; i < runs.size(); ++i)
        batch_.push_back(controller_->start(QString::fromStdString(runs[i].label), runs[i].config,
                                            initial[i], paused));
    updateActions();
    return true;
}

void MainWindow::replaceBatch(std::vector<ade::PlannedRun> runs) {
    for (int id : batch_) {
        controller_->stopAndForget(id);
        store_->removeRun(id);
    }
    batch_.clear();
    startBatch(runs);
}

void MainWindow::startFromForm() {
    if (!form_->isValid()) {
        statusBar()->showMessage(form_->errors().join(QStringLiteral("; ")), 10000);
        return;
    }
    ade::PlannedRun run;
    run.label = store_->uniqueName(tr("run %1").arg(store_->runs().size() + 1)).toStdString();
    run.name = run.label;
    run.config = form_->config();
    tabs_->setCurrentWidget(charts_);
    startBatch({run});
}

void MainWindow::togglePause() {
    if (!controller_->anyActive())
        startFromForm();
    else if (controller_->paused())
        controller_->resumeAll();
    else
        controller_->pauseAll();
}

void MainWindow::step() {
    if (!controller_->anyActive()) {
        if (!form_->isValid()) return;
        ade::PlannedRun run;
        run.label = store_->uniqueName(tr("run %1").arg(store_->runs().size() + 1)).toStdString();
        run.name = run.label;
        run.config = form_->config();
        if (!startBatch({run}, true)) return;
    }
    controller_->stepAll();
}

void MainWindow::stopRuns() {
    controller_->stopAll();
}

void MainWindow::resetRuns() {
    if (batchPlan_.empty()) {
        startFromForm();
        return;
    }
    // Same configs and seeds: the trainer rebuilds the same data and initial weights.
    replaceBatch(batchPlan_);
}

void MainWindow::reseedRuns() {
    const auto seed = static_cast<qint64>(QRandomGenerator::global()->bounded(1, 1000000));
    ade::Config c = form_->config();
    c.setJson("seed", seed);
    form_->setConfig(c);
    if (batchPlan_.empty()) {
        startFromForm();
        return;
    }
    auto runs = batchPlan_;
    for (auto& r : runs)
        r.config.setJson("seed", seed);
    replaceBatch(runs);
}

void MainWindow::editRun(int id) {
    const RunRecord* r = store_->run(id);
    if (!r) return;
    form_->setConfig(r->config);
    statusBar()->showMessage(tr("Form filled from %1: edit and press Start").arg(r->name), 5000);
}

void MainWindow::deleteRun(int id) {
    controller_->stopAndForget(id);
    store_->removeRun(id);
    batch_.erase(std::remove(batch_.begin(), batch_.end(), id), batch_.end());
    updateActions();
}

void MainWindow::exportRun(int id) {
    const RunRecord* r = store_->run(id);
    if (!r) return;
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export metrics"),
        QString::fromStdString(ade::safeName(r->name.toStdString())) + QStringLiteral(".csv"),
        tr("CSV files (*.csv)"));
    if (file.isEmpty()) return;
    std::string error;
    const std::string csv = ade::historyCsv(
        r->history(), "config: " + r->config.toJson().dump() + "\ncolumns:\n" +
                          ade::columnsComment(r->config.experiment(), r->columns));
    if (!ade::writeFileAtomic(file.toStdString(), csv, &error))
        statusBar()->showMessage(QString::fromStdString(error), 10000);
}

bool MainWindow::saveScreenshot(const QString& file) {
    charts_->refresh(true);
    // Chart layouts (axis labels) are deferred events: let them run before grabbing.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    const QPixmap pm = grab();
    const bool ok = pm.save(file, "PNG");
    if (ok)
        emit screenshotSaved(file);
    else
        statusBar()->showMessage(tr("Cannot write the screenshot %1").arg(file), 10000);
    return ok;
}

bool MainWindow::writeStats(const QString& file, QString* error) const {
    nlohmann::json j = frames_.toJson();
    nlohmann::json runs = nlohmann::json::array();
    double rateSum = 0;
    std::size_t records = 0, points = 0, maxSeries = 0;
    int n = 0;
    for (const auto& r : store_->runs()) {
        const std::size_t metrics = r->columns.size() > 2 ? r->columns.size() - 2 : 0;
        runs.push_back({{"name", r->name.toStdString()},
                        {"state", stateText(r->state).toStdString()},
                        {"iterations", r->lastIteration()},
                        {"iterations_per_second", r->iterationsPerSecond},
                        {"records", r->size()}});
        rateSum += r->iterationsPerSecond;
        ++n;
        records += r->size();
        points += r->size() * metrics;
        maxSeries = std::max(maxSeries, r->size());
    }
    j["runs"] = runs;
    j["solver_iterations_per_second"] = n ? rateSum / n : 0.0;
    j["logged_records"] = records;
    j["logged_points"] = points;
    j["max_points_per_series"] = maxSeries;
    std::string err;
    const bool ok = ade::writeFileAtomic(file.toStdString(), j.dump(2) + "\n", &err);
    if (!ok && error) *error = QString::fromStdString(err);
    return ok;
}

void MainWindow::launch() {
    if (options_.presentation) action(QStringLiteral("presentation"))->setChecked(true);
    // A recovery file left by a crash is offered first (never in tests: no persistent state).
    QTimer::singleShot(0, this, [this] { sessions_->offerRecovery(); });
    QTimer::singleShot(0, this, [this] {
        launchPending_ = true;
        bool started = false;
        if (!options_.session.isEmpty()) {
            // openSession shows its own message on failure (and changes nothing).
            QString err;
            if (!sessions_->openSession(options_.session, &err)) {
                qWarning("attention-explorer: %s", qPrintable(err));
                if (options_.quitWhenDone) {
                    QApplication::exit(2);
                    launchPending_ = false;
                    return;
                }
            }
        } else if (!options_.preset.isEmpty()) {
            if (!loadPreset(options_.preset, options_.autorun, options_.sets)) {
                if (options_.quitWhenDone) QApplication::exit(2);
                launchPending_ = false;
                return;
            }
            started = options_.autorun;
        } else if (options_.autorun) {
            startFromForm();
            started = true;
        } else if (!formRestored_) {
            // The first experiment's default preset.
            loadPreset(QString::fromStdString(ade::defaultPresetName()), false);
        }
        if (!started) finishLaunch();
    });
    connect(sweep_, &SweepView::finished, this, [this] {
        if (launchPending_) finishLaunch();
    });
}

void MainWindow::onAllFinished() {
    updateActions();
    updateStatus();
    charts_->refresh(true);
    if (launchPending_ && !sweep_->isRunning()) finishLaunch();
}

void MainWindow::finishLaunch() {
    launchPending_ = false;
    if (!options_.screenshot.isEmpty() && !screenshotTaken_)
        screenshotTaken_ = saveScreenshot(options_.screenshot);
    if (!options_.stats.isEmpty()) {
        QString err;
        if (!writeStats(options_.stats, &err)) qWarning("%s", qPrintable(err));
    }
    if (options_.quitWhenDone) QTimer::singleShot(0, this, [this] { close(); });
}

}  // namespace ade::ui
