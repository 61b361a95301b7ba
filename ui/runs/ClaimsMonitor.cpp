#include "runs/ClaimsMonitor.h"

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
        histories_.erase(id);
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
    histories_.clear();
    results_.assign(claims_.size(), {});
    for (std::size_t i = 0; i < claims_.size(); ++i) {
        results_[i].status = ade::ClaimStatus::Pending;
        results_[i].detail = "the preset's runs have not started";
    }
    emit updated();
}

void ClaimsMonitor::setRuns(std::vector<std::pair<int, std::string>> runs) {
    runs_ = std::move(runs);
    histories_.clear();
    evaluate(true);
}

void ClaimsMonitor::replaceRun(int oldId, int newId) {
    for (auto& [id, label] : runs_)
        if (id == oldId) id = newId;
    histories_.erase(oldId);
    schedule();
}

const ade::MetricHistory* ClaimsMonitor::history(int id) {
    const RunRecord* r = store_->run(id);
    if (!r) return nullptr;
    ade::MetricHistory& h = histories_[id];
    if (h.columns != r->columns || h.rows.size() > r->size()) {
        h.columns = r->columns;
        h.rows.clear();
    }
    // Only the records that arrived since the last evaluation are copied.
    for (std::size_t i = h.rows.size(); i < r->size(); ++i) {
        std::vector<double> row(r->columns.size());
        for (std::size_t c = 0; c < row.size(); ++c)
            row[c] = r->data[c][i];
        h.rows.push_back(std::move(row));
    }
    return &h;
}

bool ClaimsMonitor::evaluate(bool force) {
    if (claims_.empty() || runs_.empty()) return false;
    if (!force && !dirty_) return false;
    QElapsedTimer t;
    t.start();
    const double cpu0 = FrameStats::threadCpuMs();
    dirty_ = false;
    bool running = false;
    std::vector<ade::ClaimRun> runs;
    for (const auto& [id, label] : runs_) {
        const RunRecord* r = store_->run(id);
        const ade::MetricHistory* h = history(id);
        if (!r || !h) continue;  // deleted: the claim says what is missing
        ade::ClaimRun run;
        run.label = label;
        run.seed = r->config.getInt("seed");
        run.history = h;
        run.finished = !isActive(r->state);
        run.capped = r->stop == QLatin1String("cap");
        run.config = &r->config;
        running = running || !run.finished;
        runs.push_back(std::move(run));
    }
    results_.clear();
    for (const ade::ClaimSpec& c : claims_) {
        ade::ClaimResult r = ade::evaluateClaim(c, runs);
        // A metric not recorded yet by runs that have just started is still to come.
        if (r.status == ade::ClaimStatus::Unavailable && running) {
            r.status = ade::ClaimStatus::Pending;
            r.detail = "waiting for the runs' records (" + r.detail + ")";
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
