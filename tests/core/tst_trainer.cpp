// The training loop: determinism, divergence, cancellation, pause/step, optimisers.
#include <QtTest>

#include <atomic>
#include <cstring>
#include <thread>

#include "Configs.h"
#include "Waits.h"
#include "config/Config.h"
#include "experiments/ExperimentRegistry.h"
#include "output/RunOutput.h"
#include "plan/PlanRunner.h"
#include "training/Trainer.h"
#include "util/RunControl.h"
#include "util/WorkerPool.h"

using namespace ade;

namespace {

Config small(const adetest::KeyValues& sets) {
    const Config base = adetest::configFrom(
        {{"data.n", "24"}, {"data.prompts", "8"}, {"iterations", "60"}, {"log_every", "1"}});
    return adetest::configFrom(sets, base);
}

RunResult runConfig(const Config& c, RunControl* control = nullptr, RunObserver* obs = nullptr) {
    std::string err;
    auto t = makeTrainer(c, &err);
    if (!t) qFatal("%s", err.c_str());
    return t->run(obs, control);
}

// History without the wall-time column.
std::vector<std::vector<double>> withoutTime(const MetricHistory& h) {
    auto rows = h.rows;
    for (auto& r : rows)
        r.erase(r.begin() + 1);
    return rows;
}

// The same rows, bit for bit (NaN where a metric is not recorded equals NaN).
bool sameBits(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].size() != b[i].size() ||
            std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(double)) != 0)
            return false;
    return true;
}

class CountingObserver : public RunObserver {
  public:
    std::atomic<int> records{0};
    RunControl* stopAt = nullptr;
    int stopAfter = -1;
    void onRecord(const std::vector<double>&) override {
        if (++records == stopAfter && stopAt) stopAt->requestStop();
    }
};

// Keeps the records itself (as the explorer's store does): the trainer keeps none.
class KeepingObserver : public RunObserver {
  public:
    std::vector<std::string> columns;
    std::vector<std::vector<double>> rows;
    RunControl* stopAt = nullptr;
    std::size_t stopAfter = 0;
    void onStart(const std::vector<std::string>& c) override { columns = c; }
    void onRecord(const std::vector<double>& row) override {
        rows.push_back(row);
        if (stopAt && rows.size() == stopAfter) stopAt->requestStop();
    }
    bool keepsRecords() const override { return true; }
};

}  // namespace

class TestTrainer : public QObject {
    Q_OBJECT
  private slots:
    // The step's worker pool: every item of every round runs exactly once, whether the workers
    // are still spinning from the last round (back-to-back rounds) or asleep (a pause longer
    // than the spin), and the pool can be destroyed in either state.
    void workerPoolRunsEveryItemOnce() {
        for (int pause : {0, 2 * ade::WorkerPool::kSpinMicroseconds}) {
            ade::WorkerPool pool(3);
            std::vector<std::atomic<int>> hits(17);
            long expected = 0;
            const int rounds = pause ? 40 : 3000;
            for (int r = 0; r < rounds; ++r) {
                const int count = 1 + r % 17;
                pool.run(count, [&](int i) { hits[i].fetch_add(1, std::memory_order_relaxed); });
                expected += count;
                if (pause) std::this_thread::sleep_for(std::chrono::microseconds(pause));
            }
            long total = 0;
            for (int i = 0; i < 17; ++i) {
                // Item i runs in every round whose count exceeds i.
                int want = 0;
                for (int r = 0; r < rounds; ++r)
                    want += 1 + r % 17 > i;
                QCOMPARE(hits[i].load(), want);
                total += hits[i].load();
            }
            QCOMPARE(total, expected);
        }
    }

