#pragma once
// Time travel: a bar under the charts whose slider scrubs the window's TimeCursor over the
// focused run's parameter snapshots (RunRecord::snapshots), with a Live button (follow the
// latest snapshot), keyboard steps and "iteration N of M". Works while the run goes and after.
#include <QString>
#include <QTimer>
#include <QToolBar>

class QAction;
class QLabel;
class QSlider;

namespace ade::ui {

class RunStore;
class TimeCursor;
struct RunRecord;

// The run the inside views and the time-travel bar follow: the cursor's focused run when the
// store has it, otherwise the first visible run, otherwise the first run (nullptr: none).
const RunRecord* focusedRun(const RunStore& store, const TimeCursor& cursor);
// "12 snapshots, 4.5 KiB (at most 100 and 64 MiB)": what a run's snapshots cost.
QString snapshotMemoryText(const RunRecord& r);

class TimeTravelBar : public QToolBar {
    Q_OBJECT
  public:
    TimeTravelBar(RunStore* store, TimeCursor* cursor, QWidget* parent = nullptr);

    QSlider* slider() const { return slider_; }
    QLabel* label() const { return label_; }
    QAction* liveAction() const { return live_; }
    QAction* earlierAction() const { return earlier_; }
    QAction* laterAction() const { return later_; }

    // Back to the snapshots of the focused run (range, position, label, enabled state).
    void sync();
    // Shows snapshot `index` of the focused run (0 = its first); leaves live mode.
    void showSnapshot(int index);
    void stepSnapshot(int delta);

  private:
    RunStore* store_;
    TimeCursor* cursor_;
    QSlider* slider_ = nullptr;
    QLabel* label_ = nullptr;
    QAction* live_ = nullptr;
    QAction* earlier_ = nullptr;
    QAction* later_ = nullptr;
    bool syncing_ = false;
    // New records of the focused run change only the label's "of M": it follows them at most
    // five times a second (a sync on every arrival was 4 % of the GUI thread at 10^5 records).
    QTimer recordsTimer_;
};

}  // namespace ade::ui
