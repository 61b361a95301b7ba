#pragma once
// The window's status bar: what runs ("running · 3 runs", a sweep's progress), why Start is
// disabled with a link to the field at fault, the furthest iteration, the rate and the time
// left, the points logged; a message when a run diverges, fails or reaches its time cap.
#include <QElapsedTimer>
#include <QObject>

class QLabel;
class QStatusBar;

namespace ade::ui {

class ParamForm;
class SweepView;
class Workspace;

class StatusLine : public QObject {
    Q_OBJECT
  public:
    StatusLine(QStatusBar* bar, Workspace* workspace, ParamForm* form, SweepView* sweep,
               QObject* parent = nullptr);
    void update();
    // As update, at most every 200 ms of streaming (each new text re-lays out the whole window,
    // status bar and docks); state changes call update at once.
    void updateThrottled();
    QLabel* stateLabel() const { return state_; }

  protected:
    // A hovered action's status tip is shown elided to the room left of the iteration, rate and
    // points (Qt drew it up against "iteration 2000", cut mid-word, as one run-on line).
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QStatusBar* bar_;
    Workspace* workspace_;
    ParamForm* form_;
    SweepView* sweep_;
    QLabel* state_;
    QLabel* iteration_;
    QLabel* rate_;
    QLabel* points_;
    QElapsedTimer sinceStreamed_;  // since the last updateThrottled that updated
};

}  // namespace ade::ui
