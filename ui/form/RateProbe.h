#pragma once
// A quick measurement of how fast a config trains, for the form's time estimate when no run of
// that size has been measured yet: the run's own trainer on a worker thread (nice +kSolverNice, like a
// run), stopped about a second after its set-up (or after 20 s of set-up). Started by the user
// ("measure" in the estimate line), never on its own.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>

#include "config/Config.h"

namespace ade::ui {

class RateProbe : public QObject {
    Q_OBJECT
  public:
    explicit RateProbe(QObject* parent = nullptr);
    ~RateProbe() override;  // stops and joins a probe still running

    bool start(const ade::Config& config);  // false while another probe runs
    bool running() const { return job_ != nullptr; }

  signals:
    // Iterations per second of `config` (0 with `error` when it could not be measured).
    void finished(const ade::Config& config, double rate, const QString& error);

  private:
    struct Job;
    void poll();
    std::unique_ptr<Job> job_;
    QTimer timer_;
    QElapsedTimer setup_, training_;
};

}  // namespace ade::ui
