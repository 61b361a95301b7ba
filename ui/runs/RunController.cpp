#include "runs/RunController.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include "base/ThreadPriority.h"
#include "experiments/ExperimentRegistry.h"
#include "training/Trainer.h"
#include "util/RunControl.h"

namespace ade::ui {


// One run on its own thread. The observer methods run on that thread; everything else on the
// GUI thread. Shared state is the mutex-protected buffer and the `done_` flag.
class RunJob final : public ade::RunObserver {
  public:
    RunJob(int id, ade::Config config, std::optional<ade::ParamSet> initial, bool paused,
           long pauseAt)
        : id_(id), config_(std::move(config)), initial_(std::move(initial)), pauseAt_(pauseAt) {
        if (paused) control_.pause();
        thread_ = std::thread([this] { work(); });
    }
    ~RunJob() override {
        control_.requestStop();
        if (thread_.joinable()) thread_.join();
    }

    int id() const { return id_; }
    ade::RunControl& control() { return control_; }
    void setPauseAt(long iteration) { pauseAt_.store(iteration, std::memory_order_relaxed); }
    // True once after the run paused itself at its pause iteration.
    bool takeSelfPaused() { return selfPaused_.exchange(false, std::memory_order_acq_rel); }
    bool done() const { return done_.load(std::memory_order_acquire); }

    // What a run recorded since the last take: its records as one block (`width` values each,
    // one record after the other), not a vector per record.
    struct Batch {
        bool hasColumns = false;
        std::vector<std::string> columns;
        std::vector<double> records;
        std::size_t width = 0;
        std::optional<ade::ParamSet> initialParams;
        std::vector<ade::Snapshot> snapshots;
    };
    Batch take() {
        Batch b;
        b.records = std::move(spare_);  // the block before last: the worker refills its memory
        b.records.clear();
        std::lock_guard lock(mutex_);
        b.hasColumns = columnsNew_;
        columnsNew_ = false;
        if (b.hasColumns) b.columns = columns_;
        b.width = width_;
        b.records.swap(pending_);
        b.snapshots.swap(snapshots_);
        b.initialParams = std::move(initialParams_);
        initialParams_.reset();
        return b;
    }
    // The block of a batch, once its records are in the store (GUI thread): its memory takes
    // the next records, so that handing records over needs no new memory once the blocks are
    // large enough.
    void giveBack(std::vector<double>&& block) { spare_ = std::move(block); }
    // Only after done(): the finished result (history moved out: the store has every row).
    ade::RunResult& result() { return result_; }
    const std::string& error() const { return error_; }
    void join() {
        if (thread_.joinable()) thread_.join();
    }

    void onStart(const std::vector<std::string>& columns) override {
        std::lock_guard lock(mutex_);
        columns_ = columns;
        columnsNew_ = true;
        width_ = columns.size();
    }
    bool keepsRecords() const override { return true; }  // the store keeps them
    void onParams(long iteration, const ade::ParamSet& p) override {
        ade::Snapshot s{iteration, p};  // copied outside the lock
        std::lock_guard lock(mutex_);
        snapshots_.push_back(std::move(s));
    }
    void onRecord(const std::vector<double>& row) override {
        {
            std::lock_guard lock(mutex_);
            // A record is as wide as the columns (the trainer's rows always are).
            const std::size_t n = std::min(row.size(), width_);
            pending_.insert(pending_.end(), row.begin(), row.begin() + static_cast<long>(n));
            pending_.insert(pending_.end(), width_ - n, std::nan(""));
        }
        // A pause point: the trainer blocks at its next checkpoint, right after this record.
        const long at = pauseAt_.load(std::memory_order_relaxed);
        if (at > 0 && !row.empty() && row[0] >= static_cast<double>(at)) {
            pauseAt_.store(-1, std::memory_order_relaxed);  // once: Resume carries on
            control_.pause();
            selfPaused_.store(true, std::memory_order_release);
        }
    }

