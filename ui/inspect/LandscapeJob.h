#pragma once
// One loss-landscape computation for a run of the store: the centre iterate (the snapshot at the
// time cursor's iteration, else the final or initial parameters), its own trainer built from the
// run's config with threads = 1 (so the running solvers keep their cores), the grid
// (training/Landscape.h) and the run's trajectory projected onto it. Used synchronously by
// `attention-explorer-cli figure --panels landscape` and in a lowest-priority QThread (nice 19) by the panel.
#include <QObject>
#include <QString>
#include <QThread>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "config/Config.h"
#include "models/ParamSet.h"
#include "training/Landscape.h"

namespace ade::ui {

struct RunRecord;

// What a job needs from a run, copied on the GUI thread (the worker never touches the store).
struct LandscapeInput {
    QString runName;
    ade::Config config;
    long centreIteration = -1;  // -1: the parameters have no recorded iteration
    ade::ParamSet centre;
    std::vector<long> pathIterations;  // the trajectory: snapshots, oldest first
    std::vector<ade::ParamSet> path;
    QString pathSource;  // "snapshots" or "initial and final parameters"
};

// The input for `run` at `iteration` (-1: the latest); nullopt with a reason when the run has no
// parameters yet.
std::optional<LandscapeInput> landscapeInput(const RunRecord& run, long iteration, QString* why);

struct LandscapeOutcome {
    ade::LandscapeResult grid;
    std::vector<long> pathIterations;
    std::vector<Eigen::Vector2d> path;  // (t, s) of each trajectory point
    QString runName, pathSource;
    long centreIteration = -1;
    double seconds = 0.0;
    QString error;  // non-empty: nothing computed
};

// Computes it (any thread). `progress(done, total)` after each grid point.
LandscapeOutcome computeLandscapeFor(const LandscapeInput& in, const ade::LandscapeSpec& spec,
                                     const std::atomic<bool>* cancel,
                                     const std::function<void(int, int)>& progress);

// The same in a worker thread at the lowest priority (nice 19 on Linux); signals arrive on the
// GUI thread.
class LandscapeJob : public QObject {
    Q_OBJECT
  public:
    explicit LandscapeJob(QObject* parent = nullptr);
    ~LandscapeJob() override;  // cancels and waits

    bool isRunning() const;
    void start(LandscapeInput input, ade::LandscapeSpec spec);
    void cancel();

  signals:
    void progress(int done, int total);
    void finished(std::shared_ptr<const ade::ui::LandscapeOutcome> outcome);

  private:
    QThread* thread_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

}  // namespace ade::ui
