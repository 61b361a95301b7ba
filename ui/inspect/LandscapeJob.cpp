#include "inspect/LandscapeJob.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/ThreadPriority.h"
#include "runs/RunStore.h"
#include "experiments/ExperimentRegistry.h"
#include "training/Trainer.h"

namespace ade::ui {

std::optional<LandscapeInput> landscapeInput(const RunRecord& run, long iteration, QString* why) {
    LandscapeInput in;
    in.runName = run.name;
    in.config = run.config;
    if (const ade::Snapshot* s = run.snapshotAt(iteration)) {
        in.centre = s->params;
        in.centreIteration = s->iteration;
        for (const auto& snap : run.snapshots) {
            in.pathIterations.push_back(snap.iteration);
            in.path.push_back(snap.params);
        }
        in.pathSource = QObject::tr("snapshots");
        return in;
    }
    // No snapshots (a run without them, or an old session): its first and last parameters.
    if (!run.finalParams && !run.initialParams) {
        if (why)
            *why = QObject::tr("%1 has no parameters yet (no snapshot; the final parameters come "
                               "when it ends)")
                       .arg(run.name);
        return std::nullopt;
    }
    const bool atStart = iteration == 0 || !run.finalParams;
    in.centre = atStart ? *run.initialParams : *run.finalParams;
    in.centreIteration = atStart ? run.iterationOffset : run.lastIteration();
    if (run.initialParams) {
        in.pathIterations.push_back(run.iterationOffset);
        in.path.push_back(*run.initialParams);
    }
    if (run.finalParams) {
        in.pathIterations.push_back(run.lastIteration());
        in.path.push_back(*run.finalParams);
    }
    in.pathSource = QObject::tr("initial and final parameters (the run has no snapshots)");
    return in;
}

LandscapeOutcome computeLandscapeFor(const LandscapeInput& in, const ade::LandscapeSpec& spec,
                                     const std::atomic<bool>* cancel,
                                     const std::function<void(int, int)>& progress) {
    const auto t0 = std::chrono::steady_clock::now();
    LandscapeOutcome out;
    out.runName = in.runName;
    out.pathSource = in.pathSource;
    out.centreIteration = in.centreIteration;
    ade::Config c = in.config;
    c.setText("threads", "1");  // the landscape must not take the running solvers' cores
    std::string err;
    std::unique_ptr<ade::Trainer> trainer;
    try {
        trainer = ade::makeTrainer(c, &err);
        if (!trainer) {
            out.error = QString::fromStdString(err);
            return out;
        }
        out.grid = ade::computeLandscape(*trainer, in.centre, spec, cancel, progress);
        if (out.grid.cancelled) return out;
        for (std::size_t i = 0; i < in.path.size(); ++i) {
            if (cancel && cancel->load()) {
                out.grid.cancelled = true;
                return out;
            }
            out.pathIterations.push_back(in.pathIterations[i]);
            out.path.push_back(ade::projectOntoLandscape(*trainer, out.grid, in.path[i]));
        }
    } catch (const std::exception& e) {
        out.error = QString::fromUtf8(e.what());
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

LandscapeJob::LandscapeJob(QObject* parent) : QObject(parent) {}

LandscapeJob::~LandscapeJob() {
    cancel();
    if (thread_) {
        thread_->wait();
        delete thread_;
    }
}

bool LandscapeJob::isRunning() const { return thread_ && thread_->isRunning(); }

void LandscapeJob::cancel() {
    if (cancel_) cancel_->store(true);
}

void LandscapeJob::start(LandscapeInput input, ade::LandscapeSpec spec) {
    cancel();
    if (thread_) {  // the previous one stops at its next grid point
        thread_->wait();
        delete thread_;
        thread_ = nullptr;
    }
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    auto flag = cancel_;
    // `this` outlives the thread (the destructor joins it); queued calls to a deleted object
    // are dropped by Qt.
    LandscapeJob* self = this;
    thread_ = QThread::create([self, flag, in = std::move(input), spec] {
        niceThisThread(19);  // base/ThreadPriority.h: a background view
        // Duty cycle: after each point, rest 4 times as long as it took, so the worker uses at
        // most a fifth of one core. Nice alone does not keep the solvers' rate when the
        // landscape runs on a core of its own that shares the chip with theirs.
        auto last = std::chrono::steady_clock::now();
        auto out = std::make_shared<LandscapeOutcome>(computeLandscapeFor(
            in, spec, flag.get(), [self, &last](int done, int total) {
                const auto busy = std::chrono::steady_clock::now() - last;
                std::this_thread::sleep_for(4 * busy);
                last = std::chrono::steady_clock::now();
                // At most ~100 progress signals per grid.
                if (done == total || done % std::max(1, total / 100) == 0)
                    QMetaObject::invokeMethod(
                        self, [self, done, total] { emit self->progress(done, total); },
                        Qt::QueuedConnection);
            }));
        QMetaObject::invokeMethod(
            self,
            [self, flag, out] {
                if (!flag->load()) emit self->finished(out);
            },
            Qt::QueuedConnection);
    });
    thread_->start(QThread::LowestPriority);
}

}  // namespace ade::ui
