#include "sessions/RecoveryWriter.h"

#include <chrono>

#include "io/Files.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"

namespace ade::ui {

RecoveryWriter::RecoveryWriter() = default;

RecoveryWriter::~RecoveryWriter() {
    stop();
}

void RecoveryWriter::stop() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void RecoveryWriter::setPath(const std::filesystem::path& path) {
    path_ = path;
    sent_.clear();  // the next save hands over everything, for the new file
}

void RecoveryWriter::save(const RunStore& store, const ade::Session& header,
                          const std::map<int, std::string>& claimLabels) {
    if (path_.empty()) return;
    Delta d;
    d.path = path_;
    d.header.preset = header.preset;
    d.header.plan = header.plan;
    d.header.chartSettings = header.chartSettings;
    std::map<int, Sent> sent;
    for (const auto& rec : store.runs()) {
        const RunRecord& r = *rec;
        RunDelta rd;
        rd.id = r.id;
        rd.run = sessionRunFromRecord(r, false);
        if (auto it = claimLabels.find(r.id); it != claimLabels.end())
            rd.run.claimLabel = it->second;
        Sent s;
        if (auto it = sent_.find(r.id); it != sent_.end()) s = it->second;
        if (s.columns != r.columns || s.rows > r.size() || s.snapshots > r.snapshots.size()) {
            rd.restart = true;  // a record the worker has is no longer the run's
            s = Sent{};
            s.columns = r.columns;
        }
        // The new records, row-major (the store keeps columns).
        for (std::size_t i = s.rows; i < r.size(); ++i) {
            std::vector<double> row(r.data.size());
            for (std::size_t c = 0; c < row.size(); ++c)
                row[c] = r.data[c][i];
            rd.rows.push_back(std::move(row));
        }
        s.rows = r.size();
        rd.snapshots.assign(r.snapshots.begin() + static_cast<std::ptrdiff_t>(s.snapshots),
                            r.snapshots.end());
        s.snapshots = r.snapshots.size();
        if (r.initialParams && !s.initial) rd.initialParams = r.initialParams;
        if (r.finalParams && !s.final) rd.finalParams = r.finalParams;
        s.initial = r.initialParams.has_value();
        s.final = r.finalParams.has_value();
        sent[r.id] = std::move(s);
        d.runs.push_back(std::move(rd));
    }
    sent_ = std::move(sent);
    if (!thread_.joinable()) {  // started at the first save (again after stop)
        quit_ = false;
        thread_ = std::thread([this] { work(); });
    }
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(d));
        error_.clear();
    }
    wake_.notify_all();
}

bool RecoveryWriter::flush(std::string* error) {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
    if (error) *error = error_;
    return error_.empty();
}

void RecoveryWriter::cancel() {
    std::unique_lock lock(mutex_);
    queue_.clear();
    idle_.wait(lock, [this] { return !busy_; });
}

double RecoveryWriter::lastWriteMs() const {
    std::lock_guard lock(mutex_);
    return lastWriteMs_;
}

std::size_t RecoveryWriter::lastBytes() const {
    std::lock_guard lock(mutex_);
    return lastBytes_;
}

int RecoveryWriter::writes() const {
    std::lock_guard lock(mutex_);
    return writes_;
}

void RecoveryWriter::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return quit_ || !queue_.empty(); });
        if (queue_.empty()) return;  // quit, nothing left to write
        std::vector<Delta> deltas;
        deltas.swap(queue_);
        busy_ = true;
        lock.unlock();
        const auto t0 = std::chrono::steady_clock::now();
        // Every delta in order (each only what was new), then one write of the latest state.
        for (Delta& d : deltas)
            apply(d);
        std::string error;
        write(&error);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        lock.lock();
        busy_ = false;
        lastWriteMs_ = ms;
        ++writes_;
        if (queue_.empty()) error_ = error;
        idle_.notify_all();
    }
}

void RecoveryWriter::apply(Delta& d) {
    if (d.path != target_) mirror_.clear();  // a new file (setPath): d holds everything
    target_ = d.path;
    header_ = std::move(d.header);
    order_.clear();
    std::map<int, Mirror> mirror;
    for (RunDelta& rd : d.runs) {
        order_.push_back(rd.id);
        Mirror m;
        if (auto it = mirror_.find(rd.id); it != mirror_.end() && !rd.restart)
            m = std::move(it->second);
        else
            m = Mirror{};
        // The run's state and names as they are now; its parameters once they exist.
        std::optional<ade::ParamSet> initial = std::move(m.run.initialParams);
        std::optional<ade::ParamSet> final = std::move(m.run.finalParams);
        m.run = std::move(rd.run);
        m.run.initialParams = rd.initialParams ? std::move(rd.initialParams) : std::move(initial);
        m.run.finalParams = rd.finalParams ? std::move(rd.finalParams) : std::move(final);
        for (const auto& row : rd.rows) {
            if (!m.rows.empty()) m.rows += ',';
            m.rows += ade::historyRowText(row);
        }
        for (const auto& snap : rd.snapshots)
            m.snapshots.push_back(ade::snapshotText(snap));
        mirror[rd.id] = std::move(m);
    }
    mirror_ = std::move(mirror);  // runs no longer in the store are gone
}

bool RecoveryWriter::write(std::string* error) {
    if (target_.empty()) return true;
    ade::Session s = header_;
    s.runs.clear();
    std::vector<ade::SessionRunTexts> texts;
    s.runs.reserve(order_.size());
    for (int id : order_) {
        const Mirror& m = mirror_.at(id);
        s.runs.push_back(m.run);
        texts.push_back({&m.rows, &m.snapshots});
    }
    const std::string text = ade::sessionToText(s, texts);
    {
        std::lock_guard lock(mutex_);
        lastBytes_ = text.size();
    }
    return ade::writeFileAtomic(target_, text, error);
}

}  // namespace ade::ui
