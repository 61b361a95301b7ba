#pragma once
// Time travel: the iteration every inside view (heatmaps, attention, factor plane, landscape
// marker) and the cursor on the curves show. -1 = live: each run's latest snapshot. Owned by the
// main window; views read it and redraw on changed(). GUI thread only.
#include <QObject>

namespace ade::ui {

class TimeCursor : public QObject {
    Q_OBJECT
  public:
    explicit TimeCursor(QObject* parent = nullptr) : QObject(parent) {}

    long iteration() const { return iteration_; }
    bool isLive() const { return iteration_ < 0; }
    // The run the views focus on (its attention, its landscape); 0 = the first visible run.
    int focusRun() const { return focusRun_; }

  public slots:
    void setIteration(long iteration) {
        if (iteration < 0) iteration = -1;
        if (iteration == iteration_) return;
        iteration_ = iteration;
        emit changed();
    }
    void setLive() { setIteration(-1); }
    void setFocusRun(int id) {
        if (id == focusRun_) return;
        focusRun_ = id;
        emit changed();
    }

  signals:
    void changed();

  private:
    long iteration_ = -1;
    int focusRun_ = 0;
};

}  // namespace ade::ui