  private:
    void work() {
        niceThisThread(kSolverNice);  // base/ThreadPriority.h: the GUI thread draws first
        std::unique_ptr<ade::Trainer> trainer;
        {
            ade::AmbientRunControl ambient(&control_);  // Stop reaches set-up (Darcy stage 1)
            trainer = ade::makeTrainer(config_, &error_, initial_);
        }
        if (trainer) {
            result_ = trainer->run(this, &control_);
            std::lock_guard lock(mutex_);
            initialParams_ = result_.initialParams;
        }
        result_.snapshots.clear();  // the store has them (onParams), as it has the records
        done_.store(true, std::memory_order_release);
    }

    int id_;
    ade::Config config_;
    std::optional<ade::ParamSet> initial_;
    ade::RunControl control_;
    std::mutex mutex_;
    std::vector<std::string> columns_;
    bool columnsNew_ = false;
    std::size_t width_ = 0;
    std::vector<double> pending_;
    std::vector<double> spare_;  // GUI thread only
    std::vector<ade::Snapshot> snapshots_;
    std::optional<ade::ParamSet> initialParams_;
    ade::RunResult result_;
    std::string error_;
    std::atomic<bool> done_{false};
    std::atomic<long> pauseAt_{-1};
    std::atomic<bool> selfPaused_{false};
    std::thread thread_;
};

RunController::RunController(RunStore* store, QObject* parent) : QObject(parent), store_(store) {
    timer_.setInterval(33);
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &RunController::drain);
}

RunController::~RunController() {
    blockSignals(true);
    stopAndWait();
}

int RunController::start(const QString& name, const ade::Config& config,
                         std::optional<ade::ParamSet> initial, bool paused, const QString& group,
                         int seedIndex) {
    return startRecord(store_->addRun(name, config, group, seedIndex), std::move(initial),
                       paused);
}

int RunController::startRecord(int id, std::optional<ade::ParamSet> initial, bool paused) {
    RunRecord* rec = store_->run(id);
    if (!rec) return 0;
    if (initial) rec->initialParams = initial;
    const bool startPaused = paused || paused_;
    jobs_.push_back(
        std::make_unique<RunJob>(id, rec->config, std::move(initial), startPaused, pauseAt_));
    paused_ = startPaused;
    store_->setState(id, startPaused ? RunState::Paused : RunState::Running);
    if (!timer_.isActive()) timer_.start();
    emit runStarted(id);
    emit activeChanged();
    return id;
}

std::vector<int> RunController::activeIds() const {
    std::vector<int> ids;
    for (const auto& j : jobs_)
        ids.push_back(j->id());
    return ids;
}

void RunController::setPauseAtIteration(long iteration) {
    pauseAt_ = iteration > 0 ? iteration : -1;
    for (auto& j : jobs_)
        if (store_->run(j->id()) && store_->run(j->id())->lastIteration() < iteration)
            j->setPauseAt(pauseAt_);
}

void RunController::pauseAll() {
    if (jobs_.empty()) return;
    paused_ = true;
    for (auto& j : jobs_) {
        j->control().pause();
        store_->setState(j->id(), RunState::Paused);
    }
    emit activeChanged();
}

void RunController::resumeAll() {
    paused_ = false;
    for (auto& j : jobs_) {
        j->control().resume();
        store_->setState(j->id(), RunState::Running);
    }
    emit activeChanged();
}

void RunController::stepAll() {
    paused_ = true;
    for (auto& j : jobs_) {
        j->control().stepOnce(1);  // the trainer records every iteration it makes while paused
        store_->setState(j->id(), RunState::Paused);
    }
    emit activeChanged();
}

void RunController::stopAll() {
    for (auto& j : jobs_)
        j->control().requestStop();
}

void RunController::stop(int id) {
    for (auto& j : jobs_)
        if (j->id() == id) j->control().requestStop();
}

void RunController::stopAndWait() {
    stopAll();
    for (auto& j : jobs_)
        j->join();
    drain();
    timer_.stop();
}

void RunController::stopAndForget(int id) {
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it) {
        if ((*it)->id() != id) continue;
        (*it)->control().requestStop();
        (*it)->join();
        jobs_.erase(it);
        if (store_->run(id)) store_->setState(id, RunState::Stopped);
        if (jobs_.empty()) {
            timer_.stop();
            paused_ = false;
        }
        emit activeChanged();
        return;
    }
}

