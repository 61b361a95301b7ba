// Extreme and degenerate inputs: each gives a clear message or a sensible result, never a
// crash or a hang (issue 6). Runs every experiment's trainer on tiny sizes.
#include <QtTest>

#include "experiments/ExperimentRegistry.h"
#include "plan/PlanRunner.h"
#include "training/Trainer.h"
#include "util/RunControl.h"

using namespace ade;

namespace {

struct Outcome {
    bool built = false;
    std::string error;
    RunResult result;
};

Outcome runWith(const std::vector<std::pair<std::string, std::string>>& sets) {
    Config c;
    c.setText("iterations", "20");
    c.setText("data.n", "8");
    c.setText("data.prompts", "4");
    Outcome o;
    for (const auto& [k, v] : sets)
        if (auto e = c.setText(k, v)) {
            o.error = e->message;
            return o;
        }
    auto t = makeTrainer(c, &o.error);
    if (!t) return o;
    o.built = true;
    o.result = t->run();
    return o;
}

}  // namespace

class TestExtremes : public QObject {
    Q_OBJECT
  private slots:
    void degenerateButValid_data() {
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("n=1") << QStringList{"data.n=1"};
        QTest::newRow("n=1 exclude self") << QStringList{"data.n=1", "model.exclude_self=true"};
        QTest::newRow("d=1,k=1") << QStringList{"data.d=1", "data.k=1"};
        QTest::newRow("rank 0 = full") << QStringList{"data.rank=0"};
        QTest::newRow("P=1 spectral") << QStringList{"data.prompts=1", "init=spectral"};
        QTest::newRow("n=1 spectral precond")
            << QStringList{"data.n=1", "data.prompts=1", "init=spectral", "preconditioner=scaled",
                           "regularizer=balancing"};
        QTest::newRow("lambda=0 balancing") << QStringList{"regularizer=balancing", "lambda=0"};
        QTest::newRow("lambda huge, backtracking")
            << QStringList{"regularizer=l2", "lambda=1e12", "step_rule=backtracking"};
        QTest::newRow("step 0") << QStringList{"lr=0"};
        QTest::newRow("step 0 backtracking") << QStringList{"lr=0", "step_rule=backtracking"};
        QTest::newRow("temperature huge")
            << QStringList{"optimizer=sde", "temperature=1e6", "lr=1"};
        QTest::newRow("temperature 0") << QStringList{"optimizer=sde", "temperature=0", "lr=0.01"};
        QTest::newRow("iterations 0") << QStringList{"iterations=0"};
        QTest::newRow("seed max") << QStringList{"seed=9223372036854775807"};
        QTest::newRow("seed 0") << QStringList{"seed=0"};
        QTest::newRow("noise 0") << QStringList{"data.noise=0"};
        QTest::newRow("kappa huge") << QStringList{"data.kappa_sigma=1e6", "data.kappa_m=1e6",
                                                   "init=spectral", "preconditioner=scaled"};
        QTest::newRow("batch > P") << QStringList{"optimizer=sgd", "batch=1000"};
        QTest::newRow("log_every > iterations") << QStringList{"log_every=1000"};
        QTest::newRow("renormalize every step") << QStringList{"renormalize_every=1"};
        QTest::newRow("power eps 0") << QStringList{"regularizer=power", "epsilon=0"};
        QTest::newRow("fresh data") << QStringList{"data.fresh=true", "optimizer=adam", "lr=0.01"};
    }
    void degenerateButValid() {
        QFETCH(QStringList, sets);
        std::vector<std::pair<std::string, std::string>> kv;
        for (const QString& s : sets)
            kv.emplace_back(s.section('=', 0, 0).toStdString(), s.section('=', 1).toStdString());
        const Outcome o = runWith(kv);
        QVERIFY2(o.built, o.error.c_str());
        QVERIFY2(o.result.status == RunStatus::Completed || o.result.status == RunStatus::Diverged,
                 o.result.message.c_str());
        QVERIFY(!o.result.history.rows.empty() || o.result.status == RunStatus::Diverged);
        if (o.result.status == RunStatus::Diverged) QVERIFY(!o.result.message.empty());
        QVERIFY(o.result.finalParams.allFinite());
    }

