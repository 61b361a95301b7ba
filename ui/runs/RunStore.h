#pragma once
// GUI-owned storage of every run of the window: identity, config, state and the full metric
// history (column-major, so a chart reads one metric as a contiguous array). Lives on the GUI
// thread only; the worker threads never touch it (RunController drains their buffers into it).
#include <QObject>
#include <QString>

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "claims/HistoryView.h"
#include "config/Config.h"
#include "models/ParamSet.h"
#include "training/Inspection.h"
#include "training/Trainer.h"

namespace ade::ui {

enum class RunState { Starting, Running, Paused, Completed, Diverged, Stopped, Failed };
QString stateText(RunState s);
// "1 run", "2 runs" (status messages, tooltips).
QString runCountText(int n);
bool isActive(RunState s);  // Starting, Running or Paused

struct RunRecord {
    int id = 0;
    QString name;
    int colorIndex = 0;
    ade::Config config;
    RunState state = RunState::Starting;
    QString message;  // why it failed / diverged / stopped
    // The stopping rule's verdict (ade::RunResult::stop): "converged", "cap" (reached its
    // iterations first: not converged) or empty (no rule, or still running).
    QString stop;
    // Added to the iteration column of each record (a continued run carries on the numbering of
    // the run it continues); 0 for a new run.
    long iterationOffset = 0;
    // Seeds as an axis: the comparison's run this run is one seed of (the preset's run name,
    // made unique per Start), and which seed (0 .. K-1). Runs of one group that differ only in
    // their seed are drawn as one curve (their mean with a band) and summarised as mean ± sd.
    // "" = a run of its own (a group of one).
    QString group;
    int seedIndex = 0;
    std::string groupKey;  // group + the config without its seed (set by the store)
    bool visible = true;
    double iterationsPerSecond = 0.0;
    std::vector<std::string> columns;
    std::vector<std::vector<double>> data;       // data[column][record]
    std::optional<ade::ParamSet> initialParams;  // kept for "same start" and Reset
    std::optional<ade::ParamSet> finalParams;
    // Parameter snapshots, oldest first (time travel, the inside views): at most the config's
    // `snapshots`, within `snapshot_mb` MiB.
    std::vector<ade::Snapshot> snapshots;
    // The latest snapshot at or before `iteration` (iteration < 0: the latest of all); nullptr
    // when there is none.
    const ade::Snapshot* snapshotAt(long iteration) const;
    std::size_t snapshotBytes() const;  // the snapshots' matrices

    std::size_t size() const { return data.empty() ? 0 : data.front().size(); }
    int column(const std::string& name) const;   // -1 when absent
    double last(const std::string& name) const;  // NaN when absent or empty
    long lastIteration() const;
    ade::MetricHistory history() const;  // row-major copy, for CSV export (historyCsv)
    // The columns as the claims read them, in place (no copy): valid until records are added.
    ade::HistoryView view() const;
};

// The records a run of `config` logs at most: its iterations over log_every (plus the first
// and last), or the trainer's automatic choice (about 1000, never more than 2000), capped at
// 2^22. A live run's columns take this much room (address space: pages are touched only as
// records arrive) once the run has passed kPlanAfterRecords, so that the columns of nine runs,
// which fill at the same pace, do not all double and copy themselves in the same frame (80 ms at
// 60 000 records, growing with them).
std::size_t plannedRecords(const ade::Config& config);

// Short runs (a step, a run stopped early, most of a test's runs) grow as vectors do and never
// hold a long run's plan: reserving it at every start cost 1000 starts of ui_stress more than
// ten minutes under ThreadSanitizer, whose allocator walks a block's whole metadata when it is
// freed. Past this many records a run has shown that it is long, and takes its plan at once.
inline constexpr std::size_t kPlanAfterRecords = 4096;

// Room in `v` for `needed` elements: geometric growth, and the whole `planned` once `needed`
// passes kPlanAfterRecords (a run continued past its plan grows geometrically again).
template <class Vector>
void reserveRecords(Vector& v, std::size_t needed, std::size_t planned) {
    if (v.capacity() >= needed) return;
    std::size_t room = std::max(2 * v.capacity(), needed);
    if (needed > kPlanAfterRecords) room = std::max(room, planned);
    v.reserve(room);
}

class RunStore : public QObject {
    Q_OBJECT
  public:
    explicit RunStore(QObject* parent = nullptr);
    ~RunStore() override;

    // A new run, named uniquely (uniqueName) and given the first colour no other run of the
    // store has, so no two runs of a session share a colour.
    // `group` / `seedIndex`: the run is seed `seedIndex` of that group (RunRecord::group); the
    // seeds of one group share its colour.
    int addRun(const QString& name, const ade::Config& config, const QString& group = {},
               int seedIndex = 0);
    // A fresh record in place of `id` (Reset): same name, colour, visibility and place in the
    // list, no records; the old record is removed. Returns the new id (0 when `id` is unknown).
    int replaceRun(int id, const ade::Config& config);
    void removeRun(int id);
    // The position of a run in runs() (-1 when unknown).
    int indexOf(int id) const;
    // Gives a run the colour `colorIndex` when no other run has it (a session's saved colour).
    bool setColorIndex(int id, int colorIndex);
    RunRecord* run(int id);
    const RunRecord* run(int id) const;
    const std::vector<std::unique_ptr<RunRecord>>& runs() const { return runs_; }
    std::vector<const RunRecord*> visibleRuns() const;

    void setColumns(int id, const std::vector<std::string>& columns);
    void appendRows(int id, const std::vector<std::vector<double>>& rows);
    // `count` records of `width` values each, one after the other (a worker's block): value c of
    // record k is values[k * width + c]; columns past `width` get NaN.
    void appendBlock(int id, std::span<const double> values, std::size_t width);
    // Appends parameter snapshots (oldest first, after the run's existing ones).
    void appendSnapshots(int id, std::vector<ade::Snapshot> snapshots);
    void setState(int id, RunState state, const QString& message = {});
    void rename(int id, const QString& name);
    void setVisible(int id, bool visible);
    void notifyChanged(int id);  // after editing a record's fields directly

    // `base` when free. Taken by a run of another experiment: "base (C)" (the experiment's name,
    // so runs of Experiments B and C with one label stay apart); then "… (2)", "… (3)".
    QString uniqueName(const QString& base, const std::string& experiment = {}) const;
    // A group label no run of the store has as its group or name ("none", "none (2)", ...).
    QString uniqueGroup(const QString& base, const std::string& experiment = {}) const;
    // Bumped on every change of data or visibility: charts redraw only when it moved.
    quint64 revision() const { return revision_; }
    std::size_t totalPoints() const;
    std::size_t totalSnapshotBytes() const;

  signals:
    void runAdded(int id);
    void runRemoved(int id);
    void runChanged(int id);  // name, state, visibility, final metrics
    void dataAppended(int id);
    void snapshotsAppended(int id);

  private:
    std::vector<std::unique_ptr<RunRecord>> runs_;
    int freeColor() const;
    int nextId_ = 1;
    quint64 revision_ = 0;
};

}  // namespace ade::ui
