#include "runs/RunStore.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace ade::ui {

QString runCountText(int n) {
    return n == 1 ? QObject::tr("1 run") : QObject::tr("%1 runs").arg(n);
}

QString stateText(RunState s) {
    switch (s) {
        case RunState::Starting:
            return QStringLiteral("starting");
        case RunState::Running:
            return QStringLiteral("running");
        case RunState::Paused:
            return QStringLiteral("paused");
        case RunState::Completed:
            return QStringLiteral("completed");
        case RunState::Diverged:
            return QStringLiteral("diverged");
        case RunState::Stopped:
            return QStringLiteral("stopped");
        case RunState::Failed:
            return QStringLiteral("failed");
    }
    return {};
}

bool isActive(RunState s) {
    return s == RunState::Starting || s == RunState::Running || s == RunState::Paused;
}

std::size_t RunRecord::snapshotBytes() const {
    std::size_t n = 0;
    for (const auto& s : snapshots)
        n += ade::paramBytes(s.params);
    return n;
}

const ade::Snapshot* RunRecord::snapshotAt(long iteration) const {
    if (snapshots.empty()) return nullptr;
    if (iteration < 0) return &snapshots.back();
    auto it = std::upper_bound(snapshots.begin(), snapshots.end(), iteration,
                               [](long i, const ade::Snapshot& s) { return i < s.iteration; });
    return it == snapshots.begin() ? nullptr : &*std::prev(it);
}

int RunRecord::column(const std::string& name) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i] == name) return static_cast<int>(i);
    return -1;
}

double RunRecord::last(const std::string& name) const {
    const int c = column(name);
    if (c < 0 || data[c].empty()) return std::nan("");
    return data[c].back();
}

long RunRecord::lastIteration() const {
    return data.empty() || data[0].empty() ? 0 : static_cast<long>(data[0].back());
}

ade::HistoryView RunRecord::view() const {
    std::vector<const double*> columns;
    columns.reserve(data.size());
    for (const auto& c : data) columns.push_back(c.data());
    return ade::HistoryView(this->columns, std::move(columns), size());
}

ade::MetricHistory RunRecord::history() const {
    ade::MetricHistory h;
    h.columns = columns;
    h.rows.resize(size());
    for (std::size_t r = 0; r < h.rows.size(); ++r) {
        h.rows[r].reserve(columns.size());
        for (const auto& col : data)
            h.rows[r].push_back(col[r]);
    }
    return h;
}

RunStore::RunStore(QObject* parent) : QObject(parent) {}
RunStore::~RunStore() = default;

int RunStore::freeColor() const {
    for (int c = 0;; ++c)
        if (std::none_of(runs_.begin(), runs_.end(),
                         [c](const auto& r) { return r->colorIndex == c; }))
            return c;
}

namespace {
std::string groupKeyOf(const QString& group, int id, const ade::Config& config) {
    if (group.isEmpty()) return "#" + std::to_string(id);
    nlohmann::json j = config.toJson();
    j.erase("seed");
    return group.toStdString() + '\x1f' + j.dump();
}
}  // namespace

int RunStore::addRun(const QString& name, const ade::Config& config, const QString& group,
                     int seedIndex) {
    auto rec = std::make_unique<RunRecord>();
    rec->id = nextId_++;
    rec->name = uniqueName(name, config.experiment());
    rec->config = config;
    rec->group = group;
    rec->seedIndex = seedIndex;
    rec->groupKey = groupKeyOf(group, rec->id, config);
    rec->colorIndex = -1;
    for (const auto& o : runs_)  // the seeds of one group share its colour
        if (o->groupKey == rec->groupKey) rec->colorIndex = o->colorIndex;
    if (rec->colorIndex < 0) rec->colorIndex = freeColor();
    const int id = rec->id;
    runs_.push_back(std::move(rec));
    ++revision_;
    emit runAdded(id);
    return id;
}

int RunStore::replaceRun(int id, const ade::Config& config) {
    const int at = indexOf(id);
    if (at < 0) return 0;
    auto rec = std::make_unique<RunRecord>();
    rec->id = nextId_++;
    rec->name = runs_[at]->name;
    rec->colorIndex = runs_[at]->colorIndex;
    rec->visible = runs_[at]->visible;
    rec->group = runs_[at]->group;
    rec->seedIndex = runs_[at]->seedIndex;
    rec->config = config;
    rec->groupKey = groupKeyOf(rec->group, rec->id, config);
    const int newId = rec->id;
    runs_[at] = std::move(rec);
    ++revision_;
    emit runRemoved(id);
    emit runAdded(newId);
    return newId;
}

void RunStore::removeRun(int id) {
    auto it = std::find_if(runs_.begin(), runs_.end(), [&](const auto& r) { return r->id == id; });
    if (it == runs_.end()) return;
    runs_.erase(it);
    ++revision_;
    emit runRemoved(id);
}

int RunStore::indexOf(int id) const {
    for (std::size_t i = 0; i < runs_.size(); ++i)
        if (runs_[i]->id == id) return static_cast<int>(i);
    return -1;
}

bool RunStore::setColorIndex(int id, int colorIndex) {
    RunRecord* r = run(id);
    if (!r || colorIndex < 0) return false;
    for (const auto& o : runs_)
        if (o.get() != r && o->colorIndex == colorIndex && o->groupKey != r->groupKey)
            return false;
    r->colorIndex = colorIndex;
    ++revision_;
    emit runChanged(id);
    return true;
}

RunRecord* RunStore::run(int id) {
    for (auto& r : runs_)
        if (r->id == id) return r.get();
    return nullptr;
}

