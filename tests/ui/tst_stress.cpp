// Stress: 500 rapid Start / Pause / Step / Stop / Reset cycles through the window's own actions,
// a dozen concurrent runs of every experiment paused, stepped and stopped midway, and the window
// destroyed or closed while runs stream. Every wait is bounded (waitFor / QSignalSpy::wait with a
// timeout). Histories are checked row by row; worker threads, runs and resident memory must come
// back to their baselines (LeakSanitizer checks the rest at exit in the ASan build).
#include <QAction>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <map>

#include "Configs.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "sessions/SessionManager.h"
#include "TestWindow.h"
#include "output/Session.h"

using namespace ade::ui;

namespace {

// GCC defines __SANITIZE_*__; clang 14 (the ASan tree's compiler) answers __has_feature.
#if defined(__has_feature)
#define ADE_HAS_FEATURE(x) __has_feature(x)
#else
#define ADE_HAS_FEATURE(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || \
    ADE_HAS_FEATURE(address_sanitizer) || ADE_HAS_FEATURE(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

constexpr int kCycles = 500;    // the same count in every build: each cycle is cheap instead
constexpr int kWaitMs = 30000;  // bound of any single wait; a healthy one takes milliseconds
constexpr long kForever = 100000000;

using adetest::configFrom;
using adetest::tinyA;

ade::Config tinyB(long iterations, const char* optimizer, const char* logEvery) {
    return configFrom({{"experiment", "b"},
                   {"iterations", std::to_string(iterations)},
                   {"data.d", "4"},
                   {"data.n", "16"},
                   {"data.test_n", "8"},
                   {"b.tokens", "4"},
                   {"b.dk", "2"},
                   {"b.dv", "2"},
                   {"villani.probes", "0"},
                   {"init", "random"},
                   {"optimizer", optimizer},
                   {"batch", "4"},
                   {"lr", "0.05"},
                   {"log_every", logEvery}});
}

ade::Config tinyC(long iterations, const char* optimizer, const char* logEvery) {
    return configFrom({{"experiment", "c"},
                   {"iterations", std::to_string(iterations)},
                   {"data.d", "4"},
                   {"data.n", "16"},
                   {"data.test_n", "8"},
                   {"lora.hidden", "4"},
                   {"lora.out", "2"},
                   {"lora.rank", "1"},
                   {"villani.probes", "0"},
                   {"init", "random"},
                   {"optimizer", optimizer},
                   {"lr", "0.05"},
                   {"log_every", logEvery}});
}

ade::Config tinyDarcy(long iterations) {
    return configFrom({{"experiment", "darcy"},
                   {"iterations", std::to_string(iterations)},
                   {"darcy.resolution", "16"},
                   {"darcy.train", "4"},
                   {"darcy.test", "2"},
                   {"darcy.patch", "4"},
                   {"darcy.width", "4"},
                   {"stage1.epochs", "1"},
                   {"stage1.batch", "2"},
                   {"optimizer", "sde"},
                   {"temperature", "3e-5"},
                   {"lr", "0.1"},
                   {"log_every", "1"}});
}

std::unique_ptr<MainWindow> makeWindow() {
    auto w = adetest::makeWindow();
    // Drain every 2 ms instead of 33: the same timer-driven path, so that waiting for a record
    // costs milliseconds and 500 cycles stay fast.
    w->controller()->setDrainInterval(2);
    return w;
}

// Bounded wait that keeps the event loop (drain timer, repaints) running.
template <class Pred>
bool waitFor(Pred pred, int ms = kWaitMs) {
    QDeadlineTimer deadline(ms);
    while (!pred()) {
        if (deadline.hasExpired()) return pred();
        QTest::qWait(1);
    }
    return true;
}

// Waits until every run has at least five records and returns each run's record count then
// (empty if that did not happen in time).
std::map<QString, std::size_t> countsOnceStreaming(const RunStore& store,
                                                   const std::vector<int>& ids) {
    const bool streaming = waitFor([&] {
        for (int id : ids)
            if (store.run(id)->size() < 5) return false;
        return true;
    });
    std::map<QString, std::size_t> seen;
    if (streaming)
        for (int id : ids)
            seen[store.run(id)->name] = store.run(id)->size();
    return seen;
}

QByteArray firstLine(const QString& file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readLine().trimmed();
}

// Threads started by std::thread from the main thread (run workers and their pools) inherit its
// name; Qt's own threads (pooled, QThread) carry theirs, so they do not disturb the count.
int workerThreads() {
    const QByteArray self = firstLine(QStringLiteral("/proc/self/comm"));
    int n = 0;
    for (const QString& t :
         QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (firstLine(QStringLiteral("/proc/self/task/%1/comm").arg(t)) == self) ++n;
    return n;
}

long residentKb() {
    std::ifstream f("/proc/self/statm");
    long size = 0, resident = 0;
    f >> size >> resident;
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// Empty when the history is whole: one value per column and row, iterations strictly increasing
// from 0 (every one of them when `contiguous`, i.e. log_every = 1), a clock that never goes back,
// finite losses.
QString historyError(const RunRecord& r, bool contiguous) {
    if (r.columns.size() < 3 || r.data.size() != r.columns.size())
        return QStringLiteral("%1: no columns").arg(r.name);
    for (const auto& col : r.data)
        if (col.size() != r.size()) return QStringLiteral("%1: ragged columns").arg(r.name);
    if (r.size() == 0) return QStringLiteral("%1: no records").arg(r.name);
    const auto& it = r.data[0];
    const auto& t = r.data[1];
    const int loss = r.column("train_loss") >= 0 ? r.column("train_loss") : r.column("test_loss");
    if (it[0] != 0)
        return QStringLiteral("%1: first record at iteration %2").arg(r.name).arg(it[0]);
    for (std::size_t i = 0; i < r.size(); ++i) {
        if (i > 0 && (contiguous ? it[i] != it[i - 1] + 1 : !(it[i] > it[i - 1])))
            return QStringLiteral("%1: record %2 is iteration %3 after %4")
                .arg(r.name)
                .arg(i)
                .arg(it[i])
                .arg(it[i - 1]);
        if (i > 0 && t[i] < t[i - 1]) return QStringLiteral("%1: time goes back").arg(r.name);
        if (loss >= 0 && !std::isfinite(r.data[loss][i]))
            return QStringLiteral("%1: loss not finite at record %2").arg(r.name).arg(i);
    }
    return {};
}

// `before` (a copy taken earlier) must be a prefix of the record's history now.
bool keepsPrefix(const RunRecord& r, const std::vector<std::vector<double>>& before) {
    if (before.empty()) return true;
    if (before.size() != r.data.size()) return false;
    for (std::size_t c = 0; c < before.size(); ++c) {
        if (before[c].size() > r.data[c].size()) return false;
        for (std::size_t i = 0; i < before[c].size(); ++i)
            if (!(before[c][i] == r.data[c][i]) &&
                !(std::isnan(before[c][i]) && std::isnan(r.data[c][i])))
                return false;
    }
    return true;
}

// Waits for `n` more timer-driven drains (the GUI has taken whatever the workers buffered).
bool drains(RunController* c, int n) {
    QSignalSpy spy(c, &RunController::drained);
    return waitFor([&] { return spy.count() >= n; }, kWaitMs);
}

}  // namespace

class TestStress : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        // Darcy's data and stage-1 caches go to a scratch folder, not the user's cache.
        qputenv("ADE_CACHE_DIR", tmp.filePath(QStringLiteral("cache")).toUtf8());
    }

    void rapidStartPauseStepStopResetCycles() {
        auto w = makeWindow();
        w->form()->setConfig(tinyA(kForever));
        RunController* c = w->controller();
        RunStore* store = w->store();
        QAction* start = w->action(QStringLiteral("start"));
        QAction* pause = w->action(QStringLiteral("pause"));
        QAction* step = w->action(QStringLiteral("step"));
        QAction* stop = w->action(QStringLiteral("stop"));
        QAction* reset = w->action(QStringLiteral("reset"));
        QVERIFY(start && pause && step && stop && reset);
        // Each run is unticked in the run list as it appears (hidden from the charts): creating
        // and deleting a Qt Charts series set twice per cycle would cost more than the cycle
        // itself. Live charts under load are the next test's business.
        connect(store, &RunStore::runAdded, this,
                [store](int id) { store->setVisible(id, false); });
        const int threads0 = workerThreads();
        QVERIFY(store->runs().empty());
        long rssWarm = 0, rssMid = 0;
        QElapsedTimer clock;
        clock.start();

        for (int i = 0; i < kCycles; ++i) {
            const QByteArray where = QByteArray("cycle ") + QByteArray::number(i);
            auto check = [&](bool ok, const char* what) {
                if (!ok)
                    QTest::qFail(QByteArray(where + ": " + what).constData(), __FILE__, __LINE__);
                return ok;
            };
            // 1. A new run. Odd cycles: Step from idle starts it paused and makes exactly one
            //    step (records 0 and 1). Even cycles: Start, then Pause once it has records.
            const bool viaStep = i % 2 == 1;
            (viaStep ? step : start)->trigger();
            if (!check(store->runs().size() == 1 && c->anyActive(), "no run started")) return;
            RunRecord* r = store->runs().back().get();
            const int id = r->id;
            if (viaStep) {
                if (!check(c->paused() && r->state == RunState::Paused, "not paused")) return;
                if (!check(waitFor([&] { return r->size() >= 2; }), "first step not recorded"))
                    return;
                if (!check(r->size() == 2 && r->lastIteration() == 1, "first step != 1 record"))
                    return;
                // 2. Step again: exactly one more record, then nothing while paused.
                step->trigger();
                if (!check(waitFor([&] { return r->size() >= 3; }), "second step not recorded"))
                    return;
                if (!check(drains(c, 3), "no drain")) return;
                if (!check(r->size() == 3 && r->lastIteration() == 2, "second step != 1 record"))
                    return;
                // 3. Resume (the same action: Space) and let it run a little.
                pause->trigger();
                if (!check(!c->paused() && r->state == RunState::Running, "not resumed")) return;
                if (!check(waitFor([&] { return r->size() >= 6; }), "no records after resume"))
                    return;
            } else {
                if (!check(!c->paused() && r->state == RunState::Running, "not running")) return;
                if (!check(waitFor([&] { return r->size() >= 3; }), "no records")) return;
                pause->trigger();
                if (!check(c->paused() && r->state == RunState::Paused, "not paused")) return;
                // 2. Step after a pause from running: at least the stepped record arrives.
                const std::size_t held = r->size();
                step->trigger();
                if (!check(waitFor([&] { return r->size() > held; }), "step not recorded")) return;
            }
            // 4. Stop (even cycles: while paused; odd cycles: while running). Every record seen
            //    so far is kept, the run ends where it was, nothing is skipped or repeated.
            const auto seen = r->data;
            const long seenLast = r->lastIteration();
            stop->trigger();
            if (!check(waitFor([&] { return !c->anyActive(); }), "stop did not end the run"))
                return;
            if (!check(r->state == RunState::Stopped, "not stopped")) return;
            if (!check(keepsPrefix(*r, seen), "stop lost records")) return;
            if (!check(r->lastIteration() >= seenLast, "stop went back")) return;
            if (const QString e = historyError(*r, true); !e.isEmpty())
                return (void)check(false, qPrintable(e));
            const QString name = r->name;
            std::vector<double> firstRow;
            for (const auto& col : r->data)
                firstRow.push_back(col[0]);
            // 5. Reset: the run is replaced (its records go) by the same run from iteration 0,
            //    from the same data and initial weights, with its name and colour.
            const int colour = r->colorIndex;
            reset->trigger();
            if (!check(store->runs().size() == 1 && !store->run(id), "reset did not replace"))
                return;
            RunRecord* again = store->runs().back().get();
            const int id2 = again->id;
            if (!check(again->name == name && again->size() == 0, "reset run not fresh")) return;
            if (!check(again->colorIndex == colour, "reset changed the colour")) return;
            if (!check(waitFor([&] { return again->size() >= 2; }), "no records after reset"))
                return;
            if (!check(again->data[0][0] == 0, "reset did not start at 0")) return;
            for (std::size_t col = 2; col < firstRow.size(); ++col)
                if (!check(again->data[col][0] == firstRow[col] ||
                               (std::isnan(firstRow[col]) && std::isnan(again->data[col][0])),
                           "reset changed the initial state"))
                    return;
            // 6. Stop again, then delete the run (the run list's Delete): nothing remains.
            stop->trigger();
            if (!check(waitFor([&] { return !c->anyActive(); }), "second stop")) return;
            if (const QString e = historyError(*again, true); !e.isEmpty())
                return (void)check(false, qPrintable(e));
            w->commands()->deleteRun(id2);
            if (!check(store->runs().empty() && c->activeIds().empty(), "runs left over")) return;
            if (!check(waitFor([&] { return workerThreads() == threads0; }, 10000),
                       "worker threads left over"))
                return;
            if (i == 49) rssWarm = residentKb();
            if (i == 274) rssMid = residentKb();
        }
        const double seconds = clock.elapsed() / 1000.0;
        const long rssEnd = residentKb();
        qInfo(
            "ui_stress: %d Start/Pause/Step/Stop/Reset cycles in %.1f s (%.1f ms per cycle); "
            "resident memory %ld kB after 50 cycles, %ld kB after 275, %ld kB after %d",
            kCycles, seconds, 1000.0 * seconds / kCycles, rssWarm, rssMid, rssEnd, kCycles);
        // A leak of one history or one run's problem per cycle would be hundreds of kB per
        // cycle; allocator and sanitizer caches (ASan's quarantine: 256 MB) are bounded.
        const long margin = kSanitized ? 320 * 1024 : 32 * 1024;
        QVERIFY2(rssEnd - rssWarm < margin,
                 qPrintable(QStringLiteral("grew by %1 kB").arg(rssEnd - rssWarm)));
        QCOMPARE(workerThreads(), threads0);
    }

    void manyConcurrentRunsOfEveryExperiment() {
        auto w = makeWindow();
        RunController* c = w->controller();
        RunStore* store = w->store();
        const int threads0 = workerThreads();
        struct Planned {
            const char* name;
            ade::Config config;
            bool stopMidway;  // runs "forever" until stopped
            bool contiguous;  // log_every = 1
        };
        const std::vector<Planned> plan = {
            {"a-gd", tinyA(400), false, true},
            {"a-sgd", tinyA(400, {{"optimizer", "sgd"}, {"batch", "2"}}), false, true},
            {"a-adam", tinyA(300, {{"optimizer", "adam"}, {"lr", "0.01"}}), false, true},
            {"a-sde", tinyA(300, {{"optimizer", "sde"}, {"temperature", "1e-4"}}), false, true},
            {"a-diverges", tinyA(1000, {{"lr", "1e6"}}), false, true},
            {"a-2threads", tinyA(kForever, {{"threads", "2"}, {"data.n", "32"}}), true, true},
            {"a-backtracking", tinyA(kForever, {{"step_rule", "backtracking"}}), true, true},
            {"b-sgd", tinyB(300, "sgd", "1"), false, true},
            {"b-sde", tinyB(kForever, "sde", "7"), true, false},
            {"c-gd", tinyC(300, "gd", "3"), false, false},
            {"c-sde", tinyC(kForever, "sde", "1"), true, true},
            {"darcy-sde", tinyDarcy(60), false, true},
        };
        int longest = 0;  // the heartbeat: is the GUI thread serving events all along?
        QElapsedTimer sinceBeat;
        sinceBeat.start();
        QTimer beat;
        beat.setInterval(5);
        connect(&beat, &QTimer::timeout, this,
                [&] { longest = std::max(longest, static_cast<int>(sinceBeat.restart())); });
        beat.start();
        QSignalSpy drained(c, &RunController::drained);
        QElapsedTimer clock;
        clock.start();

        std::map<int, const Planned*> byId;
        for (const auto& p : plan)
            byId[c->start(QString::fromLatin1(p.name), p.config)] = &p;
        QCOMPARE(store->runs().size(), plan.size());
        QCOMPARE(c->activeIds().size(), plan.size());
        auto run = [&](const Planned& p) {
            for (const auto& r : store->runs())
                if (r->name == QLatin1String(p.name)) return r.get();
            return static_cast<RunRecord*>(nullptr);
        };
        // Every run has made its problem and recorded iteration 0; the long ones stream.
        QVERIFY(waitFor([&] {
            for (const auto& p : plan)
                if (run(p)->size() < (p.stopMidway ? 5u : 1u)) return false;
            return true;
        }));
        // Pause all: once the workers have settled, nothing more arrives.
        w->action(QStringLiteral("pause"))->trigger();
        QVERIFY(c->paused());
        for (const auto& [id, p] : byId)
            if (isActive(store->run(id)->state)) QCOMPARE(store->run(id)->state, RunState::Paused);
        auto sizes = [&] {
            std::map<int, std::size_t> s;
            for (const auto& r : store->runs())
                s[r->id] = r->size();
            return s;
        };
        std::map<int, std::size_t> settled;
        QElapsedTimer quiet;
        quiet.start();
        QVERIFY(waitFor([&] {
            const auto now = sizes();
            if (now != settled) settled = now, quiet.restart();
            return quiet.elapsed() >= 500 && c->anyActive();
        }));
        // Step: each paused run records exactly one more iteration.
        std::vector<int> paused = c->activeIds();
        QVERIFY(!paused.empty());
        w->action(QStringLiteral("step"))->trigger();
        QVERIFY(waitFor([&] {
            for (int id : paused)
                if (store->run(id)->size() < settled[id] + 1) return false;
            return true;
        }));
        QVERIFY(drains(c, 5));
        for (int id : paused) {
            const RunRecord* r = store->run(id);
            QVERIFY2(r->size() == settled[id] + 1 || !isActive(r->state), qPrintable(r->name));
        }
        // Stop the long runs while paused, resume the rest: all end on their own.
        for (const auto& [id, p] : byId)
            if (p->stopMidway) c->stop(id);
        w->action(QStringLiteral("pause"))->trigger();
        QVERIFY(waitFor([&] { return !c->anyActive(); }, 120000));
        beat.stop();
        const double seconds = clock.elapsed() / 1000.0;

        for (const auto& [id, p] : byId) {
            const RunRecord* r = store->run(id);
            QVERIFY(r);
            const QString e = historyError(*r, p->contiguous);
            QVERIFY2(e.isEmpty(), qPrintable(e));
            const long iterations = static_cast<long>(p->config.getInt("iterations"));
            if (p->stopMidway) {
                QCOMPARE(r->state, RunState::Stopped);
                QVERIFY(r->lastIteration() > 5);
            } else if (QLatin1String(p->name) == QLatin1String("a-diverges")) {
                QCOMPARE(r->state, RunState::Diverged);
                QVERIFY2(r->message.contains(QStringLiteral("kept")), qPrintable(r->message));
            } else {
                QVERIFY2(r->state == RunState::Completed,
                         qPrintable(r->name + QStringLiteral(": ") + stateText(r->state) + " " +
                                    r->message));
                QCOMPARE(r->lastIteration(), iterations);
                if (p->contiguous) QCOMPARE(r->size(), static_cast<std::size_t>(iterations + 1));
            }
            QVERIFY(r->finalParams.has_value());
        }
        qInfo("ui_stress: %zu concurrent runs in %.1f s; %lld drains; longest GUI gap %d ms",
              plan.size(), seconds, static_cast<long long>(drained.count()), longest);
        QVERIFY(drained.count() > 10);
        // Not a frame-time budget (the charts of a dozen new runs take a few hundred ms to build
        // here); a GUI thread blocked on a worker would stall until the end.
        QVERIFY2(longest < (kSanitized ? 15000 : 3000), qPrintable(QString::number(longest)));
        QVERIFY(waitFor([&] { return workerThreads() == threads0; }, 10000));
        for (const auto& [id, p] : byId)
            w->commands()->deleteRun(id);
        QVERIFY(store->runs().empty());
    }

    // The window object goes away (no close) while four runs stream.
    void destroyingTheWindowMidRun() {
        const int threads0 = workerThreads();
        const QString path = tmp.filePath(QStringLiteral("destroy/recovery.session.json"));
        auto w = makeWindow();
        w->sessions()->setRecoveryPath(path);
        RunStore* store = w->store();
        std::vector<int> ids = startFourLongRuns(*w);
        std::map<QString, std::size_t> seen = countsOnceStreaming(*store, ids);
        QVERIFY(!seen.empty());
        QElapsedTimer t;
        t.start();
        w.reset();
        const qint64 ms = t.elapsed();
        qInfo("ui_stress: window destroyed mid-run in %lld ms", static_cast<long long>(ms));
        QVERIFY(ms < kWaitMs);  // bounded, not timed: the runs are far longer than any wait
        QVERIFY(waitFor([&] { return workerThreads() == threads0; }, 10000));
        // What was computed is in the recovery file, offered at the next start.
        checkRecovered(path, seen);
        if (QTest::currentTestFailed()) return;
    }

    // The user closes the window while four runs stream.
    void closingTheWindowMidRunKeepsTheWork() {
        const int threads0 = workerThreads();
        const QString path = tmp.filePath(QStringLiteral("close/recovery.session.json"));
        auto w = makeWindow();
        w->sessions()->setRecoveryPath(path);
        RunStore* store = w->store();
        std::vector<int> ids = startFourLongRuns(*w);
        std::map<QString, std::size_t> seen = countsOnceStreaming(*store, ids);
        QVERIFY(!seen.empty());
        QElapsedTimer t;
        t.start();
        QVERIFY(w->close());
        const qint64 ms = t.elapsed();
        qInfo("ui_stress: window closed mid-run in %lld ms", static_cast<long long>(ms));
        QVERIFY(ms < kWaitMs);  // bounded, not timed: the runs are far longer than any wait
        QVERIFY(!w->controller()->anyActive());
        QVERIFY(waitFor([&] { return workerThreads() == threads0; }, 10000));
        std::map<QString, std::vector<std::vector<double>>> kept;
        for (int id : ids) {
            const RunRecord* r = store->run(id);
            QCOMPARE(r->state, RunState::Stopped);
            QVERIFY(r->size() >= seen[r->name]);
            kept[r->name] = r->data;
        }
        w.reset();
        checkRecovered(path, seen);
        if (QTest::currentTestFailed()) return;
        // The next window offers the runs back, with every record the closed one had.
        auto v = makeWindow();
        v->sessions()->setRecoveryPath(path);
        v->sessions()->offerRecovery();  // non-interactive in tests: accepts
        QCOMPARE(v->store()->runs().size(), kept.size());
        for (const auto& r : v->store()->runs()) {
            QVERIFY2(kept.count(r->name), qPrintable(r->name));
            QVERIFY2(r->data == kept[r->name], qPrintable(r->name));
            QCOMPARE(r->state, RunState::Stopped);
        }
        v->sessions()->closeCleanly();
        QVERIFY(!QFileInfo::exists(path));
    }

  private:
    std::vector<int> startFourLongRuns(MainWindow& w) {
        RunController* c = w.controller();
        std::vector<int> ids;
        ids.push_back(c->start(QStringLiteral("a-gd"), tinyA(kForever)));
        ids.push_back(c->start(QStringLiteral("a-2threads"),
                               tinyA(kForever, {{"threads", "2"}, {"data.n", "32"}})));
        ids.push_back(c->start(QStringLiteral("b-sde"), tinyB(kForever, "sde", "1")));
        ids.push_back(c->start(QStringLiteral("c-sde"), tinyC(kForever, "sde", "1")));
        return ids;
    }

    void checkRecovered(const QString& path, const std::map<QString, std::size_t>& seen) {
        QVERIFY2(QFileInfo::exists(path), "closing mid-run lost the computed runs");
        const auto read = ade::readSessionFile(path.toStdString());
        QVERIFY2(read.session, read.error.c_str());
        QCOMPARE(read.session->runs.size(), seen.size());
        for (const auto& run : read.session->runs) {
            const QString name = QString::fromStdString(run.name);
            QVERIFY2(seen.count(name), qPrintable(name));
            QVERIFY2(run.history.rows.size() >= seen.at(name), qPrintable(name));
            QCOMPARE(run.status, ade::RunStatus::Cancelled);
            QVERIFY(!run.running);
            for (std::size_t i = 0; i < run.history.rows.size(); ++i)
                QCOMPARE(run.history.rows[i][0], static_cast<double>(i));
        }
    }
};

QTEST_MAIN(TestStress)
#include "tst_stress.moc"