    void sameSeedSameHistory_data() {
        QTest::addColumn<QString>("optimizer");
        QTest::newRow("gd") << "gd";
        QTest::newRow("sgd") << "sgd";
        QTest::newRow("adam") << "adam";
        QTest::newRow("sde") << "sde";
    }
    void sameSeedSameHistory() {
        QFETCH(QString, optimizer);
        const Config c = small({{"optimizer", optimizer.toUtf8().constData()},
                                {"lr", "0.05"},
                                {"batch", "3"},
                                {"temperature", "1e-4"}});
        const RunResult a = runConfig(c), b = runConfig(c);
        QCOMPARE(a.status, RunStatus::Completed);
        QCOMPARE(a.history.rows.size(), std::size_t(61));
        QVERIFY(withoutTime(a.history) == withoutTime(b.history));  // bit-identical
        QVERIFY(a.finalParams[0] == b.finalParams[0]);
        Config other = c;
        other.setText("seed", "2");
        QVERIFY(withoutTime(runConfig(other).history) != withoutTime(a.history));
    }

    void threadsDoNotChangeHistory() {
        const Config c1 = small({{"threads", "1"}, {"data.n", "300"}, {"iterations", "5"}});
        Config c2 = c1;
        c2.setText("threads", "2");
        QVERIFY(withoutTime(runConfig(c1).history) == withoutTime(runConfig(c2).history));
    }

    void gdWithBacktrackingDecreasesObjective() {
        const Config c = small({{"step_rule", "backtracking"},
                                {"lr", "50"},
                                {"regularizer", "balancing"},
                                {"preconditioner", "scaled"}});
        const RunResult r = runConfig(c);
        QCOMPARE(r.status, RunStatus::Completed);
        const int train = r.history.column("train_loss"), reg = r.history.column("reg_value");
        for (std::size_t i = 1; i < r.history.rows.size(); ++i)
            QVERIFY(r.history.rows[i][train] + r.history.rows[i][reg] <=
                    r.history.rows[i - 1][train] + r.history.rows[i - 1][reg] + 1e-15);
        // Backtracking actually reduced the step below the huge lr.
        QVERIFY(r.history.rows.back()[r.history.column("step_size")] < 50);
    }

    void algorithmOneReachesFloorFasterThanGd() {
        const Config alg = small({{"init", "spectral"},
                                  {"regularizer", "balancing"},
                                  {"lambda", "0.5"},
                                  {"preconditioner", "scaled"},
                                  {"step_rule", "backtracking"},
                                  {"lr", "1"},
                                  {"iterations", "40"}});
        const Config gd = small({{"init", "random"}, {"lr", "0.5"}, {"iterations", "40"}});
        const RunResult a = runConfig(alg), g = runConfig(gd);
        const int er = a.history.column("excess_risk");
        QVERIFY(a.history.rows.front()[er] * 100 < g.history.rows.front()[er]);
        QVERIFY(a.history.rows.back()[er] < g.history.rows.back()[er]);
    }

    // data_passes counts the training work: b / N per evaluation of the objective on b of N
    // units (the step's and every backtracking trial's), not the metric records.
    void dataPassesCountTheTrainingWork() {
        const RunResult gd = runConfig(small({{"optimizer", "gd"}, {"step_rule", "fixed"}}));
        const int c = gd.history.column("data_passes");
        QVERIFY(c >= 0);
        QCOMPARE(gd.history.rows.front()[static_cast<std::size_t>(c)], 0.0);
        for (const auto& r : gd.history.rows)  // one full-batch gradient per iteration
            QCOMPARE(r[static_cast<std::size_t>(c)], r[0]);
        const RunResult sgd =
            runConfig(small({{"optimizer", "sgd"}, {"batch", "2"}, {"step_rule", "fixed"}}));
        for (const auto& r : sgd.history.rows)  // batch 2 of 8 prompts: a quarter per iteration
            QCOMPARE(r[static_cast<std::size_t>(c)], 0.25 * r[0]);
        const RunResult bt = runConfig(small({{"optimizer", "gd"}, {"step_rule", "backtracking"}}));
        const auto& last = bt.history.rows.back();
        // One gradient and at least one trial per iteration, in whole passes.
        QVERIFY(last[static_cast<std::size_t>(c)] >= 2 * last[0]);
        QCOMPARE(last[static_cast<std::size_t>(c)], std::round(last[static_cast<std::size_t>(c)]));
    }