    void hugeStepsDivergeWithAMessage_data() {
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("lr huge") << QStringList{"lr=1e6", "init_scale=2", "iterations=500"};
        QTest::newRow("early") << QStringList{"lr=1e6", "init_scale=1000", "iterations=100"};
    }
    void hugeStepsDivergeWithAMessage() {
        QFETCH(QStringList, sets);
        std::vector<std::pair<std::string, std::string>> kv;
        for (const QString& s : sets)
            kv.emplace_back(s.section('=', 0, 0).toStdString(), s.section('=', 1).toStdString());
        const Outcome o = runWith(kv);
        QVERIFY(o.built);
        QCOMPARE(o.result.status, RunStatus::Diverged);
        QVERIFY(o.result.divergedAt >= 1);
        QVERIFY(!o.result.history.rows.empty());  // iteration 0 at least
        QVERIFY(o.result.finalParams.allFinite());
    }

    void invalidValuesRefused_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("NaN") << "lr"
                             << "NaN";
        QTest::newRow("Inf") << "lambda"
                             << "Infinity";
        QTest::newRow("-inf") << "data.noise"
                              << "-inf";
        QTest::newRow("n=0") << "data.n"
                             << "0";
        QTest::newRow("seed -1") << "seed"
                                 << "-1";
        QTest::newRow("seed 2^64") << "seed"
                                   << "18446744073709551616";
        QTest::newRow("d=0") << "data.d"
                             << "0";
        QTest::newRow("empty") << "iterations"
                               << "";
        QTest::newRow("hex") << "iterations"
                             << "0x10";
    }
    void invalidValuesRefused() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        Config c;
        const auto e = c.setText(key.toStdString(), value.toStdString());
        QVERIFY(e);
        QVERIFY(QString::fromStdString(e->message).contains(key));
    }

    void memoryBeyondTheMachineIsRefusedUpFront() {
        for (const auto& exp : experiments()) {
            Config c;
            c.setText("experiment", exp.name);
            (void)validateConfig(c);  // defaults of every experiment are valid
            QVERIFY2(validateConfig(c).empty(), exp.name.c_str());
        }
        Config c;
        c.setText("data.n", "1048576");
        c.setText("data.prompts", "100000");
        const auto errors = validateConfig(c);
        QVERIFY(!errors.empty());
        QVERIFY(QString::fromStdString(errors[0].message).contains("GiB"));
        std::string err;
        QVERIFY(!makeTrainer(c, &err));
        QVERIFY(QString::fromStdString(err).contains("GiB"));
    }

    void sweepCancelledMidwayKeepsFinishedRows() {
        PlanError pe;
        auto plan = parsePlan(R"({"config": {"data.n": 8, "data.prompts": 2, "iterations": 200000,
                                             "log_every": 1000}, "runs": [{"name": "r"}]})",
                              "p", {}, &pe);
        QVERIFY(plan);
        SweepSpec sweep;
        sweep.vary = {{"iterations", {"5", "6", "200000000"}}};
        std::string err;
        auto points = expandSweep(*plan, sweep, &err);
        QVERIFY(points);
        RunControl control;
        PlanRunOptions o;
        o.jobs = 1;
        o.control = &control;
        o.progress = [&](const ProgressEvent& e) {
            if (e.runIndex == 2 && e.iteration >= 1000) control.requestStop();
        };
        const auto outcomes = runPlanned(*points, "p", o);
        QCOMPARE(outcomes.size(), std::size_t(3));
        QCOMPARE(outcomes[0].result.status, RunStatus::Completed);
        QCOMPARE(outcomes[1].result.status, RunStatus::Completed);
        QCOMPARE(outcomes[2].result.status, RunStatus::Cancelled);
        QVERIFY(!outcomes[2].result.history.rows.empty());
        QVERIFY(sweepCsv(outcomes).find("cancelled") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestExtremes)
#include "tst_extremes.moc"