const RunRecord* RunStore::run(int id) const {
    for (const auto& r : runs_)
        if (r->id == id) return r.get();
    return nullptr;
}

std::vector<const RunRecord*> RunStore::visibleRuns() const {
    std::vector<const RunRecord*> out;
    for (const auto& r : runs_)
        if (r->visible) out.push_back(r.get());
    return out;
}

std::size_t plannedRecords(const ade::Config& config) {
    const std::int64_t iterations = std::max<std::int64_t>(0, config.getInt("iterations"));
    const std::int64_t every = config.getInt("log_every");
    const std::int64_t records =
        every > 0 ? iterations / every + 2 : std::min<std::int64_t>(iterations + 2, 2002);
    return static_cast<std::size_t>(std::min<std::int64_t>(records, std::int64_t(1) << 22));
}

void RunStore::setColumns(int id, const std::vector<std::string>& columns) {
    RunRecord* r = run(id);
    if (!r) return;
    r->columns = columns;
    r->data.assign(columns.size(), {});
    ++revision_;
}

void RunStore::appendRows(int id, const std::vector<std::vector<double>>& rows) {
    RunRecord* r = run(id);
    if (!r || rows.empty()) return;
    const std::size_t planned = plannedRecords(r->config);
    for (std::size_t c = 0; c < r->data.size(); ++c) {
        auto& col = r->data[c];
        // Geometric growth (an exact reserve per batch would copy the whole column each time),
        // the run's plan once it is long.
        reserveRecords(col, col.size() + rows.size(), planned);
        for (const auto& row : rows)
            col.push_back(c < row.size() ? row[c] : std::nan(""));
    }
    ++revision_;
    emit dataAppended(id);
}

void RunStore::appendBlock(int id, std::span<const double> values, std::size_t width) {
    RunRecord* r = run(id);
    if (!r || width == 0 || values.size() < width) return;
    const std::size_t count = values.size() / width;
    const std::size_t planned = plannedRecords(r->config);
    for (std::size_t c = 0; c < r->data.size(); ++c) {
        auto& col = r->data[c];
        reserveRecords(col, col.size() + count, planned);  // as appendRows
        if (c >= width) {
            col.insert(col.end(), count, std::nan(""));
            continue;
        }
        for (std::size_t k = 0; k < count; ++k)
            col.push_back(values[k * width + c]);
    }
    ++revision_;
    emit dataAppended(id);
}

void RunStore::appendSnapshots(int id, std::vector<ade::Snapshot> snapshots) {
    RunRecord* r = run(id);
    if (!r || snapshots.empty()) return;
    for (auto& s : snapshots) {
        // Oldest first: a snapshot of an iteration already kept replaces nothing.
        if (!r->snapshots.empty() && s.iteration <= r->snapshots.back().iteration) continue;
        r->snapshots.push_back(std::move(s));
    }
    emit snapshotsAppended(id);
}

void RunStore::setState(int id, RunState state, const QString& message) {
    RunRecord* r = run(id);
    if (!r) return;
    r->state = state;
    if (!message.isEmpty()) r->message = message;
    emit runChanged(id);
}

void RunStore::rename(int id, const QString& name) {
    RunRecord* r = run(id);
    if (!r || name.trimmed().isEmpty() || r->name == name) return;
    r->name = name.trimmed();
    ++revision_;
    emit runChanged(id);
}

void RunStore::setVisible(int id, bool visible) {
    RunRecord* r = run(id);
    if (!r || r->visible == visible) return;
    r->visible = visible;
    ++revision_;
    emit runChanged(id);
}

void RunStore::notifyChanged(int id) {
    ++revision_;
    emit runChanged(id);
}

QString RunStore::uniqueName(const QString& base, const std::string& experiment) const {
    auto taken = [&](const QString& n) {
        return std::any_of(runs_.begin(), runs_.end(), [&](const auto& r) { return r->name == n; });
    };
    if (!taken(base)) return base;
    QString stem = base;
    const bool otherExperiment =
        !experiment.empty() && std::any_of(runs_.begin(), runs_.end(), [&](const auto& r) {
            return r->name == base && r->config.experiment() != experiment;
        });
    if (otherExperiment) {
        stem = QStringLiteral("%1 (%2)").arg(base, QString::fromStdString(experiment).toUpper());
        if (!taken(stem)) return stem;
    }
    for (int i = 2;; ++i) {
        const QString n = QStringLiteral("%1 (%2)").arg(stem).arg(i);
        if (!taken(n)) return n;
    }
}

QString RunStore::uniqueGroup(const QString& base, const std::string& experiment) const {
    auto taken = [&](const QString& n) {
        return std::any_of(runs_.begin(), runs_.end(),
                           [&](const auto& r) { return r->name == n || r->group == n; });
    };
    QString stem = base;
    if (!taken(stem)) return stem;
    if (!experiment.empty() && std::any_of(runs_.begin(), runs_.end(), [&](const auto& r) {
            return (r->name == base || r->group == base) && r->config.experiment() != experiment;
        })) {
        stem = QStringLiteral("%1 (%2)").arg(base, QString::fromStdString(experiment).toUpper());
        if (!taken(stem)) return stem;
    }
    for (int i = 2;; ++i) {
        const QString n = QStringLiteral("%1 (%2)").arg(stem).arg(i);
        if (!taken(n)) return n;
    }
}

std::size_t RunStore::totalSnapshotBytes() const {
    std::size_t n = 0;
    for (const auto& r : runs_)
        n += r->snapshotBytes();
    return n;
}

std::size_t RunStore::totalPoints() const {
    std::size_t n = 0;
    for (const auto& r : runs_)
        n += r->size();
    return n;
}

}  // namespace ade::ui
