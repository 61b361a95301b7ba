// Parameter snapshots (time travel): the schedule (count, memory cap, first and last state,
// determinism, cancel and divergence keep the last state), that a snapshot equals the
// parameters of a run stopped at that iteration, and sessions keeping them bit-exactly.
#include <QtTest>

#include <cstring>

#include "Configs.h"
#include "experiments/ExperimentRegistry.h"
#include "output/Session.h"
#include "training/Trainer.h"
#include "util/RunControl.h"

using namespace ade;

namespace {

RunResult runConfig(const Config& c, RunControl* control = nullptr, RunObserver* obs = nullptr) {
    std::string err;
    auto t = makeTrainer(c, &err);
    if (!t) qFatal("%s", err.c_str());
    return t->run(obs, control);
}

bool bitEqual(const ParamSet& a, const ParamSet& b) {
    if (a.names != b.names || a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].rows() != b[i].rows() || a[i].cols() != b[i].cols()) return false;
        if (std::memcmp(a[i].data(), b[i].data(), sizeof(double) * a[i].size()) != 0) return false;
    }
    return true;
}

std::vector<long> iterationsOf(const std::vector<Snapshot>& s) {
    std::vector<long> out;
    for (const auto& x : s)
        out.push_back(x.iteration);
    return out;
}

// Records what the observer hears, to compare with RunResult::snapshots.
class SnapshotObserver : public RunObserver {
  public:
    std::vector<long> iterations;
    RunControl* stopAt = nullptr;
    int stopAfterRecords = -1;
    int records = 0;
    void onParams(long iteration, const ParamSet&) override { iterations.push_back(iteration); }
    void onRecord(const std::vector<double>&) override {
        if (++records == stopAfterRecords && stopAt) stopAt->requestStop();
    }
};

}  // namespace

class TestSnapshots : public QObject {
    Q_OBJECT
  private slots:
    void scheduleSpreadsOverTheRun() {
        // 200 records (log_every 1), 10 snapshots: 0, 8 records in between, the last.
        const Config c = adetest::tinyA(200, {{"snapshots", "10"}});
        SnapshotObserver obs;
        const RunResult r = runConfig(c, nullptr, &obs);
        QCOMPARE(r.status, RunStatus::Completed);
        const auto its = iterationsOf(r.snapshots);
        QVERIFY(its.size() <= 10);
        QVERIFY(its.size() >= 9);
        QCOMPARE(its.front(), 0L);
        QCOMPARE(its.back(), 200L);
        for (std::size_t i = 1; i < its.size(); ++i)
            QVERIFY(its[i] > its[i - 1]);
        // Evenly spread: the gaps between the regular ones are one stride.
        const long stride = its[1];
        for (std::size_t i = 1; i + 1 < its.size(); ++i)
            QCOMPARE(its[i], static_cast<long>(i) * stride);
        QCOMPARE(obs.iterations, its);  // the observer heard every one, in order
        QVERIFY(bitEqual(r.snapshots.front().params, r.initialParams));
        QVERIFY(bitEqual(r.snapshots.back().params, r.finalParams));
    }

    void countNeverExceedsTheKey_data() {
        QTest::addColumn<int>("iterations");
        QTest::addColumn<int>("logEvery");
        QTest::addColumn<int>("snapshots");
        QTest::newRow("exact") << 100 << 1 << 11;
        QTest::newRow("uneven") << 97 << 3 << 7;
        QTest::newRow("few records") << 10 << 5 << 50;
        QTest::newRow("two") << 50 << 1 << 2;
        QTest::newRow("one") << 50 << 1 << 1;
        QTest::newRow("none") << 50 << 1 << 0;
    }
    void countNeverExceedsTheKey() {
        QFETCH(int, iterations);
        QFETCH(int, logEvery);
        QFETCH(int, snapshots);
        const Config c = adetest::tinyA(iterations, {{"log_every", std::to_string(logEvery)},
                                                     {"snapshots", std::to_string(snapshots)}});
        const RunResult r = runConfig(c);
        QVERIFY(r.snapshots.size() <= static_cast<std::size_t>(snapshots));
        if (snapshots == 0) return;
        QCOMPARE(r.snapshots.back().iteration, static_cast<long>(iterations));
        if (snapshots >= 2) QCOMPARE(r.snapshots.front().iteration, 0L);
        for (const auto& s : r.snapshots)  // regular records or the last state
            QVERIFY(s.iteration % logEvery == 0 || s.iteration == iterations);
    }

