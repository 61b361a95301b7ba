#include "inspect/InsideData.h"

#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

#include "runs/RunStore.h"
#include "base/Palette.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

const ade::ParamSet* paramsAt(const RunRecord& r, long iteration, long* shown, QString* source) {
    if (const ade::Snapshot* s = r.snapshotAt(iteration)) {
        if (shown) *shown = s->iteration;
        if (source) *source = QObject::tr("snapshot");
        return &s->params;
    }
    if (r.finalParams) {
        if (shown) *shown = r.lastIteration();
        if (source)
            *source = iteration >= 0 && iteration < r.lastIteration()
                          ? QObject::tr("final parameters: no snapshot at iteration %1")
                                .arg(iteration)
                          : QObject::tr("final parameters (no snapshot)");
        return &*r.finalParams;
    }
    if (r.initialParams) {
        if (shown) *shown = r.iterationOffset;
        if (source) *source = QObject::tr("initial parameters (no snapshot yet)");
        return &*r.initialParams;
    }
    return nullptr;
}

const RunRecord* focusRecord(const RunStore& store, int focusRun) {
    if (const RunRecord* r = store.run(focusRun); r && r->visible) return r;
    const auto visible = store.visibleRuns();
    return visible.empty() ? nullptr : visible.front();
}

ProblemCache::ProblemCache(QObject* parent) : QObject(parent) {}

ProblemCache::~ProblemCache() { waitForBuilds(); }

std::string ProblemCache::keyOf(const ade::Config& c) { return c.toJson().dump(); }

ade::Problem* ProblemCache::problem(const ade::Config& config, QString* error) {
    const std::string key = keyOf(config);
    auto it = entries_.find(key);
    if (it == entries_.end()) {
        Entry e;
        e.watcher = new QFutureWatcher<std::shared_ptr<ade::Problem>>(this);
        connect(e.watcher, &QFutureWatcherBase::finished, this, [this, key] {
            auto f = entries_.find(key);
            if (f == entries_.end()) return;
            f->second.problem = f->second.watcher->result();
            if (!f->second.problem && f->second.error.isEmpty())
                f->second.error = tr("the experiment could not be built from this run's settings");
            f->second.watcher->deleteLater();
            f->second.watcher = nullptr;
            emit ready();
        });
        e.watcher->setFuture(QtConcurrent::run([config]() {
            std::string err;
            return std::shared_ptr<ade::Problem>(ade::makeProblem(config, &err));
        }));
        e.used = ++clock_;
        it = entries_.emplace(key, std::move(e)).first;
        evict();
        return nullptr;
    }
    it->second.used = ++clock_;
    if (error) *error = it->second.error;
    return it->second.problem.get();
}

ade::Problem* ProblemCache::problemNow(const ade::Config& config, QString* error) {
    const std::string key = keyOf(config);
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.watcher) it->second.watcher->waitForFinished();
    if (it == entries_.end()) {
        Entry e;
        std::string err;
        e.problem = ade::makeProblem(config, &err);
        e.error = QString::fromStdString(err);
        it = entries_.emplace(key, std::move(e)).first;
    } else if (it->second.watcher) {
        it->second.problem = it->second.watcher->result();
    }
    it->second.used = ++clock_;
    if (error) *error = it->second.error;
    return it->second.problem.get();
}

bool ProblemCache::building() const {
    for (const auto& [k, e] : entries_)
        if (e.watcher) return true;
    return false;
}

void ProblemCache::waitForBuilds() {
    for (auto& [k, e] : entries_)
        if (e.watcher) e.watcher->waitForFinished();
}

void ProblemCache::evict() {
    // At most four problems (each holds its training data); never one still building.
    while (entries_.size() > 4) {
        auto oldest = entries_.end();
        for (auto it = entries_.begin(); it != entries_.end(); ++it)
            if (!it->second.watcher && (oldest == entries_.end() || it->second.used < oldest->second.used))
                oldest = it;
        if (oldest == entries_.end()) return;
        entries_.erase(oldest);
    }
}

