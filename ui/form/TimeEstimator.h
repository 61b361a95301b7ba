#pragma once
// The form's time estimate ("Time: about 4 min 10 s for 20000 iterations"): from the rate of the
// last run of the same cost in the run store, else from a one-second measurement (RateProbe,
// the form's "measure" link). A run "of the same cost" differs from the form only in keys whose
// ParamSpec says costNeutral.
#include <QObject>
#include <QString>

#include <utility>
#include <vector>

#include "config/Config.h"

namespace ade::ui {

class ParamForm;
class RateProbe;
class RunStore;
struct RunRecord;

// "45 s", "4 min 10 s", "3 h 20 min", "12 days" ("unknown" for a negative or infinite time).
QString durationText(double seconds);
// Iterations per second of a run: the trainer's own rate when it ended, else its records'.
double measuredRate(const RunRecord& r);

class TimeEstimator : public QObject {
    Q_OBJECT
  public:
    TimeEstimator(const RunStore* store, ParamForm* form, QObject* parent = nullptr);
    // The form's time ("" when no run of this cost has been measured); `basis` says from what.
    QString estimate(QString* basis = nullptr) const;
    // The form's estimate line, again (after a run ended, the form changed, a measurement).
    void update();
    // A quick measurement of the form's speed (about a second on a worker thread).
    void measure();

  signals:
    void measurementFailed(const QString& error);

  private:
    const RunStore* store_;
    ParamForm* form_;
    RateProbe* probe_;
    std::vector<std::pair<ade::Config, double>> probedRates_;  // config, iterations per second
};

}  // namespace ade::ui