    void divergenceKeepsHistory() {
        const Config c = small({{"lr", "1e5"}, {"init", "random"}, {"init_scale", "3"}});
        const RunResult r = runConfig(c);
        QCOMPARE(r.status, RunStatus::Diverged);
        QVERIFY(r.divergedAt >= 1);
        QVERIFY(!r.history.rows.empty());
        QCOMPARE(static_cast<long>(r.history.rows.back()[0]), r.divergedAt - 1);
        QVERIFY(r.finalParams.allFinite());
        QVERIFY(r.message.find("diverged at iteration") != std::string::npos);
    }

    // An observer that keeps the records (the explorer's worker) gets the same records as the
    // history of a run without one, and the run keeps none itself; its stopping rule, divergence
    // and cancellation end the run at the same iteration with the same words and numbers.
    void anObserverThatKeepsTheRecordsGetsTheSameRun() {
        auto same = [](RunResult& kept, const Config& c, RunControl* control = nullptr,
                       std::size_t stopAfter = 0) {
            RunControl control2;
            CountingObserver counting;
            counting.stopAt = &control2;
            counting.stopAfter = static_cast<int>(stopAfter);
            const RunResult plain = runConfig(c, stopAfter ? &control2 : nullptr, &counting);
            KeepingObserver keeping;
            keeping.stopAt = control;
            keeping.stopAfter = stopAfter;
            kept = runConfig(c, control, &keeping);
            QVERIFY(kept.history.rows.empty());
            QVERIFY(!plain.history.rows.empty());
            QVERIFY(kept.history.columns == plain.history.columns);
            QVERIFY(keeping.columns == plain.history.columns);
            QVERIFY(sameBits(withoutTime(MetricHistory{keeping.columns, keeping.rows}),
                             withoutTime(plain.history)));
            QCOMPARE(kept.status, plain.status);
            QCOMPARE(kept.iterationsDone, plain.iterationsDone);
            QCOMPARE(kept.divergedAt, plain.divergedAt);
            QCOMPARE(QString::fromStdString(kept.stop), QString::fromStdString(plain.stop));
            QVERIFY(kept.stopChange == plain.stopChange ||
                    (std::isnan(kept.stopChange) && std::isnan(plain.stopChange)));
            QCOMPARE(QString::fromStdString(kept.message), QString::fromStdString(plain.message));
        };
        RunResult whole, converged, diverged, cancelled;
        same(whole, small({}));
        QCOMPARE(whole.iterationsDone, 60L);
        same(converged, small({{"init", "random"},
                                                {"lr", "0.5"},
                                                {"iterations", "4000"},
                                                {"log_every", "10"},
                                                {"step_rule", "fixed"},
                                                {"stop_tol", "1e-3"},
                                                {"stop_window", "100"}}));
        if (QTest::currentTestFailed()) return;
        QCOMPARE(QString::fromStdString(converged.stop), QString("converged"));
        QVERIFY(converged.iterationsDone < 4000);
        same(diverged, small({{"lr", "1e5"}, {"init", "random"}, {"init_scale", "3"}}));
        if (QTest::currentTestFailed()) return;
        QCOMPARE(diverged.status, RunStatus::Diverged);
        QVERIFY(diverged.message.find("metrics up to iteration " +
                                      std::to_string(diverged.divergedAt - 1)) !=
                std::string::npos);
        RunControl control;
        same(cancelled, small({{"iterations", "100000"}}), &control, 10);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(cancelled.status, RunStatus::Cancelled);
    }

