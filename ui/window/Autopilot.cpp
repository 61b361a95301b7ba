#include "window/Autopilot.h"

#include <QAction>
#include <QApplication>
#include <QTimer>

#include <algorithm>

#include "base/ProcessMemory.h"
#include "charts/ChartArea.h"
#include "charts/RefreshPacer.h"
#include "experiments/ExperimentRegistry.h"
#include "inspect/InsideView.h"
#include "io/Files.h"
#include "lessons/LessonPlayer.h"
#include "runs/ClaimsMonitor.h"
#include "runs/RunStore.h"
#include "sessions/SessionManager.h"
#include "sweep/SweepTab.h"
#include "sweep/SweepView.h"
#include "window/MainWindow.h"
#include "window/RunCommands.h"

namespace ade::ui {

Autopilot::Autopilot(MainWindow* window, const LaunchOptions& options)
    : QObject(window), window_(window), options_(options) {}

void Autopilot::launch() {
    if (options_.presentation) window_->action(QStringLiteral("presentation"))->setChecked(true);
    // A recovery file left by a crash is offered first (never in tests: no persistent state).
    QTimer::singleShot(0, this, [this] { window_->sessions()->offerRecovery(); });
    QTimer::singleShot(0, this, [this] {
        pending_ = true;
        startResidentKiB_ = processMemory().residentKiB;
        bool started = false;
        if (!open(&started)) {
            pending_ = false;
            if (options_.quitWhenDone) QApplication::exit(2);
            return;
        }
        if (!started) finishLaunch();
    });
    connect(window_->sweepView(), &SweepView::finished, this, [this] {
        if (pending_) finishLaunch();
    });
}

bool Autopilot::open(bool* started) {
    RunCommands* commands = window_->commands();
    if (!options_.session.isEmpty()) {
        // openSession shows its own message on failure (and changes nothing).
        QString err;
        if (!window_->sessions()->openSession(options_.session, &err)) {
            qWarning("attention-explorer: %s", qPrintable(err));
            if (options_.quitWhenDone) return false;
        }
    } else if (!options_.optunaStudy.isEmpty()) {
        // The form gets the default preset as at any start; the study shows in the sweep tab.
        if (!formRestored_ && window_->store()->runs().empty())
            commands->loadPreset(QString::fromStdString(ade::defaultPresetName()), false);
        QString err;
        if (!window_->sweepTab()->openOptunaStudy(options_.optunaStudy, options_.study, &err)) {
            qWarning("attention-explorer: cannot open the Optuna study %s: %s",
                     qPrintable(options_.optunaStudy), qPrintable(err));
            if (options_.quitWhenDone) return false;
        }
    } else if (!options_.lesson.isEmpty()) {
        QString err;
        LessonPlayer* lessons = window_->lessons();
        const bool known = lessons->library().find(options_.lesson.toStdString());
        if (!(known ? lessons->playNamed(options_.lesson, &err)
                    : lessons->playFile(options_.lesson, &err))) {
            qWarning("attention-explorer: cannot play lesson %s: %s", qPrintable(options_.lesson),
                     qPrintable(err));
            window_->showMessage(tr("Cannot play the lesson: %1").arg(err), 15000);
            if (options_.quitWhenDone) return false;
        } else {
            *started = true;
        }
    } else if (!options_.preset.isEmpty()) {
        if (!commands->loadPreset(options_.preset, false, options_.sets)) return false;
        if (options_.seeds > 0) commands->setSeeds(options_.seeds);  // over the preset's
        if (options_.autorun) {  // as loadPreset(…, true), with these seeds
            if (!window_->workspace()->hasComparison())
                window_->sweepView()->start();
            else
                commands->startPresetComparison();
        }
        *started = options_.autorun;
    } else if (options_.autorun) {
        commands->startFromForm();
        *started = true;
    } else if (!formRestored_ && window_->store()->runs().empty()) {
        // The first experiment's default preset (not over runs recovered after a crash, whose
        // preset and claims came back with them).
        commands->loadPreset(QString::fromStdString(ade::defaultPresetName()), false);
    }
    return true;
}

void Autopilot::onAllFinished() {
    if (pending_ && !window_->sweepView()->isRunning()) finishLaunch();
}

void Autopilot::onDrained() {
    if (options_.screenshot.isEmpty() || options_.screenshotAt < 0 || screenshotTaken_) return;
    for (const auto& r : window_->store()->runs())
        if (r->lastIteration() >= options_.screenshotAt) {
            screenshotTaken_ = saveScreenshot(options_.screenshot);
            break;
        }
}

void Autopilot::finishLaunch() {
    pending_ = false;
    if (!options_.screenshot.isEmpty() && !screenshotTaken_)
        screenshotTaken_ = saveScreenshot(options_.screenshot);
    if (!options_.stats.isEmpty()) {
        QString err;
        if (!writeStats(options_.stats, &err)) qWarning("%s", qPrintable(err));
    }
    if (options_.quitWhenDone) QTimer::singleShot(0, window_, [this] { window_->close(); });
}

bool Autopilot::saveScreenshot(const QString& file) {
    window_->charts()->refresh(true);
    // Chart layouts (axis labels) are deferred events: let them run before grabbing.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    const QPixmap pm = window_->grab();
    const bool ok = pm.save(file, "PNG");
    if (ok)
        emit screenshotSaved(file);
    else
        window_->showMessage(tr("Cannot write the screenshot %1").arg(file), 10000);
    return ok;
}

bool Autopilot::writeStats(const QString& file, QString* error) const {
    nlohmann::json j = window_->refreshPacer()->frames().toJson();
    nlohmann::json runs = nlohmann::json::array();
    double rateSum = 0;
    std::size_t records = 0, points = 0, maxSeries = 0;
    int n = 0;
    for (const auto& r : window_->store()->runs()) {
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
    const InsideView* inside = window_->insideView();
    j["inside_views"] = inside->frameStats().toJson();
    j["inside_views"]["refreshes"] = inside->refreshes();
    j["solver_iterations_per_second"] = n ? rateSum / n : 0.0;
    j["logged_records"] = records;
    j["logged_points"] = points;
    j["max_points_per_series"] = maxSeries;
    // What the logged points cost: the resident high-water mark over the resident memory before
    // the runs, per point (the store's columns, the seed groups' aggregates, the claims'
    // history, the charts' level-of-detail pyramids and series).
    const ProcessMemory mem = processMemory();
    const double grownKiB = mem.peakResidentKiB > startResidentKiB_
                                ? double(mem.peakResidentKiB - startResidentKiB_)
                                : 0.0;
    j["memory"] = {{"start_resident_mib", startResidentKiB_ / 1024.0},
                   {"peak_resident_mib", mem.peakResidentKiB / 1024.0},
                   {"end_resident_mib", mem.residentKiB / 1024.0},
                   {"bytes_per_logged_point", points ? grownKiB * 1024.0 / double(points) : 0.0}};
    // The live claims' cost on the GUI thread (evaluated at most every ClaimsMonitor::kIntervalMs).
    const ClaimsMonitor* claims = window_->claims();
    j["claims"] = {{"evaluations", claims->evaluations()},
                   {"last_ms", claims->lastEvaluationMs()},
                   {"max_ms", claims->maxEvaluationMs()},
                   {"last_cpu_ms", claims->lastEvaluationCpuMs()}};
    std::string err;
    const bool ok = ade::writeFileAtomic(file.toStdString(), j.dump(2) + "\n", &err);
    if (!ok && error) *error = QString::fromStdString(err);
    return ok;
}

}  // namespace ade::ui
