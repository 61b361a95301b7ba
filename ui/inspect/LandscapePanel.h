#pragma once
// The loss landscape panel (issue 15): around the focused run's iterate at the time cursor, the
// training objective on a (t, s) grid — t along the symmetry orbit, s along a normal direction —
// as a contour map with the run's projected trajectory and the current iterate's marker, and as
// a rotatable 3-D surface. Compute runs in a lowest-priority worker (nice 19) (LandscapeJob) with a
// progress bar and Cancel; the GUI thread never waits for it. Standalone: (RunStore*,
// TimeCursor*) is all it needs.
#include <QWidget>

#include <memory>

#include "inspect/LandscapeMap.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace ade::ui {

class RunStore;
class TimeCursor;
class LandscapeJob;
class LandscapeSurface;

class LandscapePanel : public QWidget {
    Q_OBJECT
  public:
    LandscapePanel(RunStore* store, TimeCursor* cursor, QWidget* parent = nullptr);
    ~LandscapePanel() override;

    // The run the landscape is (to be) computed for: the cursor's focus run, else the first
    // visible run with parameters; 0 when none.
    int targetRun() const;
    bool isComputing() const;
    std::shared_ptr<const LandscapeOutcome> outcome() const { return outcome_; }
    LandscapeMapOptions mapOptions() const;
    LandscapeSurface* surface() const { return surface_; }
    // The marker's trajectory index on the map (-1: none), following the time cursor.
    int markerIndex() const;

  public slots:
    void compute();
    void cancel();
    void exportMap();

  signals:
    void computed();  // a landscape finished (not cancelled)

  private:
    void onFinished(std::shared_ptr<const LandscapeOutcome> outcome);
    void updateState();

    RunStore* store_;
    TimeCursor* cursor_;
    LandscapeJob* job_;
    std::shared_ptr<const LandscapeOutcome> outcome_;
    QPushButton *computeButton_, *cancelButton_, *exportButton_;
    QSpinBox* grid_;
    QDoubleSpinBox *tRange_, *sRange_;
    QComboBox *normal_, *quantity_;
    QProgressBar* progress_;
    QLabel* status_;
    QTabWidget* tabs_;
    QWidget* mapView_;
    LandscapeSurface* surface_;
};

}  // namespace ade::ui