    void memoryCapLimitsTheCount() {
        const Config probe = adetest::tinyA(100, {{"snapshots", "1"}});
        const std::size_t bytes = paramBytes(runConfig(probe).finalParams);
        QVERIFY(bytes > 0);
        // Room for exactly 5 copies of the weights.
        const double mb = 5.5 * static_cast<double>(bytes) / (1024.0 * 1024.0);
        const Config c = adetest::tinyA(
            100, {{"snapshots", "100"}, {"snapshot_mb", QByteArray::number(mb, 'g', 17).toStdString()}});
        const RunResult r = runConfig(c);
        QCOMPARE(r.snapshots.size(), std::size_t(5));
        std::size_t total = 0;
        for (const auto& s : r.snapshots)
            total += paramBytes(s.params);
        QVERIFY(static_cast<double>(total) <= mb * 1024.0 * 1024.0);
        QCOMPARE(r.snapshots.back().iteration, 100L);
    }

    void sameConfigSameSnapshots() {
        const Config c = adetest::tinyA(120, {{"snapshots", "13"}, {"log_every", "2"}});
        const RunResult a = runConfig(c), b = runConfig(c);
        QCOMPARE(iterationsOf(a.snapshots), iterationsOf(b.snapshots));
        for (std::size_t i = 0; i < a.snapshots.size(); ++i)
            QVERIFY(bitEqual(a.snapshots[i].params, b.snapshots[i].params));
    }

    void snapshotsDoNotChangeMetrics() {
        const Config with = adetest::tinyA(80, {{"snapshots", "100"}});
        const Config without = adetest::tinyA(80, {{"snapshots", "0"}});
        const RunResult a = runConfig(with), b = runConfig(without);
        QVERIFY(!a.snapshots.empty());
        QVERIFY(b.snapshots.empty());
        QCOMPARE(a.history.rows.size(), b.history.rows.size());
        for (std::size_t i = 0; i < a.history.rows.size(); ++i) {
            auto ra = a.history.rows[i], rb = b.history.rows[i];
            ra.erase(ra.begin() + 1);  // wall time
            rb.erase(rb.begin() + 1);
            QVERIFY(ra == rb);
        }
        QVERIFY(bitEqual(a.finalParams, b.finalParams));
    }

    void snapshotEqualsParamsAtThatIteration() {
        // A run stopped at a snapshot's iteration (same seed, fewer iterations) ends with the
        // very same parameters.
        const Config c = adetest::tinyA(90, {{"snapshots", "7"}, {"optimizer", "sde"},
                                             {"temperature", "1e-3"}});
        const RunResult full = runConfig(c);
        QVERIFY(full.snapshots.size() >= 4);
        for (std::size_t i = 1; i + 1 < full.snapshots.size(); i += 2) {
            Config shorter = c;
            shorter.setJson("iterations", full.snapshots[i].iteration);
            const RunResult part = runConfig(shorter);
            QVERIFY2(bitEqual(part.finalParams, full.snapshots[i].params),
                     qPrintable(QStringLiteral("iteration %1").arg(full.snapshots[i].iteration)));
        }
    }

    void cancelKeepsTheLastState() {
        const Config c = adetest::tinyA(1000, {{"snapshots", "5"}});
        RunControl control;
        SnapshotObserver obs;
        obs.stopAt = &control;
        obs.stopAfterRecords = 37;  // record 37 is iteration 36
        const RunResult r = runConfig(c, &control, &obs);
        QCOMPARE(r.status, RunStatus::Cancelled);
        QVERIFY(!r.snapshots.empty());
        QCOMPARE(r.snapshots.front().iteration, 0L);
        QCOMPARE(r.snapshots.back().iteration, r.iterationsDone);
        QVERIFY(bitEqual(r.snapshots.back().params, r.finalParams));
        QVERIFY(r.snapshots.size() <= 5);
    }

