#include "runs/ClaimsMonitor.h"

#include <algorithm>

#include "base/FrameStats.h"
#include "runs/RunStore.h"

namespace ade::ui {

ClaimsMonitor::ClaimsMonitor(RunStore* store, QObject* parent) : QObject(parent), store_(store) {
    timer_.setSingleShot(true);
    timer_.setInterval(kIntervalMs);
    connect(&timer_, &QTimer::timeout, this, [this] { evaluate(); });
    connect(store_, &RunStore::dataAppended, this, &ClaimsMonitor::schedule);
    connect(store_, &RunStore::runChanged, this, &ClaimsMonitor::schedule);  // a run ended
    connect(store_, &RunStore::runRemoved, this, [this](int id) {
        interrupted_.erase(id);
        schedule();
    });
}

void ClaimsMonitor::schedule() {
    dirty_ = true;
    if (!claims_.empty() && !runs_.empty() && !timer_.isActive()) timer_.start();
}

void ClaimsMonitor::setClaims(std::vector<ade::ClaimSpec> claims) {
    claims_ = std::move(claims);
    runs_.clear();
    interrupted_.clear();
    sweep_.clear();
    sweepClaimRuns_.clear();
    sweepState_ = SweepState::None;
    results_.assign(claims_.size(), {});
    for (std::size_t i = 0; i < claims_.size(); ++i) {
        results_[i].status = ade::ClaimStatus::Pending;
        results_[i].detail = "the preset's runs have not started";
    }
    emit updated();
}

void ClaimsMonitor::setRuns(std::vector<std::pair<int, std::string>> runs) {
    runs_ = std::move(runs);
    evaluate(true);
}

void ClaimsMonitor::sweepStarted() {
    sweep_.clear();
    sweepClaimRuns_.clear();
    sweepState_ = SweepState::Running;
    evaluate(true);
}

void ClaimsMonitor::setSweepRuns(std::vector<ade::RunOutcome> outcomes, bool cancelled) {
    if (sweepState_ != SweepState::Running) return;  // other claims were loaded meanwhile
    sweep_ = std::move(outcomes);
    sweepState_ = cancelled ? SweepState::Cancelled : SweepState::Done;
    // Their histories turned into columns once, not at every evaluation (they point into sweep_,
    // which does not change until the next sweep).
    sweepClaimRuns_ = ade::claimRuns(sweep_);
    evaluate(true);
}

void ClaimsMonitor::setInterrupted(std::vector<int> ids) {
    interrupted_ = std::set<int>(ids.begin(), ids.end());
    schedule();
}

void ClaimsMonitor::replaceRun(int oldId, int newId) {
    interrupted_.erase(oldId);
    for (auto& [id, label] : runs_)
        if (id == oldId) id = newId;
    schedule();
}

bool ClaimsMonitor::evaluate(bool force) {
    if (claims_.empty() || (runs_.empty() && sweepState_ == SweepState::None)) return false;
    if (!force && !dirty_) return false;
    QElapsedTimer t;
    t.start();
    const double cpu0 = FrameStats::threadCpuMs();
    dirty_ = false;
    bool running = false;
    // Runs the user stopped before their iterations: not finished for the claims (a verdict on
    // 105 of 1200 iterations would be a verdict on a run that did not happen), and named.
    std::vector<std::string> stopped;
    std::size_t crashed = 0;  // of them, stopped by a crash (recovered)
    std::vector<ade::ClaimRun> runs;
    for (const auto& [id, label] : runs_) {
        const RunRecord* r = store_->run(id);
        if (!r) continue;  // deleted: the claim says what is missing
        ade::ClaimRun run;
        run.label = label;
        run.seed = r->config.getInt("seed");
        run.history = r->view();  // the store's columns, read in place
        run.finished = !isActive(r->state);
        const long done = r->lastIteration() - r->iterationOffset;
        const long planned = r->config.getInt("iterations");
        if (r->state == RunState::Stopped && done < planned) {
            run.finished = false;
            const bool crash = interrupted_.count(id) > 0;
            crashed += crash ? 1 : 0;
            stopped.push_back(r->name.toStdString() + " at iteration " + std::to_string(done) +
                              " of " + std::to_string(planned) +
                              (crash ? ", interrupted by a crash" : ""));
        }
        run.capped = r->stop == QLatin1String("cap");
        run.config = &r->config;
        running = running || isActive(r->state);
        runs.push_back(std::move(run));
    }
    // The preset's sweep: its points count once it has ended; a cancelled one is not judged.
    if (sweepState_ == SweepState::Running) running = true;
    for (ade::ClaimRun run : sweepClaimRuns_) {
        run.finished = sweepState_ == SweepState::Done;
        runs.push_back(std::move(run));
    }
    if (sweepState_ == SweepState::Cancelled)
        stopped.push_back("the preset's sweep, cancelled after " + std::to_string(sweep_.size()) +
                          " run(s)");
    results_.clear();
    for (const ade::ClaimSpec& c : claims_) {
        ade::ClaimResult r = ade::evaluateClaim(c, runs);
        // A metric not recorded yet by runs that have just started is still to come.
        if (r.status == ade::ClaimStatus::Unavailable && running) {
            r.status = ade::ClaimStatus::Pending;
            r.detail = "waiting for the runs' records (" + r.detail + ")";
        }
        if (sweepState_ == SweepState::Running && r.status == ade::ClaimStatus::Pending)
            r.detail = "the preset's sweep is running (Sweep tab)";
        // Pending with nothing running: a run it needs was stopped by the user. Not judged;
        // the number the data show so far stays beside the reason.
        if (r.status == ade::ClaimStatus::Pending && !running && !stopped.empty()) {
            r.status = ade::ClaimStatus::Unavailable;
            const std::string why = crashed == 0                ? "stopped by the user"
                                    : crashed == stopped.size() ? "stopped by a crash, recovered"
                                                                : "stopped before their end";
            r.detail =
                "not judged: " + why + " (" + stopped.front() +
                (stopped.size() > 1 ? " and " + std::to_string(stopped.size() - 1) + " more run(s)"
                                    : std::string()) +
                (sweepState_ == SweepState::Cancelled
                     ? "); Run sweep runs it to the end"
                     : "); Continue or Reset runs them to the end");
        }
        results_.push_back(std::move(r));
    }
    ++evaluations_;
    lastMs_ = t.nsecsElapsed() / 1e6;
    lastCpuMs_ = FrameStats::threadCpuMs() - cpu0;
    maxMs_ = std::max(maxMs_, lastMs_);
    emit updated();
    return true;
}

}  // namespace ade::ui