void RunController::drain() {
    bool changed = false;
    // Moves what a job has recorded since the last drain into the store.
    auto moveRecords = [&](RunJob& j) {
        RunJob::Batch b = j.take();
        const int id = j.id();
        if (b.hasColumns) store_->setColumns(id, b.columns);
        if (b.initialParams && !store_->run(id)->initialParams)
            store_->run(id)->initialParams = std::move(b.initialParams);
        if (!b.records.empty() && b.width > 0) {
            // A continued run carries on the numbering of the run it continues.
            if (const long offset = store_->run(id)->iterationOffset; offset != 0)
                for (std::size_t k = 0; k < b.records.size(); k += b.width)
                    b.records[k] += static_cast<double>(offset);
            store_->appendBlock(id, b.records, b.width);
            changed = true;
        }
        j.giveBack(std::move(b.records));
        if (!b.snapshots.empty()) {
            if (const long offset = store_->run(id)->iterationOffset; offset != 0)
                for (auto& snap : b.snapshots)
                    snap.iteration += offset;
            store_->appendSnapshots(id, std::move(b.snapshots));
        }
        latestIteration_ = store_->run(id)->lastIteration();
    };
    for (auto& j : jobs_) {
        const bool wasDone = j->done();  // read before taking: no record can follow `done`
        moveRecords(*j);
        const int id = j->id();
        if (!wasDone) continue;
        j->join();
        ade::RunResult& res = j->result();
        RunRecord* rec = store_->run(id);
        rec->iterationsPerSecond = res.iterationsPerSecond;
        rec->stop = QString::fromStdString(res.stop);
        rec->finalParams = std::move(res.finalParams);
        RunState st = RunState::Completed;
        QString msg = QString::fromStdString(res.message);
        if (!j->error().empty()) {
            // A Stop during set-up (Darcy stage 1) is a stop, not a failure.
            st = j->control().stopRequested() ? RunState::Stopped : RunState::Failed;
            msg = QString::fromStdString(j->error());
        } else if (res.status == ade::RunStatus::Diverged) {
            st = RunState::Diverged;
        } else if (res.status == ade::RunStatus::Cancelled) {
            st = RunState::Stopped;
        } else if (res.status == ade::RunStatus::Failed) {
            st = RunState::Failed;
        }
        store_->setState(id, st, msg);
        changed = true;
    }
    // Runs that paused themselves at the pause iteration: paused in the store; once every active
    // run is paused, the controller is (Space then resumes them all).
    bool selfPaused = false;
    for (auto& j : jobs_)
        if (j->takeSelfPaused() && !j->done()) {
            store_->setState(j->id(), RunState::Paused);
            selfPaused = true;
        }
    if (selfPaused && !paused_ &&
        std::all_of(jobs_.begin(), jobs_.end(),
                    [](const auto& j) { return j->done() || j->control().isPaused(); })) {
        // A run may have reached its pause point since its records were moved above; every
        // run records before it pauses, so moving them again now shows each run at the pause.
        for (auto& j : jobs_) {
            moveRecords(*j);
            if (j->takeSelfPaused() && !j->done()) store_->setState(j->id(), RunState::Paused);
        }
        paused_ = true;
        emit activeChanged();
    }
    // Finished jobs leave the list before anyone hears about it, so handlers see a clean state.
    std::vector<int> finished;
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        if ((*it)->done()) {
            const int id = (*it)->id();
            const RunState st = store_->run(id) ? store_->run(id)->state : RunState::Stopped;
            if (!isActive(st)) {
                finished.push_back(id);
                it = jobs_.erase(it);
                continue;
            }
        }
        ++it;
    }
    // Rate of each active run from its own records (iteration / wall time since its start):
    // steady even when records are sparse (log_every = 100) or a run is paused.
    itPerSec_ = 0.0;
    for (const auto& j : jobs_)
        if (const RunRecord* rec = store_->run(j->id()); rec && !paused_) {
            const double t = rec->last("time_s");
            if (t > 0) itPerSec_ += rec->lastIteration() / t;
        }
    emit drained(changed);
    for (int id : finished)
        emit runFinished(id);
    if (jobs_.empty()) {
        timer_.stop();
        paused_ = false;
        itPerSec_ = 0.0;
    }
    if (!finished.empty()) {
        emit activeChanged();
        if (jobs_.empty()) emit allFinished();
    }
}

}  // namespace ade::ui
