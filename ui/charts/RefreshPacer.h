#pragma once
// The live charts' frame rate: a refresh when new records came and the last refresh's cost has
// passed (a chart refresh that costs more than the controller's tick waits as long again before
// the next one, so the GUI thread never takes more than about half a core from the solvers and
// input stays responsive), and the frames' times for `--stats` (base/FrameStats).
#include <QElapsedTimer>
#include <QObject>

#include "base/FrameStats.h"

namespace ade::ui {

class ChartArea;

class RefreshPacer : public QObject {
    Q_OBJECT
  public:
    explicit RefreshPacer(ChartArea* charts, QObject* parent = nullptr);
    // The controller drained its queues (`changed`: new records): refresh when due.
    void onDrained(bool changed);
    const FrameStats& frames() const { return frames_; }

  private:
    ChartArea* charts_;
    FrameStats frames_;
    QElapsedTimer sinceRefresh_;
    double lastRefreshMs_ = 0;
    bool dirty_ = false;
};

}  // namespace ade::ui
