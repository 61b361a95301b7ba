// MainWindow: presets and the run actions (Start, Play/Pause, Step, Stop, Reset, Re-seed).
#include <QApplication>
#include <QFileDialog>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <map>

#include "ChartArea.h"
#include "ClaimsMonitor.h"
#include "MainWindow.h"
#include "ParamForm.h"
#include "RunController.h"
#include "RunListWidget.h"
#include "RunStore.h"
#include "SessionManager.h"
#include "SweepView.h"
#include "inspect/InsideView.h"
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
    return loadPlan(*plan, name, start);
}

bool MainWindow::loadPlan(const ade::Plan& plan, const QString& name, bool start) {
    if (plan.runs.empty()) return false;
    form_->setConfig(plan.runs.front().config);
    presetForm_ = form_->config().toJson().dump();
    // One seed each here: Start adds the Seeds box's (which the preset's "seeds" sets).
    setSeeds(plan.seeds);
    ade::Plan oneSeed = plan;
    oneSeed.seeds = 1;
    presetRuns_ = plan.sweep ? std::vector<ade::PlannedRun>{} : ade::plainRuns(oneSeed);
    setPresetClaims(plan.claims);
    presetName_ = name;
    presetDescription_ = QString::fromStdString(plan.description);
    presetAbout_ = QString::fromStdString(plan.about);
    showAbout(presetName_, presetDescription_, presetAbout_);
    if (plan.sweep) {
        sweep_->setPlan(plan);
        tabs_->setCurrentIndex(1);  // the sweep view
        if (start) sweep_->start();
        return true;
    }
    sweep_->clearPlan();
    // Its runs are drawn in the charts (or inside the model, when that tab is in front).
    if (tabs_->currentWidget() != inside_) tabs_->setCurrentWidget(charts_);
    updateActions();  // Start's meaning and the empty charts' hint name the preset
    if (!start) return true;
    // A new comparison: older runs stay in the list, hidden from the charts.
    for (const auto& r : store_->runs())
        store_->setVisible(r->id, false);
    if (!startBatch(ade::withSeeds(presetRuns_, seeds()))) return false;
    watchClaims();
    return true;
}

bool MainWindow::startStartsComparison() const {
    return !presetRuns_.empty() && !controller_->anyActive() && form_->isValid() &&
           form_->config().toJson().dump() == presetForm_;
}

void MainWindow::start() {
    if (startStartsComparison())
        startPresetComparison();
    else
        startFromForm();
}

void MainWindow::startPresetComparison() {
    // As when the preset is chosen: older runs stay in the list, hidden from the charts.
    for (const auto& r : store_->runs())
        store_->setVisible(r->id, false);
    if (tabs_->currentWidget() != inside_) tabs_->setCurrentWidget(charts_);
    if (!startBatch(ade::withSeeds(presetRuns_, seeds()))) return;
    watchClaims();
    statusBar()->showMessage(
            seeds() > 1 ? tr("Preset %1: %2 × %3 seeds started")
                              .arg(presetName_, runCount(static_cast<int>(presetRuns_.size())))
                              .arg(seeds())
                        : tr("Preset %1: %2 started")
                              .arg(presetName_, runCount(static_cast<int>(presetRuns_.size()))),
            6000);
}

bool MainWindow::resolveInitial(const std::vector<ade::PlannedRun>& runs,
                                std::vector<std::optional<ade::ParamSet>>& initial) {
    initial.assign(runs.size(), std::nullopt);
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
    return true;
}

bool MainWindow::startBatch(const std::vector<ade::PlannedRun>& runs, bool paused) {
    std::vector<std::optional<ade::ParamSet>> initial;
    if (!resolveInitial(runs, initial)) return false;
    batch_.clear();
    batchPlan_ = runs;
    // Each label of the batch is one group (its seeds: the runs with that label, in order),
    // named so that no earlier run's group or name has it; a seed's name follows its group's.
    std::map<std::string, QString> groups;
    std::map<std::string, int> seedsOf;
    for (const auto& r : runs)
        ++seedsOf[r.label];
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const ade::PlannedRun& r = runs[i];
        auto [it, fresh] = groups.emplace(r.label, QString());
        if (fresh)
            it->second = store_->uniqueGroup(QString::fromStdString(r.label), r.config.experiment());
        QString name = it->second;
        if (seedsOf[r.label] > 1)
            name += QString::fromStdString(
                r.name.rfind(r.label, 0) == 0 ? r.name.substr(r.label.size())
                                              : "_seed" + std::to_string(r.config.getInt("seed")));
        batch_.push_back(controller_->start(name, r.config, initial[i], paused, it->second,
                                            r.seedIndex));
    }
    updateActions();
    return true;
}

