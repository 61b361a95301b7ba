#pragma once
// Runs core::Trainer on worker threads (one std::thread per run) and streams their records into
// the RunStore. The training thread only appends to a mutex-protected buffer; a ~30 Hz timer on
// the GUI thread drains every buffer in bulk (the PlotJuggler pattern), so the GUI never waits
// on the solver and the solver never waits on the GUI.
#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

#include "runs/RunStore.h"
#include "config/Config.h"
#include "models/ParamSet.h"

namespace ade::ui {

class RunJob;

class RunController : public QObject {
    Q_OBJECT
  public:
    explicit RunController(RunStore* store, QObject* parent = nullptr);
    ~RunController() override;  // stops and joins every run

    // Adds a run to the store and starts it. `initial` = start from these weights ("same start").
    // With `paused`, the worker builds the problem and waits before the first iteration.
    // `group` / `seedIndex`: the run is that seed of a group (RunRecord::group).
    int start(const QString& name, const ade::Config& config,
              std::optional<ade::ParamSet> initial = std::nullopt, bool paused = false,
              const QString& group = {}, int seedIndex = 0);
    // Starts the run of an existing record of the store (one without records: a new record, or
    // one made by RunStore::replaceRun for Reset). Returns `id`.
    int startRecord(int id, std::optional<ade::ParamSet> initial = std::nullopt,
                    bool paused = false);

    // A pause point (lessons): every run started from now on, and every active run that has not
    // reached it, pauses itself once at the first recorded iteration >= `iteration` (a run
    // records every log_every iterations); Resume carries on. -1 clears it.
    void setPauseAtIteration(long iteration);
    long pauseAtIteration() const { return pauseAt_; }

    void pauseAll();
    void resumeAll();
    void stepAll();  // while paused: advance every active run to its next recorded iteration
    void stopAll();  // request stop; runs end at their next iteration
    void stop(int id);
    void stopAndWait();  // stop and join every thread (window closing)
    // Stops one run, joins its thread and forgets it (its record may then be removed).
    void stopAndForget(int id);

    bool anyActive() const { return !jobs_.empty(); }
    bool paused() const { return paused_; }
    std::vector<int> activeIds() const;
    // The runs computing now: the active ones unless all are paused.
    int runningCount() const { return paused_ ? 0 : static_cast<int>(jobs_.size()); }
    // Latest iterations per second over the active runs (sum), for the status bar.
    double iterationsPerSecond() const { return itPerSec_; }
    long latestIteration() const { return latestIteration_; }

    void setDrainInterval(int ms) { timer_.setInterval(ms); }

  public slots:
    void drain();  // move buffered records into the store (called by the timer)

  signals:
    void runStarted(int id);
    void runFinished(int id);
    void allFinished();
    void activeChanged();        // a run started or ended, or pause toggled
    void drained(bool changed);  // after each timer tick; `changed` = new data arrived

  private:
    RunStore* store_;
    QTimer timer_;
    std::vector<std::unique_ptr<RunJob>> jobs_;
    bool paused_ = false;
    double itPerSec_ = 0.0;
    long latestIteration_ = 0;
    long pauseAt_ = -1;
};

}  // namespace ade::ui
