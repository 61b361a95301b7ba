// MainWindow: launch options (preset, autorun, screenshot, stats) and the files it writes.
#include <QApplication>
#include <QFileDialog>
#include <QStatusBar>
#include <QTimer>

#include "charts/ChartArea.h"
#include "runs/ClaimsMonitor.h"
#include "lessons/LessonPlayer.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "sessions/SessionManager.h"
#include "sweep/SweepView.h"
#include "inspect/InsideView.h"
#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"

namespace ade::ui {

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
    // The inside views' refreshes on the GUI thread (at most InsideView::kRefreshHz a second).
    j["inside_views"] = inside_->frameStats().toJson();
    j["inside_views"]["refreshes"] = inside_->refreshes();
    j["solver_iterations_per_second"] = n ? rateSum / n : 0.0;
    j["logged_records"] = records;
    j["logged_points"] = points;
    j["max_points_per_series"] = maxSeries;
    // The live claims' cost on the GUI thread (evaluated at most every ClaimsMonitor::kIntervalMs).
    j["claims"] = {{"evaluations", claims_->evaluations()},
                   {"last_ms", claims_->lastEvaluationMs()},
                   {"max_ms", claims_->maxEvaluationMs()},
                   {"last_cpu_ms", claims_->lastEvaluationCpuMs()}};
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
        } else if (!options_.lesson.isEmpty()) {
            QString err;
            const bool known = lessons_->library().find(options_.lesson.toStdString());
            if (!(known ? lessons_->playNamed(options_.lesson, &err)
                        : lessons_->playFile(options_.lesson, &err))) {
                qWarning("attention-explorer: cannot play lesson %s: %s",
                         qPrintable(options_.lesson), qPrintable(err));
                statusBar()->showMessage(tr("Cannot play the lesson: %1").arg(err), 15000);
                if (options_.quitWhenDone) {
                    QApplication::exit(2);
                    launchPending_ = false;
                    return;
                }
            } else {
                started = true;
            }
        } else if (!options_.preset.isEmpty()) {
            bool loaded = loadPreset(options_.preset, false, options_.sets);
            if (loaded && options_.seeds > 0) setSeeds(options_.seeds);  // over the preset's
            if (loaded && options_.autorun) {  // as loadPreset(…, true), with these seeds
                if (!workspace_->hasComparison())
                    sweep_->start();
                else
                    startPresetComparison();
            }
            if (!loaded) {
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
    claims_->evaluate();  // the verdicts at once, not a throttling interval later
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