void MainWindow::startFromForm() {
    if (!form_->isValid()) {
        statusBar()->showMessage(tr("Cannot start: %1").arg(startBlockedReason()), 10000);
        form_->showField(form_->firstProblemKey());
        return;
    }
    ade::PlannedRun run;
    run.label = store_->uniqueName(tr("run %1").arg(store_->runs().size() + 1)).toStdString();
    run.name = run.label;
    run.config = form_->config();
    if (tabs_->currentWidget() != inside_) tabs_->setCurrentWidget(charts_);
    startBatch(ade::withSeeds({run}, seeds()));
}

bool MainWindow::formSettingsAlreadyRan() const {
    const nlohmann::json form = form_->config().toJson();
    for (const auto& r : store_->runs())
        if (r->config.toJson() == form) return true;
    return false;
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
    if (formSettingsAlreadyRan()) {
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
        ade::PlannedRun run;
        run.label = store_->uniqueName(tr("run %1").arg(store_->runs().size() + 1)).toStdString();
        run.name = run.label;
        run.config = form_->config();
        if (!startBatch(ade::withSeeds({run}, seeds()), true)) return;
    }
    controller_->stepAll();
}

void MainWindow::stopRuns() {
    controller_->stopAll();
}

void MainWindow::resetRuns() {
    if (batch_.empty()) return;
    // Same configs and seeds: the trainer rebuilds the same data and initial weights.
    std::vector<std::optional<ade::ParamSet>> initial;
    for (int id : batch_)
        controller_->stopAndForget(id);
    if (!resolveInitial(batchPlan_, initial)) return;
    for (std::size_t i = 0; i < batch_.size(); ++i) {
        const int old = batch_[i];
        batch_[i] = store_->replaceRun(batch_[i], batchPlan_[i].config);
        claims_->replaceRun(old, batch_[i]);
        if (batch_[i]) controller_->startRecord(batch_[i], initial[i]);
    }
    claims_->evaluate(true);  // the claims are pending again at once
    updateActions();
}

void MainWindow::reseedRuns() {
    if (batchPlan_.empty()) return;
    const auto seed = static_cast<qint64>(QRandomGenerator::global()->bounded(1, 1000000));
    auto runs = batchPlan_;
    // New names (the old runs stay), and "same start as" follows its run to the new seed. The
    // seeds of a group stay a group: seed, seed + 1, ...
    std::map<std::string, std::string> labels;  // old label -> new
    std::map<std::string, int> seedsOf;
    for (const auto& r : runs)
        ++seedsOf[r.label];
    for (auto& r : runs) {
        auto [it, fresh] = labels.emplace(r.label, std::string());
        if (fresh) {
            const QString base =
                QStringLiteral("%1 · seed %2")
                    .arg(QString::fromStdString(r.label).section(QStringLiteral(" · seed "), 0, 0))
                    .arg(seed);
            it->second = store_->uniqueGroup(base, r.config.experiment()).toStdString();
        }
        const long long s = seed + r.seedIndex;
        const std::string name =
            seedsOf[r.label] > 1 ? it->second + "_seed" + std::to_string(s) : it->second;
        r.config.setJson("seed", s);
        r.label = it->second;
        r.name = name;
    }
    for (auto& r : runs)
        if (r.config.getString("init") == "same")
            if (auto it = labels.find(r.config.getString("init_from")); it != labels.end())
                r.config.setJson("init_from", it->second);
    startBatch(runs);
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
    controller_->stopAndForget(id);
    store_->removeRun(id);
    for (std::size_t i = 0; i < batch_.size(); ++i)
        if (batch_[i] == id) {
            batch_.erase(batch_.begin() + static_cast<std::ptrdiff_t>(i));
            batchPlan_.erase(batchPlan_.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
    updateActions();
}

}  // namespace ade::ui
