#pragma once
// The loaded preset's claims (core/claims/Claims.h), checked live over the runs of its
// comparison as they stream: each run of the window is mapped to the preset's run label and
// its seed (ClaimRun), and every claim is evaluated again at most about three times a second,
// and only when the store changed. A preset with a sweep runs it on the Sweep tab, outside the
// store: the sweep's runs (their grid values and seeds) are handed in as they end
// (setSweepRuns) and counted beside the store's. The claims read the store's columns in place
// (RunRecord::view): an evaluation costs the claims' own arithmetic, and no record is copied or
// kept twice. No widgets (ClaimsChecklist shows the results).
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "claims/Claims.h"
#include "plan/PlanRunner.h"

namespace ade::ui {

class RunStore;

class ClaimsMonitor : public QObject {
    Q_OBJECT
  public:
    static constexpr int kIntervalMs = 300;  // the checklist's refresh: at most ~3 per second

    explicit ClaimsMonitor(RunStore* store, QObject* parent = nullptr);

    // The claims of the loaded preset (none: nothing to check); results start pending.
    void setClaims(std::vector<ade::ClaimSpec> claims);
    const std::vector<ade::ClaimSpec>& claims() const { return claims_; }
    // The runs the claims are about: (run id, the preset's run label). Runs of the store that
    // are not listed (other comparisons, runs from the form) are not the claims' runs.
    void setRuns(std::vector<std::pair<int, std::string>> runs);
    const std::vector<std::pair<int, std::string>>& runs() const { return runs_; }
    void replaceRun(int oldId, int newId);  // Reset gives a run a new record
    // Runs stopped by a crash (recovered from the recovery file): not judged, as runs the user
    // stopped, and named as interrupted by the crash. setClaims forgets them.
    void setInterrupted(std::vector<int> ids);
    // The loaded preset's sweep (run on the Sweep tab): started (its claims are pending until
    // it ends), then its finished runs; `cancelled`: stopped by the user before its end (its
    // claims are not judged, as runs the user stopped). setClaims forgets them, and runs of a
    // sweep started before it are not taken.
    void sweepStarted();
    void setSweepRuns(std::vector<ade::RunOutcome> outcomes, bool cancelled);
    const std::vector<ade::RunOutcome>& sweepRuns() const { return sweep_; }

    const std::vector<ade::ClaimResult>& results() const { return results_; }
    // Evaluates every claim now (when the store changed since the last time, or `force`).
    // Returns whether it did.
    bool evaluate(bool force = false);
    int evaluations() const { return evaluations_; }
    double lastEvaluationMs() const { return lastMs_; }
    double maxEvaluationMs() const { return maxMs_; }
    // The same on the GUI thread's CPU clock: the evaluation's own cost, which a loaded machine
    // (other processes taking the core) does not inflate.
    double lastEvaluationCpuMs() const { return lastCpuMs_; }

  signals:
    void updated();  // new results

  private:
    void schedule();

    RunStore* store_;
    std::vector<ade::ClaimSpec> claims_;
    std::vector<std::pair<int, std::string>> runs_;
    std::vector<ade::ClaimResult> results_;
    std::set<int> interrupted_;           // stopped by a crash
    std::vector<ade::RunOutcome> sweep_;  // the preset's sweep's finished runs
    std::vector<ade::ClaimRun> sweepClaimRuns_;  // sweep_ as the claims read it
    enum class SweepState { None, Running, Done, Cancelled } sweepState_ = SweepState::None;
    QTimer timer_;
    bool dirty_ = true;  // records or a run's state changed since the last evaluation
    int evaluations_ = 0;
    double lastMs_ = 0, maxMs_ = 0, lastCpuMs_ = 0;
};

}  // namespace ade::ui
