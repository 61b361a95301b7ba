#pragma once
// The live charts' frame rate: a refresh when new records came and the gap the last frame asks
// for has passed (frameGapMs), and the frames' times for `--stats` (base/FrameStats).
// - A frame waits at least as long as the last refresh took, so input stays responsive.
// - While the solvers fill every core (as many running runs as cores, or more), every
//   millisecond the GUI thread works is taken from them: the GUI thread then keeps to a share
//   of one core (kBusyShare, 8 %) in all, frames and everything else it does (records moved
//   into the store, the seed groups' aggregates, the run list...), so that the runs keep at
//   least about 96 % of the rate they have without the window. The frames take what the rest
//   leaves of that share, yet never fall below kMinFps frames per second. With cores to spare,
//   drawing takes nothing from the runs and the frames follow the records.
// Zooms, hovers and resizes refresh on their own, at once (ChartArea).
#include <QElapsedTimer>
#include <QObject>

#include <functional>

#include "base/FrameStats.h"

namespace ade::ui {

class ChartArea;

class RefreshPacer : public QObject {
    Q_OBJECT
  public:
    static constexpr double kBusyShare = 0.08;
    static constexpr double kMinFps = 10;
    // The wait after a frame that took `wallMs` of wall time and `cpuMs` of the GUI thread's
    // time (its refresh and the paints that followed), when the solvers do or do not fill
    // every core, while the GUI thread's other work takes `otherShare` of a core.
    static double frameGapMs(double wallMs, double cpuMs, bool solversFillCores, double otherShare = 0);
    // The GUI thread's share of a core outside the frames, as the pacer last measured it.
    double otherShare() const { return otherShare_; }

    // `runningRuns` counts the runs computing now (paused ones excluded).
    RefreshPacer(ChartArea* charts, std::function<int()> runningRuns, QObject* parent = nullptr);
    // The controller drained its queues (`changed`: new records): refresh when due.
    void onDrained(bool changed);
    const FrameStats& frames() const { return frames_; }

  private:
    ChartArea* charts_;
    std::function<int()> runningRuns_;
    FrameStats frames_;
    QElapsedTimer sinceRefresh_;
    double gapMs_ = 0;
    double lastWallMs_ = 0, lastCpuMs_ = 0;  // the last frame: its refresh and paints so far
    double threadCpuAtFrame_ = -1;           // the GUI thread's CPU time when it began
    double otherShare_ = 0;                  // the GUI thread's share of a core between frames
    bool gapBusy_ = false;                   // the solvers filled every core at the last frame
    bool dirty_ = false;
};

}  // namespace ade::ui