    void stopEndsRunAndKeepsRecords() {
        RunControl control;
        CountingObserver obs;
        obs.stopAt = &control;
        obs.stopAfter = 10;
        const RunResult r = runConfig(small({{"iterations", "100000"}}), &control, &obs);
        QCOMPARE(r.status, RunStatus::Cancelled);
        QVERIFY(r.iterationsDone >= 9 && r.iterationsDone < 100);
        QCOMPARE(static_cast<long>(r.history.rows.back()[0]), r.iterationsDone);
    }

    // The stopping rule: off by default (a run does all its iterations and says nothing of
    // stopping); on, a GD run that has reached its floor stops early as "converged", with the
    // means of its last three windows each within stop_tol of the next; a cap too short for
    // three windows is "cap", not converged; the records up to the stop are those of the same run
    // without the rule (the rule only ends it).
    void stoppingRuleEndsConvergedRuns() {
        const adetest::KeyValues gd = {{"init", "random"},
                                       {"lr", "0.5"},
                                       {"iterations", "4000"},
                                       {"log_every", "10"},
                                       {"step_rule", "fixed"}};
        const RunResult off = runConfig(small(gd));
        QCOMPARE(off.status, RunStatus::Completed);
        QCOMPARE(off.iterationsDone, 4000L);
        QVERIFY(off.stop.empty());

        adetest::KeyValues on = gd;
        on.push_back({"stop_tol", "1e-3"});
        on.push_back({"stop_window", "100"});
        const RunResult r = runConfig(small(on));
        QCOMPARE(r.status, RunStatus::Completed);
        QCOMPARE(QString::fromStdString(r.stop), QString("converged"));
        QVERIFY2(r.iterationsDone >= 300 && r.iterationsDone < 4000,
                 std::to_string(r.iterationsDone).c_str());
        QVERIFY(r.stopChange < 1e-3);
        QVERIFY(r.message.find("converged at iteration " + std::to_string(r.iterationsDone)) == 0);
        QCOMPARE(static_cast<long>(r.history.rows.back()[0]), r.iterationsDone);
        // The change the rule saw, recomputed from the records: the last three 100-iteration
        // windows' means of train_loss, the larger change of the two neighbouring pairs.
        const int col = r.history.column("train_loss");
        const double t = r.history.rows.back()[0];
        double m[3] = {0, 0, 0};
        int n[3] = {0, 0, 0};
        for (const auto& row : r.history.rows)
            for (int k = 0; k < 3; ++k)
                if (row[0] > t - 100 * (k + 1) && row[0] <= t - 100 * k) m[k] += row[col], ++n[k];
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(n[k], 10);
            m[k] /= n[k];
        }
        const double expected = std::max(std::abs(m[0] - m[1]) / std::max(m[0], m[1]),
                                         std::abs(m[1] - m[2]) / std::max(m[1], m[2]));
        QVERIFY(std::abs(expected - r.stopChange) < 1e-12);
        // ... and at the record before, it had not yet converged.
        QVERIFY(r.iterationsDone == 300 ||
                StopRule::make(small(on), 4000, 10)
                        .change(MetricHistory{r.history.columns,
                                              {r.history.rows.begin(), r.history.rows.end() - 1}},
                                col) >= 1e-3);
        // Same records as the run without the rule, up to the stop (wall time aside).
        const auto rows = withoutTime(r.history), all = withoutTime(off.history);
        QVERIFY(rows.size() < all.size());
        for (std::size_t i = 0; i < rows.size(); ++i)
            QVERIFY(rows[i] == all[i]);

