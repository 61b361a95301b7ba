#pragma once
// The live charts of the window: a grid of ChartPanels (loss, weight norms, manifold, other
// metrics) and the chart toolbar (log y, log x, EMA smoothing, fit). Knows panels only through
// the ChartPanel interface.
#include <QWidget>

#include <vector>

#include "charts/ChartPanel.h"

class QCheckBox;
class QSlider;
class QLabel;

namespace ade::ui {

class RunStore;

class ChartArea : public QWidget {
    Q_OBJECT
  public:
    explicit ChartArea(RunStore* store, QWidget* parent = nullptr);

    // Pushes the store's new data into every panel; returns the time it took (ms), and the GUI
    // thread's CPU time in `cpuMs`.
    double refresh(bool force = false, double* cpuMs = nullptr);
    const std::vector<ChartPanel*>& panels() const { return panels_; }
    ChartPanel* panel(const QString& id) const;

    bool logY() const;
    bool logX() const;
    double smoothing() const;
    void setLogY(bool on);
    void setLogX(bool on);
    void setSmoothing(double weight);
    void setPresentation(bool on);
    void fitAll();

  signals:
    void painted(double ms, double cpuMs);

  private:
    void applyOptions();

    RunStore* store_;
    std::vector<ChartPanel*> panels_;
    QCheckBox* logY_ = nullptr;
    QCheckBox* logX_ = nullptr;
    QSlider* smoothing_ = nullptr;
    QLabel* smoothingLabel_ = nullptr;
    bool presentation_ = false;
};

}  // namespace ade::ui
