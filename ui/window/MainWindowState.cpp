// MainWindow: what the window shows about its state (enabled actions and why not, the status
// bar, the form's time estimate) and following an opened session.
#include <QAction>
#include <QLabel>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTextBrowser>

#include <cmath>

#include "charts/ChartArea.h"
#include "about/ExperimentAbout.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "form/RateProbe.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "sweep/SweepView.h"
#include "config/ParamSpec.h"
#include "inspect/InsideView.h"

namespace ade::ui {

namespace {

// "45 s", "4 min 10 s", "3 h 20 min", "12 days"
QString durationText(double s) {
    if (!std::isfinite(s) || s < 0) return QObject::tr("unknown");
    if (s < 1) return QObject::tr("under a second");
    const auto t = static_cast<long long>(std::llround(s));
    if (t < 60) return QObject::tr("%1 s").arg(t);
    if (t < 3600) return QObject::tr("%1 min %2 s").arg(t / 60).arg(t % 60);
    if (t < 86400) return QObject::tr("%1 h %2 min").arg(t / 3600).arg(t % 3600 / 60);
    return QObject::tr("%1 days").arg(t / 86400);
}

// A run that differs from the form only in keys whose ParamSpec is costNeutral measures the
// form's speed.
bool sameCost(const ade::Config& a, const ade::Config& b) {
    const auto& registry = ade::ParamRegistry::instance();
    const nlohmann::json ja = a.toJson(), jb = b.toJson();
    for (const auto& [key, value] : ja.items()) {
        if (const ade::ParamSpec* spec = registry.find(key); spec && spec->costNeutral) continue;
        if (!jb.contains(key) || jb[key] != value) return false;
    }
    return ja.size() == jb.size();
}

// Iterations per second of a run: the trainer's own rate when it ended, else its records'.
double measuredRate(const RunRecord& r) {
    if (r.iterationsPerSecond > 0) return r.iterationsPerSecond;
    const double t = r.last("time_s");
    const long it = r.lastIteration() - r.iterationOffset;
    return t > 0 && it > 0 ? it / t : 0.0;
}

}  // namespace

QString MainWindow::startBlockedReason() const {
    const QStringList errors = form_->errors();
    return errors.isEmpty() ? QString() : errors.front();
}

QString MainWindow::timeEstimate(QString* basis) const {
    const ade::Config& c = form_->config();
    const auto iterations = static_cast<double>(c.getInt("iterations"));
    const auto& runs = store_->runs();
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        const RunRecord& r = **it;
        const double rate = measuredRate(r);
        if (rate <= 0 || !sameCost(r.config, c)) continue;
        if (basis) *basis = tr("%1 it/s measured in %2").arg(rate, 0, 'f', rate < 10 ? 1 : 0).arg(r.name);
        return durationText(iterations / rate);
    }
    for (auto it = probedRates_.rbegin(); it != probedRates_.rend(); ++it)
        if (sameCost(it->first, c)) {
            if (basis)
                *basis = tr("%1 it/s in a one-second measurement").arg(it->second, 0, 'f', 0);
            return durationText(iterations / it->second);
        }
    return {};
}

void MainWindow::measureRate() {
    if (!form_->isValid() || !probe_->start(form_->config())) return;
    updateEstimate();
}

void MainWindow::updateEstimate() {
    QString basis;
    const QString t = timeEstimate(&basis);
    const auto iterations = form_->config().getInt("iterations");
    if (t.isEmpty()) {
        const QString what = probe_->running()
                                 ? tr("measuring…")
                                 : QStringLiteral("<a href='measure'>%1</a>").arg(tr("measure"));
        form_->setEstimate(tr("Time: not measured yet for this size (%1 iterations) · %2")
                               .arg(iterations)
                               .arg(what),
                           tr("The time a run of these settings takes is shown once a run of the "
                              "same experiment and size has run, or after \"measure\" (about a "
                              "second of training on a worker thread). While a run goes, the "
                              "status bar shows its rate and the time left."));
        return;
    }
    const QString about = t == durationText(0.5) ? t : tr("about %1").arg(t);
    form_->setEstimate(tr("Time: %1 for %2 iterations").arg(about).arg(iterations),
                       tr("From %1 (a run of the same experiment and size).").arg(basis));
}

void MainWindow::updateActions() {
    const bool active = controller_->anyActive();
    const bool paused = controller_->paused();
    const bool valid = form_->isValid();
    QAction* start = action(QStringLiteral("start"));
    start->setEnabled(valid);
    const QString key = start->shortcut().toString(QKeySequence::NativeText);
    const bool comparison = startStartsComparison();
    start->setToolTip(!valid ? tr("Start is disabled: %1").arg(startBlockedReason())
                      : comparison
                          ? tr("Start the comparison of preset %1: %2 (%3)")
                                .arg(workspace_->presetName(),
                                     runCount(static_cast<int>(workspace_->presetRuns().size())),
                                     key)
                          : tr("Start a new run with the parameters of the form (%1)").arg(key));
    QAction* pause = action(QStringLiteral("pause"));
    pause->setEnabled(active || valid);
    pause->setText(!active ? tr("&Play") : paused ? tr("Res&ume") : tr("&Pause"));
    // The same two icons every time: a new QIcon per update is a new QPixmapCache entry at
    // every repaint of the tool button.
    if (playIcon_.isNull()) {
        playIcon_ = style()->standardIcon(QStyle::SP_MediaPlay);
        pauseIcon_ = style()->standardIcon(QStyle::SP_MediaPause);
    }
    const QIcon& icon = active && !paused ? pauseIcon_ : playIcon_;
    if (pause->icon().cacheKey() != icon.cacheKey()) pause->setIcon(icon);
    action(QStringLiteral("step"))->setEnabled(active || valid);
    action(QStringLiteral("stop"))->setEnabled(active);
    action(QStringLiteral("reset"))->setEnabled(!workspace_->batchIds().empty());
    action(QStringLiteral("reseed"))->setEnabled(!workspace_->batchIds().empty());
    updateEmptyHint();
}