        adetest::KeyValues capped = on;
        capped.push_back({"iterations", "250"});
        const RunResult c = runConfig(small(capped));
        QCOMPARE(c.status, RunStatus::Completed);
        QCOMPARE(QString::fromStdString(c.stop), QString("cap"));
        QCOMPARE(c.iterationsDone, 250L);
        QVERIFY(c.message.find("reached the iteration cap (250) before the stopping rule: fewer "
                               "than three windows") == 0);
    }

    // A stop metric the experiment does not record is refused before the run, by name.
    void stoppingRuleRefusesUnknownMetric() {
        const Config c = small({{"stop_tol", "1e-3"}, {"stop_metric", "no_such_metric"}});
        const auto errors = validateConfig(c);
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(errors[0].key), QString("stop_metric"));
        QVERIFY(errors[0].message.find("train_loss") != std::string::npos);
        // Without the rule the metric is not looked at.
        QVERIFY(validateConfig(small({{"stop_metric", "no_such_metric"}})).empty());
    }

    void pauseAndStep() {
        RunControl control;
        control.pause();
        CountingObserver obs;
        RunResult r;
        std::thread worker([&] { r = runConfig(small({{"iterations", "1000"}}), &control, &obs); });
        // Paused before the first step: only the iteration-0 record arrives.
        QTRY_COMPARE_WITH_TIMEOUT(obs.records.load(), 1, kRunWaitMs);
        control.stepOnce(3);
        QTRY_COMPARE_WITH_TIMEOUT(obs.records.load(), 4, kRunWaitMs);
        control.requestStop();
        worker.join();
        QCOMPARE(r.status, RunStatus::Cancelled);
        QCOMPARE(r.iterationsDone, 3L);
    }

    void zeroIterationsRecordsTheStart() {
        const RunResult r = runConfig(small({{"iterations", "0"}}));
        QCOMPARE(r.status, RunStatus::Completed);
        QCOMPARE(r.history.rows.size(), std::size_t(1));
    }

    void sameStartSharesInitialWeights() {
        PlanError err;
        const auto plan =
            parsePlan(R"({"config": {"data.n": 16, "data.prompts": 4, "iterations": 3},
            "runs": [{"name": "x", "config": {"init": "random", "seed": 5}},
                     {"name": "y", "config": {"init": "same", "init_from": "x", "seed": 9,
                                              "optimizer": "adam"}}]})",
                      "t", {}, &err);
        QVERIFY2(plan, err.message.c_str());
        const auto runs = plainRuns(*plan);
        std::string e;
        const auto p = resolveSameStart(runs, runs[1], &e);
        QVERIFY2(p, e.c_str());
        PlanRunOptions o;
        const auto out = runPlanned(runs, "t", o);
        QVERIFY(out[0].result.initialParams[0] == out[1].result.initialParams[0]);
        QVERIFY(out[0].result.initialParams[1] == out[1].result.initialParams[1]);
    }

    void freshDataModeChangesDataEachIteration() {
        const RunResult r =
            runConfig(small({{"data.fresh", "true"}, {"optimizer", "sgd"}, {"lr", "0.1"}}));
        QCOMPARE(r.status, RunStatus::Completed);
        const RunResult fixed = runConfig(small({{"optimizer", "sgd"}, {"lr", "0.1"}}));
        QVERIFY(withoutTime(r.history) != withoutTime(fixed.history));
    }

    void sweepFitRecoversKnownSlope() {
        // fitPowerLaw on synthetic outcomes y = 3 x^-1.5.
        std::vector<RunOutcome> outs;
        for (double x : {32.0, 64.0, 128.0, 256.0}) {
            RunOutcome o;
            o.run.label = "s";
            o.run.varied = {{"data.n", std::to_string(static_cast<int>(x))}};
            o.result.history.columns = {"iteration", "excess_risk"};
            o.result.history.rows = {{0, 1.0}, {1, 3.0 * std::pow(x, -1.5)}};
            outs.push_back(o);
        }
        const auto fits = fitPowerLaw(outs, "data.n", "excess_risk", "final");
        QCOMPARE(fits.size(), std::size_t(1));
        QVERIFY(std::abs(fits[0].slope + 1.5) < 1e-12);
        QVERIFY(std::abs(fits[0].r2 - 1.0) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestTrainer)
#include "tst_trainer.moc"