QString sceneHeading(const RunRecord& r, long shown, const QString& source) {
    return QObject::tr("%1 — iteration %2 (%3)").arg(r.name).arg(shown).arg(source);
}

namespace {

// What matrixScene and attentionScene share: the run's parameters at the iteration and the
// heading, or the note that says why there is nothing to show (no run, no parameters yet, the
// problem still being built). Null when the note says it.
const ade::ParamSet* sceneParams(const RunRecord* r, ade::Problem* problem, long iteration,
                                 const QString& pending, const QString& noRun, QString* heading,
                                 QString* note) {
    if (!r) {
        *note = noRun;
        return nullptr;
    }
    long shown = 0;
    QString source;
    const ade::ParamSet* p = paramsAt(*r, iteration, &shown, &source);
    if (!p) {
        *note = QObject::tr("%1 has recorded no parameters yet: they are shown from its first "
                            "snapshot on, or when it ends.")
                    .arg(r->name);
        return nullptr;
    }
    *heading = sceneHeading(*r, shown, source);
    if (!problem) {
        *note = pending;
        return nullptr;
    }
    return p;
}

}  // namespace

MatrixScene matrixScene(const RunRecord* r, ade::Problem* problem, long iteration,
                        const QString& pending) {
    MatrixScene s;
    const ade::ParamSet* p = sceneParams(
        r, problem, iteration, pending,
        QObject::tr("No visible run. Start a run or open a session to see its matrices."),
        &s.heading, &s.note);
    if (!p) return s;
    s.views = problem->matrixViews(*p);
    if (s.views.empty()) s.note = QObject::tr("This experiment has no matrix views.");
    return s;
}

AttentionScene attentionScene(const RunRecord* r, ade::Problem* problem, long iteration,
                              const QString& pending) {
    AttentionScene s;
    const ade::ParamSet* p = sceneParams(
        r, problem, iteration, pending,
        QObject::tr("No visible run. Start a run or open a session to see its attention."),
        &s.heading, &s.note);
    if (!p) return s;
    s.view = problem->attentionView(*p, kMaxAttentionTokens);
    if (!s.view)
        s.note = QObject::tr("This model has no attention: Experiment C's LoRA network is a "
                             "two-layer perceptron (its factor pair is U, V).");
    return s;
}

FactorPlaneScene factorPlaneScene(const RunStore& store, const RunRecord* focus,
                                  ade::Problem* problem, long iteration, const QString& pending) {
    FactorPlaneScene s;
    if (!focus) {
        s.note = QObject::tr("No visible run. Start a run or open a session to see the factor plane.");
        return s;
    }
    if (!problem) {
        s.note = pending;
        return s;
    }
    const auto plane = problem->factorPlane();
    if (!plane) {
        s.note = QObject::tr("This model has no factor pair.");
        return s;
    }
    s.xLabel = QString::fromStdString(plane->xLabel);
    s.yLabel = QString::fromStdString(plane->yLabel);
    s.heading = iteration < 0 ? QObject::tr("Factor plane — latest records")
                              : QObject::tr("Factor plane — iteration %1").arg(iteration);
    for (const RunRecord* r : store.visibleRuns()) {
        const int cx = r->column(plane->xColumn), cy = r->column(plane->yColumn);
        const int ci = r->column("iteration");
        if (cx < 0 || cy < 0 || ci < 0 || r->size() == 0) continue;
        PlaneTrajectory t;
        t.name = r->name;
        t.color = paletteColor(r->colorIndex);
        t.x = r->data[cx];
        t.y = r->data[cy];
        for (double it : r->data[ci]) t.iterations.push_back(static_cast<long>(it));
        // The last record at or before the iteration (the latest when live).
        for (std::size_t k = 0; k < t.iterations.size(); ++k)
            if (iteration < 0 || t.iterations[k] <= iteration) t.marker = static_cast<int>(k);
        s.runs.push_back(std::move(t));
    }
    if (s.runs.empty()) s.note = QObject::tr("No visible run records %1 and %2.").arg(s.xLabel, s.yLabel);
    return s;
}

}  // namespace ade::ui
