#pragma once
// The workspace: the document the window shows, without a widget. It owns the preset library,
// the run store and the run controller (the worker threads), the time cursor and the live
// claims; it holds the loaded preset or comparison (its runs, one seed each, and the form it
// filled in), the Seeds count, and the batch of the last Start (what Reset and Re-seed act on).
// Starting a batch names its runs and groups, resolves "same start as" through core and hands
// the runs to the controller; errors come back as text (the window shows them in its status bar).
// Tested without a window (tests/ui/tst_workspace.cpp).
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/Config.h"
#include "models/ParamSet.h"
#include "plan/PlanRunner.h"
#include "plan/Preset.h"

namespace ade::ui {

class ClaimsMonitor;
class RunController;
class RunStore;
class TimeCursor;

class Workspace : public QObject {
    Q_OBJECT
  public:
    // Presets from PresetLibrary::defaultDirectories(argv0) ($ADE_RESOURCES first).
    explicit Workspace(const std::string& argv0, QObject* parent = nullptr);
    ~Workspace() override;

    RunStore* store() const { return store_; }
    RunController* controller() const { return controller_; }
    // The iteration the inside views and the curves' cursor show, and the focused run.
    TimeCursor* timeCursor() const { return timeCursor_; }
    // The loaded preset's claims, checked live over its comparison's runs (all seeds).
    ClaimsMonitor* claims() const { return claims_; }
    const ade::PresetLibrary& presets() const { return *presets_; }

    // --- the loaded preset or comparison
    // A preset by name with "KEY=VALUE" overrides; nullopt and `error` when it cannot be loaded.
    std::optional<ade::Plan> loadPreset(const QString& name,
                                        const std::vector<std::string>& overrides,
                                        QString* error) const;
    // `plan` becomes the loaded one under `name`: its runs with one seed each (none for a sweep),
    // its claims, its texts; the Seeds count becomes the plan's. `formJson`: the form's config as
    // the plan filled it in (isPresetForm compares against it).
    void setPlan(const ade::Plan& plan, const QString& name, const std::string& formJson);
    // Nothing loaded (an opened session): no preset, no comparison, no batch, no claims.
    void clearPlan();
    const QString& presetName() const { return presetName_; }
    const QString& presetDescription() const { return presetDescription_; }
    const QString& presetAbout() const { return presetAbout_; }
    const std::vector<ade::PlannedRun>& presetRuns() const { return presetRuns_; }
    bool hasComparison() const { return !presetRuns_.empty(); }
    // The form still shows what the loaded preset filled in (Start then starts its comparison).
    bool isPresetForm(const ade::Config& form) const;
    // A run of the store has exactly this config (Play does not run it again).
    bool alreadyRan(const ade::Config& config) const;

    // --- seeds per run (the Seeds box beside Start)
    int seeds() const { return seeds_; }
    void setSeeds(int k);  // at least 1

    // --- the batch: the runs of the last Start (what Reset and Re-seed act on)
    const std::vector<int>& batchIds() const { return batch_; }
    const std::vector<ade::PlannedRun>& batchRuns() const { return batchPlan_; }
    // The loaded preset's comparison with the Seeds count; older runs stay in the store, hidden
    // from the charts, and the claims watch the new ones.
    bool startComparison(QString* error = nullptr);
    // One new run of `config` (named by nameForConfig, a name no run has) with the Seeds count.
    // The name a Start of `config` gets: what it changes against the closest run of its
    // experiment in the list (fewest differing keys, the latest on a tie), after that run's name
    // when both fit ("spectral · n = 512"; "n = 512, lr = 0.02" when longer; "+2 more" past two
    // keys); that run's name again when nothing but the seed differs (made unique: "(2)");
    // "run N" when the list holds no run of the experiment.
    QString nameForConfig(const ade::Config& config) const;
    bool startConfig(const ade::Config& config, bool paused = false, QString* error = nullptr);
    // Starts `runs` as the batch: each label one group (seeds in order) named so that no earlier
    // run has its name; "same start as" resolved from the batch or the store.
    bool startBatch(const std::vector<ade::PlannedRun>& runs, bool paused = false,
                    QString* error = nullptr);
    // Reset: the batch again from iteration 0 in place (same configs, seeds, initial weights).
    bool resetBatch(QString* error = nullptr);
    // Re-seed: the batch's configs with seeds seed, seed + 1, … as new runs beside the old ones
    // (new group names; "same start as" follows its run to the new seed).
    bool reseedBatch(long long seed, QString* error = nullptr);
    // Stops and removes a run (and takes it out of the batch).
    void deleteRun(int id);

    // The initial weights of each run with init = same: from the runs themselves (core's
    // resolveSameStart) or, by name, from a run of the store.
    bool resolveInitial(const std::vector<ade::PlannedRun>& runs,
                        std::vector<std::optional<ade::ParamSet>>& initial,
                        QString* error) const;

  signals:
    void planChanged();   // a preset or comparison was loaded or cleared
    void batchChanged();  // a batch started, was reset, or lost a run
    void seedsChanged(int k);

  private:
    void watchClaims();

    std::unique_ptr<ade::PresetLibrary> presets_;
    RunStore* store_ = nullptr;
    RunController* controller_ = nullptr;
    TimeCursor* timeCursor_ = nullptr;
    ClaimsMonitor* claims_ = nullptr;
    QString presetName_, presetDescription_, presetAbout_;
    std::vector<ade::PlannedRun> presetRuns_;
    std::string presetForm_;
    int seeds_ = 1;
    std::vector<int> batch_;
    std::vector<ade::PlannedRun> batchPlan_;
};

}  // namespace ade::ui