    void divergenceKeepsTheLastFiniteState() {
        const Config c = adetest::tinyA(400, {{"snapshots", "10"}, {"lr", "1e4"}});
        const RunResult r = runConfig(c);
        QCOMPARE(r.status, RunStatus::Diverged);
        QVERIFY(!r.snapshots.empty());
        QCOMPARE(r.snapshots.back().iteration, r.iterationsDone);
        QVERIFY(r.snapshots.back().params.allFinite());
        QVERIFY(bitEqual(r.snapshots.back().params, r.finalParams));
    }

    void sessionKeepsSnapshotsBitExactly() {
        const Config c = adetest::tinyA(60, {{"snapshots", "6"}});
        const RunResult r = runConfig(c);
        Session s;
        s.runs.push_back(sessionRunFrom("run", c, r));
        QCOMPARE(s.runs.front().snapshots.size(), r.snapshots.size());
        const auto back = sessionFromText(sessionToText(s));
        QVERIFY2(back.session, back.error.c_str());
        const auto& snaps = back.session->runs.front().snapshots;
        QCOMPARE(iterationsOf(snaps), iterationsOf(r.snapshots));
        for (std::size_t i = 0; i < snaps.size(); ++i)
            QVERIFY(bitEqual(snaps[i].params, r.snapshots[i].params));
        // Awkward doubles survive too (shortest round-trip text).
        Session odd;
        SessionRun run = s.runs.front();
        run.snapshots.resize(1);
        Eigen::MatrixXd& m = run.snapshots[0].params[0];
        m(0, 0) = 0.1 + 0.2;
        m(0, 1 % m.cols()) = 5e-324;
        m(m.rows() - 1, 0) = -1.7976931348623157e308;
        odd.runs.push_back(run);
        const auto oddBack = sessionFromText(sessionToText(odd));
        QVERIFY2(oddBack.session, oddBack.error.c_str());
        QVERIFY(bitEqual(oddBack.session->runs.front().snapshots[0].params,
                         run.snapshots[0].params));
        // Without parameters (recovery files), no snapshots either.
        const auto light = sessionFromText(sessionToText(s, false));
        QVERIFY(light.session);
        QVERIFY(light.session->runs.front().snapshots.empty());
    }

    void oldSessionOpensWithoutSnapshots() {
        // Written by the explorer before snapshots existed (c-lora-drift, 40 iterations).
        // ADE_TEST_SOURCE_DIR: this program's source folder, set by ctest (tests/CMakeLists.txt).
        const QString file = QDir(qEnvironmentVariable("ADE_TEST_SOURCE_DIR"))
                                 .filePath(QStringLiteral("data/session-before-snapshots.json"));
        QVERIFY2(QFileInfo::exists(file), qPrintable(file));
        const auto r = readSessionFile(file.toStdString());
        QVERIFY2(r.session, r.error.c_str());
        QCOMPARE(r.session->runs.size(), std::size_t(3));
        for (const auto& run : r.session->runs) {
            QVERIFY(run.snapshots.empty());
            QVERIFY(run.finalParams.has_value());
            QCOMPARE(run.history.rows.size(), std::size_t(5));
            QCOMPARE(run.config.getInt("snapshots"), std::int64_t(100));  // the key's default
        }
        for (const auto& w : r.warnings)
            QVERIFY2(w.find("snapshot") == std::string::npos, w.c_str());
    }

    void badSnapshotsAreReported() {
        const Config c = adetest::tinyA(20, {{"snapshots", "3"}});
        Session s;
        s.runs.push_back(sessionRunFrom("run", c, runConfig(c)));
        nlohmann::json j = sessionToJson(s);
        std::swap(j["runs"][0]["snapshots"][0], j["runs"][0]["snapshots"][1]);
        const auto r = sessionFromText(j.dump());
        QVERIFY(!r.session);
        QVERIFY2(r.error.find("runs[0].snapshots[1].iteration") != std::string::npos,
                 r.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSnapshots)
#include "tst_snapshots.moc"