void MainWindow::updateStatus() {
    const bool active = controller_->anyActive();
    QString state = !active ? tr("idle") : controller_->paused() ? tr("paused") : tr("running");
    if (active)
        state += tr(" · %n run(s)", nullptr, static_cast<int>(controller_->activeIds().size()));
    // A sweep (or a watched sweep folder) says what runs: "Sweep: 7 of 18 runs done".
    if (const QString sweep = sweep_->statusText(); !sweep.isEmpty())
        state = active ? state + QStringLiteral(" · ") + sweep : sweep;
    state = state.toHtmlEscaped();
    if (!form_->isValid()) {
        // Why Start is disabled, and a link to the field at fault.
        QString reason = startBlockedReason();
        stateLabel_->setToolTip(form_->errors().join(QStringLiteral("\n")));
        if (reason.size() > 110) reason = reason.left(107) + QStringLiteral("…");
        state += QStringLiteral(" · <span style='color:#b3261e'>%1</span>")
                     .arg(tr("cannot start: %1").arg(reason).toHtmlEscaped());
        if (const QString key = form_->firstProblemKey(); !key.isEmpty())
            state += QStringLiteral(" <a href='%1'>%2</a>").arg(key, tr("Show"));
    } else {
        stateLabel_->setToolTip({});
    }
    if (stateLabel_->text() != state) stateLabel_->setText(state);
    long it = 0;
    for (const auto& r : store_->runs())
        if (r->visible || isActive(r->state)) it = std::max(it, r->lastIteration());
    iterLabel_->setText(tr("iteration %1").arg(it));
    QString rate;
    if (active) {
        rate = tr("%1 it/s").arg(controller_->iterationsPerSecond(), 0, 'f', 0);
        // Time left: the slowest active run's remaining iterations at its own rate.
        double left = 0;
        for (int id : controller_->activeIds())
            if (const RunRecord* r = store_->run(id)) {
                const double v = measuredRate(*r);
                const double todo = static_cast<double>(r->config.getInt("iterations")) -
                                    (r->lastIteration() - r->iterationOffset);
                if (v > 0 && todo > 0) left = std::max(left, todo / v);
            }
        if (left > 0 && !controller_->paused()) rate += tr(" · %1 left").arg(durationText(left));
    }
    rateLabel_->setText(rate);
    pointsLabel_->setText(tr("%1 points").arg(store_->totalPoints()));
}

void MainWindow::onDrained(bool changed) {
    // Adaptive frame rate: when a chart refresh costs more than the tick (a slow or overloaded
    // machine), wait as long again before the next one, so the GUI thread never takes more than
    // about half a core from the solvers and input stays responsive.
    chartsDirty_ = chartsDirty_ || changed;
    if (chartsDirty_ && (!sinceRefresh_.isValid() || sinceRefresh_.elapsed() >= lastRefreshMs_)) {
        double cpuMs = 0;
        lastRefreshMs_ = charts_->refresh(false, &cpuMs);
        frames_.beginFrame(lastRefreshMs_, cpuMs);
        sinceRefresh_.start();
        chartsDirty_ = false;
    }
    // Status labels at most every 200 ms while streaming: each new text re-lays out the whole
    // window (status bar, docks). State changes update them at once (activeChanged).
    if (!sinceStatus_.isValid() || sinceStatus_.elapsed() >= 200) {
        updateStatus();
        sinceStatus_.start();
    }
    if (!options_.screenshot.isEmpty() && options_.screenshotAt >= 0 && !screenshotTaken_)
        for (const auto& r : store_->runs())
            if (r->lastIteration() >= options_.screenshotAt) {
                screenshotTaken_ = saveScreenshot(options_.screenshot);
                break;
            }
}

void MainWindow::onSessionOpened() {
    // The form shows the opened runs' settings (the first visible run's), the About panel
    // their experiment, and Reset / Re-seed no longer refer to runs of before.
    const RunRecord* first = nullptr;
    for (const auto& r : store_->runs())
        if (!first || (r->visible && !first->visible)) first = r.get();
    if (first) form_->setConfig(first->config);
    workspace_->clearPlan();
    showAbout({}, {}, {});
    if (tabs_->currentWidget() != inside_) tabs_->setCurrentWidget(charts_);
    updateActions();
    updateStatus();
    updateEstimate();
}

}  // namespace ade::ui
