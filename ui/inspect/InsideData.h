#pragma once
// What the inside views show, from a RunStore: the parameters of a run at an iteration (its
// snapshot, else its final, else its initial parameters), the experiment's Problem to compute
// targets, teachers and attention (built from the run's config through the experiments
// registry, off the GUI thread, cached per config), and the scenes of the three panels.
#include <QFutureWatcher>
#include <QObject>

#include <map>
#include <memory>
#include <string>

#include "inspect/AttentionPanel.h"
#include "inspect/FactorPlanePanel.h"
#include "inspect/MatrixPanel.h"
#include "config/Config.h"
#include "training/Problem.h"

namespace ade::ui {

class RunStore;
struct RunRecord;

// The parameters run `r` shows at `iteration` (< 0: the latest): the snapshot at or before it,
// else the final parameters, else the initial ones (old sessions, a run before its first
// snapshot). `shown` gets the iteration they belong to, `source` a phrase saying which they are.
const ade::ParamSet* paramsAt(const RunRecord& r, long iteration, long* shown, QString* source);

// The run the views focus on: `focusRun` when it exists and is visible, else the first visible.
const RunRecord* focusRecord(const RunStore& store, int focusRun);

// Problems per config. The GUI asks with problem(), which starts a build in a worker thread and
// returns nullptr until it is done (then ready() is emitted); the CLI builds with problemNow().
class ProblemCache : public QObject {
    Q_OBJECT
  public:
    explicit ProblemCache(QObject* parent = nullptr);
    ~ProblemCache() override;
    ade::Problem* problem(const ade::Config& config, QString* error = nullptr);
    ade::Problem* problemNow(const ade::Config& config, QString* error = nullptr);
    bool building() const;
    // Waits for builds in flight (the window's close, tests).
    void waitForBuilds();

  signals:
    void ready();

  private:
    struct Entry {
        std::shared_ptr<ade::Problem> problem;
        QString error;
        QFutureWatcher<std::shared_ptr<ade::Problem>>* watcher = nullptr;
        quint64 used = 0;
    };
    static std::string keyOf(const ade::Config& c);
    void evict();
    std::map<std::string, Entry> entries_;
    quint64 clock_ = 0;
};

// The most tokens an attention view shows.
constexpr int kMaxAttentionTokens = 128;

QString sceneHeading(const RunRecord& r, long shown, const QString& source);
MatrixScene matrixScene(const RunRecord* r, ade::Problem* problem, long iteration,
                        const QString& pending);
AttentionScene attentionScene(const RunRecord* r, ade::Problem* problem, long iteration,
                              const QString& pending);
// Every visible run with the plane's two columns; each marked at the last record <= iteration.
FactorPlaneScene factorPlaneScene(const RunStore& store, const RunRecord* focus,
                                  ade::Problem* problem, long iteration, const QString& pending);

}  // namespace ade::ui
