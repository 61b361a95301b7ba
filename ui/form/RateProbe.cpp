#include "form/RateProbe.h"

#include <atomic>
#include <thread>

#include "base/ThreadPriority.h"
#include "experiments/ExperimentRegistry.h"
#include "training/Trainer.h"
#include "util/RunControl.h"

namespace ade::ui {

namespace {
constexpr int kTrainMs = 1000;  // time spent training once set up
constexpr int kSetupMs = 20000;  // longest set-up waited for (Darcy's stage 1, uncached)
}  // namespace

struct RateProbe::Job {
    ade::Config config;
    ade::RunControl control;
    std::atomic<bool> training{false}, done{false};
    double rate = 0;
    std::string error;
    std::thread thread;
};

RateProbe::RateProbe(QObject* parent) : QObject(parent) {
    timer_.setInterval(50);
    connect(&timer_, &QTimer::timeout, this, &RateProbe::poll);
}

RateProbe::~RateProbe() {
    if (!job_) return;
    job_->control.requestStop();
    job_->thread.join();
}

bool RateProbe::start(const ade::Config& config) {
    if (job_) return false;
    job_ = std::make_unique<Job>();
    job_->config = config;
    // Records only at the start and the end: their evaluations would distort the rate.
    job_->config.setJson("log_every", std::max<std::int64_t>(1, config.getInt("iterations")));
    Job* j = job_.get();
    j->thread = std::thread([j] {
        niceThisThread(kSolverNice);  // as a run's thread, so that the rate is a run's
        std::unique_ptr<ade::Trainer> trainer;
        {
            ade::AmbientRunControl ambient(&j->control);
            trainer = ade::makeTrainer(j->config, &j->error, std::nullopt);
        }
        if (trainer) {
            j->training.store(true, std::memory_order_release);
            const ade::RunResult r = trainer->run(nullptr, &j->control);
            j->rate = r.iterationsPerSecond;
        }
        j->done.store(true, std::memory_order_release);
    });
    setup_.start();
    training_.invalidate();
    timer_.start();
    return true;
}

void RateProbe::poll() {
    if (!job_) return;
    if (job_->done.load(std::memory_order_acquire)) {
        timer_.stop();
        job_->thread.join();
        const std::unique_ptr<Job> j = std::move(job_);
        QString error = QString::fromStdString(j->error);
        if (j->rate <= 0 && error.isEmpty())
            error = tr("the set-up took longer than %1 s").arg(kSetupMs / 1000);
        emit finished(j->config, j->rate, error);
        return;
    }
    if (job_->training.load(std::memory_order_acquire) && !training_.isValid()) training_.start();
    if ((training_.isValid() && training_.elapsed() > kTrainMs) ||
        (!training_.isValid() && setup_.elapsed() > kSetupMs))
        job_->control.requestStop();
}

}  // namespace ade::ui
