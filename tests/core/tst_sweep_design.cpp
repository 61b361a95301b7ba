// Sweep designs (core/sweep): every value form and its errors, the grid expansion and its
// names, random samples (reproducible, in range, log-uniform), the design's JSON, and the
// ranking of configs by an objective.
#include <QtTest>

#include <cmath>
#include <set>

#include "Configs.h"
#include "output/RunOutput.h"
#include "plan/Preset.h"
#include "sweep/Sweep.h"

using namespace ade;

namespace {

Plan twoRunPlan() {
    PlanError pe;
    auto plan = parsePlan(R"({"config": {"experiment": "a", "data.n": 8, "data.prompts": 2,
                                         "iterations": 10, "seed": 5},
                              "runs": [{"name": "p"}, {"name": "q", "config": {"lr": 0.1}}]})",
                          "t", {}, &pe);
    if (!plan) qFatal("plan: %s", pe.message.c_str());
    return *plan;
}

QString parseError(const std::string& text) {
    std::string err;
    const auto a = parseAxis(text, &err);
    return a ? QString("(parsed)") : QString::fromStdString(err);
}

RunOutcome outcome(const std::string& label, const std::string& value, int seed, double y,
                   RunStatus status = RunStatus::Completed) {
    RunOutcome o;
    o.run.name = label + "_lr=" + value + "_seed" + std::to_string(seed);
    o.run.label = label;
    o.run.varied = {{"lr", value}};
    o.run.config = adetest::tinyA(10, {{"seed", std::to_string(seed)}});
    o.result.status = status;
    o.result.history.columns = {"iteration", "excess_risk"};
    o.result.history.rows = {{0, 10 * y}, {10, y}};
    return o;
}

}  // namespace

class TestSweepDesign : public QObject {
    Q_OBJECT

  private slots:
    void listForm() {
        std::string err;
        const auto a = parseAxis("data.n=8, 16,32", &err);
        QVERIFY2(a, err.c_str());
        QCOMPARE(a->key, std::string("data.n"));
        QCOMPARE(a->kind, AxisSpec::Kind::List);
        QCOMPARE(a->values, (std::vector<std::string>{"8", "16", "32"}));
        QCOMPARE(axisText(*a), std::string("8,16,32"));
        // Alias keys come back canonical; the key may be given apart.
        const auto b = parseAxis("0.1,0.2", &err, "step");
        QVERIFY2(b, err.c_str());
        QCOMPARE(b->key, std::string("lr"));
        // Choices are lists too.
        const auto c = parseAxis("optimizer=gd,sgd", &err);
        QVERIFY2(c, err.c_str());
        QCOMPARE(c->values.size(), std::size_t(2));
    }

    void linearAndLogForms() {
        std::string err;
        const auto lin = parseAxis("lambda=lin:0:1:5", &err);
        QVERIFY2(lin, err.c_str());
        QCOMPARE(lin->kind, AxisSpec::Kind::Linear);
        QCOMPARE(lin->values, (std::vector<std::string>{"0", "0.25", "0.5", "0.75", "1"}));
        QCOMPARE(axisText(*lin), std::string("lin:0:1:5"));
        const auto lg = parseAxis("lr=log:1e-3:1e-1:3", &err);
        QVERIFY2(lg, err.c_str());
        QCOMPARE(lg->kind, AxisSpec::Kind::Log);
        QCOMPARE(lg->values.size(), std::size_t(3));
        QCOMPARE(lg->values.front(), std::string("0.001"));
        QCOMPARE(lg->values[1], std::string("0.01"));  // inner values: 6 significant digits
        QCOMPARE(parseAxis("lr=log:0.05:0.5:3", &err)->values[1], std::string("0.158114"));
        QCOMPARE(lg->values.back(), std::string("0.1"));
        QCOMPARE(axisText(*lg), std::string("log:0.001:0.1:3"));
        // Integer keys are rounded; values that round together are kept once.
        const auto n = parseAxis("data.n=lin:8:10:5", &err);
        QVERIFY2(n, err.c_str());
        QCOMPARE(n->values, (std::vector<std::string>{"8", "9", "10"}));
        const auto logN = parseAxis("data.n=log:16:256:5", &err);
        QVERIFY2(logN, err.c_str());
        QCOMPARE(logN->values, (std::vector<std::string>{"16", "32", "64", "128", "256"}));
    }

    void randomForm() {
        std::string err;
        const auto r = parseAxis("lr=rand:1e-4:1e-1", &err);
        QVERIFY2(r, err.c_str());
        QCOMPARE(r->kind, AxisSpec::Kind::Random);
        QCOMPARE(r->lo, 1e-4);
        QCOMPARE(r->hi, 1e-1);
        QVERIFY(r->values.empty());
        QCOMPARE(axisText(*r), "rand:" + formatNumber(1e-4) + ":0.1");
        QCOMPARE(parseAxis(axisText(*r), &err, "lr")->lo, 1e-4);  // the text reads back
        QVERIFY(axisIsLogUniform(*r));                     // lr is logScale
        QVERIFY(axisIsLogUniform(*parseAxis("lambda=rand:0.5:1", &err)));  // logScale key
        QVERIFY(!axisIsLogUniform(*parseAxis("lambda=rand:0:1", &err)));   // lo = 0: uniform
        // A linear key: log-uniform only when the range spans two decades (hi / lo >= 100).
        QVERIFY(axisIsLogUniform(*parseAxis("adam.beta1=rand:0.009:0.9", &err)));
        QVERIFY(!axisIsLogUniform(*parseAxis("adam.beta1=rand:0.01:0.9", &err)));
    }

    void errorsSayWhatIsWrong_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("no =") << "data.n" << "expected KEY=VALUES";
        QTest::newRow("unknown key") << "nosuch=1,2" << "unknown key 'nosuch'";
        QTest::newRow("no values") << "data.n=" << "no values";
        QTest::newRow("empty item") << "data.n=8,,16" << "empty value";
        QTest::newRow("twice") << "data.n=8,8" << "given twice";
        QTest::newRow("out of range") << "data.n=0,8" << "data.n";
        QTest::newRow("not a number") << "lr=abc" << "lr";
        QTest::newRow("bad choice") << "optimizer=gd,nesterov" << "nesterov";
        QTest::newRow("lin missing count") << "lr=lin:0:1" << "expected lin:LO:HI:N";
        QTest::newRow("lin count 1") << "lr=lin:0:1:1" << "integer in [2, 10000]";
        QTest::newRow("lin reversed") << "lr=lin:1:0:3" << "LO must be below HI";
        QTest::newRow("log non-positive") << "lr=log:0:1:3" << "log: needs LO > 0";
        QTest::newRow("rand extra") << "lr=rand:0:1:3" << "expected rand:LO:HI";
        QTest::newRow("rand range") << "data.n=rand:0:8" << "data.n";
        QTest::newRow("form on a choice") << "optimizer=lin:0:1:3" << "needs a numeric key";
        QTest::newRow("unknown form") << "lr=geo:1:2:3" << "unknown form 'geo:'";
    }
    void errorsSayWhatIsWrong() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString err = parseError(text.toStdString());
        QVERIFY2(err.contains(message), qPrintable(text + " -> " + err));
    }

    void expandCountsAndNames() {
        const Plan plan = twoRunPlan();
        std::string err;
        SweepDesign d;
        d.axes = {*parseAxis("data.n=8,16,32", &err), *parseAxis("lambda=lin:0:1:2", &err)};
        d.seeds = 2;
        const auto tasks = expandDesign(plan, d, &err);
        QVERIFY2(tasks, err.c_str());
        QCOMPARE(tasks->size(), std::size_t(3 * 2 * 2 * 2));  // n x lambda x seeds x runs
        QCOMPARE(tasks->front().name, std::string("p_data.n=8_lambda=0_seed5"));
        QCOMPARE(tasks->at(1).name, std::string("q_data.n=8_lambda=0_seed5"));
        QCOMPARE(tasks->at(2).name, std::string("p_data.n=8_lambda=0_seed6"));
        QCOMPARE(tasks->at(4).name, std::string("p_data.n=16_lambda=0_seed5"));  // first key fastest
        QCOMPARE(tasks->back().name, std::string("q_data.n=32_lambda=1_seed6"));
        std::set<std::string> names;
        for (const auto& t : *tasks) {
            names.insert(t.name);
            QCOMPARE(t.config.getInt("seed"), 5 + t.seedIndex);
            QCOMPARE(std::to_string(t.config.getInt("data.n")), t.varied[0].second);
        }
        QCOMPARE(names.size(), tasks->size());
        // Stable: the same design gives the same tasks.
        const auto again = expandDesign(plan, d, &err);
        for (std::size_t i = 0; i < tasks->size(); ++i)
            QCOMPARE(again->at(i).name, tasks->at(i).name);
        // A plain list design is exactly the preset sweep's expansion.
        SweepSpec spec;
        spec.vary = {{"data.n", {"8", "16", "32"}}, {"lambda", {"0", "1"}}};
        spec.seeds = 2;
        const auto old = expandSweep(plan, spec, &err);
        QCOMPARE(old->size(), tasks->size());
        for (std::size_t i = 0; i < tasks->size(); ++i)
            QCOMPARE(old->at(i).name, tasks->at(i).name);
    }

    void expandErrors() {
        const Plan plan = twoRunPlan();
        std::string err;
        SweepDesign d;
        QVERIFY(!expandDesign(plan, d, &err));
        QVERIFY2(QString::fromStdString(err).contains("at least one key"), err.c_str());
        d.axes = {*parseAxis("lr=rand:0.01:1", &err)};
        QVERIFY(!expandDesign(plan, d, &err));
        QVERIFY2(QString::fromStdString(err).contains("--samples"), err.c_str());
        d.axes = {*parseAxis("lr=0.1,0.2", &err)};
        d.samples = 4;
        QVERIFY(!expandDesign(plan, d, &err));
        QVERIFY2(QString::fromStdString(err).contains("rand:LO:HI"), err.c_str());
        d.samples = 0;
        d.axes.push_back(*parseAxis("lr=0.3", &err));
        QVERIFY(!expandDesign(plan, d, &err));
        QVERIFY2(QString::fromStdString(err).contains("given twice"), err.c_str());
    }

    void randomSamplesReproducibleAndInRange() {
        const Plan plan = twoRunPlan();
        std::string err;
        SweepDesign d;
        d.axes = {*parseAxis("lr=rand:1e-4:1e-1", &err), *parseAxis("optimizer=gd,sgd", &err),
                  *parseAxis("data.n=rand:4:12", &err)};
        d.samples = 200;
        d.sampleSeed = 7;
        const auto s1 = randomSamples(d), s2 = randomSamples(d);
        QCOMPARE(s1.size(), std::size_t(200));
        QCOMPARE(s1, s2);
        d.sampleSeed = 8;
        QVERIFY(randomSamples(d) != s1);
        int lowDecade = 0, highDecade = 0;
        std::set<std::string> ns;
        for (const auto& sample : s1) {
            QCOMPARE(sample.size(), std::size_t(2));
            QCOMPARE(sample[0].first, std::string("lr"));
            const double lr = std::stod(sample[0].second);
            QVERIFY(lr >= 1e-4 && lr <= 1e-1);
            if (lr < 1e-3) ++lowDecade;
            if (lr > 1e-2) ++highDecade;
            const std::string n = sample[1].second;
            QVERIFY(n.find('.') == std::string::npos);  // an integer key is rounded
            QVERIFY(std::stoi(n) >= 4 && std::stoi(n) <= 12);
            ns.insert(n);
        }
        // Log-uniform: each decade of [1e-4, 1e-1] gets about a third (uniform would put 0.1%
        // of the draws below 1e-3).
        QVERIFY2(lowDecade > 40 && lowDecade < 95, qPrintable(QString::number(lowDecade)));
        QVERIFY2(highDecade > 40 && highDecade < 95, qPrintable(QString::number(highDecade)));
        QVERIFY(ns.size() >= 8);
        // Tasks: samples x the list axis x seeds x runs (duplicates of a sample run once).
        d.samples = 5;
        d.sampleSeed = 7;
        d.seeds = 1;
        d.axes.pop_back();
        const auto tasks = expandDesign(plan, d, &err);
        QVERIFY2(tasks, err.c_str());
        QCOMPARE(tasks->size(), std::size_t(5 * 2 * 2));
        QCOMPARE(tasks->front().varied.front().first, std::string("lr"));
        QCOMPARE(tasks->front().varied.front().second, randomSamples(d).front().front().second);
    }

    void designJsonRoundTrip() {
        std::string err;
        SweepDesign d;
        d.axes = {*parseAxis("lr=log:0.001:0.1:3", &err), *parseAxis("lambda=rand:0:2", &err),
                  *parseAxis("optimizer=gd,adam", &err)};
        d.seeds = 3;
        d.samples = 4;
        d.sampleSeed = 99;
        d.objective = {"test_loss", "best", false};
        d.halving = {true, 4, 250};
        d.fitX = "lr";
        d.fitY = "excess_risk";
        const auto back = designFromJson(designToJson(d), &err);
        QVERIFY2(back, err.c_str());
        QCOMPARE(designToJson(*back), designToJson(d));
        QCOMPARE(back->axes[0].values, d.axes[0].values);
        QCOMPARE(back->axes[1].kind, AxisSpec::Kind::Random);
        QCOMPARE(back->halving.eta, 4);
        QCOMPARE(back->objective.lowerIsBetter, false);
        auto bad = designToJson(d);
        bad["axes"][0]["key"] = "nosuch";
        QVERIFY(!designFromJson(bad, &err));
        QVERIFY2(QString::fromStdString(err).contains("nosuch"), err.c_str());
    }

    void aggregateMeanSdRank() {
        std::vector<RunOutcome> outs = {
            outcome("p", "0.1", 1, 3.0), outcome("p", "0.1", 2, 5.0),   // mean 4, sd sqrt 2
            outcome("p", "0.2", 1, 1.0), outcome("p", "0.2", 2, 2.0),   // mean 1.5
            outcome("p", "0.3", 1, 0.5), outcome("p", "0.3", 2, 0.1, RunStatus::Diverged),
        };
        Objective obj{"excess_risk", "final", true};
        auto cs = aggregateConfigs(outs, obj);
        QCOMPARE(cs.size(), std::size_t(3));
        QCOMPARE(cs[0].values.front().second, std::string("0.2"));
        QCOMPARE(cs[0].mean, 1.5);
        QCOMPARE(cs[0].sd, std::sqrt(0.5));
        QCOMPARE(cs[0].seedsDone, 2);
        QCOMPARE(cs[0].perSeed, (std::vector<double>{1.0, 2.0}));
        QCOMPARE(cs[1].values.front().second, std::string("0.1"));
        QCOMPARE(cs[1].mean, 4.0);
        QCOMPARE(cs[1].sd, std::sqrt(2.0));
        // A config with a diverged seed ranks after those without, though its mean is lowest.
        QCOMPARE(cs[2].values.front().second, std::string("0.3"));
        QCOMPARE(cs[2].seedsFailed, 1);
        QCOMPARE(cs[2].mean, 0.5);
        QCOMPARE(cs[2].sd, 0.0);
        // Higher is better: reversed among the clean configs.
        obj.lowerIsBetter = false;
        cs = aggregateConfigs(outs, obj);
        QCOMPARE(cs[0].values.front().second, std::string("0.1"));
        // stat "initial"-like: best with higher better is the maximum (10 * y at iteration 0).
        obj = {"excess_risk", "best", false};
        cs = aggregateConfigs(outs, obj);
        QCOMPARE(cs[0].mean, 40.0);
        // Empty metric = the experiment's headline metric (excess risk for Experiment A).
        obj = {"", "final", true};
        QCOMPARE(objectiveMetric(obj, outs[0]), std::string("excess_risk"));
        QCOMPARE(aggregateConfigs(outs, obj)[0].mean, 1.5);
        // A metric the runs lack: no value, every config last in the sweep's order.
        obj = {"nosuch", "final", true};
        cs = aggregateConfigs(outs, obj);
        QVERIFY(std::isnan(cs[0].mean));
        QCOMPARE(cs[0].values.front().second, std::string("0.1"));
        // A config that ran a larger budget (a later halving rung) ranks before the others,
        // whatever its value; only its largest budget counts.
        RunOutcome deeper = outcome("p", "0.9", 1, 100.0), early = outcome("p", "0.9", 1, 0.01);
        deeper.run.config.setJson("iterations", 20);
        deeper.run.name += "_r1";
        early.run.name += "_r0";
        outs.push_back(early);
        outs.push_back(deeper);
        cs = aggregateConfigs(outs, {"excess_risk", "final", true});
        QCOMPARE(cs[0].values.front().second, std::string("0.9"));
        QCOMPARE(cs[0].iterations, 20L);
        QCOMPARE(cs[0].rung, 1);
        QCOMPARE(cs[0].mean, 100.0);
        QCOMPARE(cs[1].values.front().second, std::string("0.2"));
        // Negative control of the budget rule: the survivor of the last rung with one diverged
        // seed still ranks before a clean config stopped at an earlier rung, whose (better)
        // value was measured at a smaller budget and does not compare.
        RunOutcome diverged = outcome("p", "0.9", 2, 0.0);
        diverged.run.config.setJson("iterations", 20);
        diverged.run.name += "_r1";
        diverged.result.status = RunStatus::Diverged;
        outs.push_back(diverged);
        cs = aggregateConfigs(outs, {"excess_risk", "final", true});
        QCOMPARE(cs[0].values.front().second, std::string("0.9"));
        QCOMPARE(cs[0].iterations, 20L);
        QCOMPARE(cs[0].seedsFailed, 1);
        QCOMPARE(cs[1].values.front().second, std::string("0.2"));  // clean, at 10 iterations
        QCOMPARE(cs[1].seedsFailed, 0);
    }

    void halvingBudgetsFollowEta() {
        HalvingSpec h{true, 3, 0};
        QCOMPARE(halvingBudgets(h, 2700, 27), (std::vector<long>{100, 300, 900, 2700}));
        QCOMPARE(halvingBudgets(h, 2700, 9), (std::vector<long>{300, 900, 2700}));  // 9 -> 3 -> 1
        QCOMPARE(halvingBudgets(h, 250, 27), (std::vector<long>{250}));  // too short to halve
        h.minIterations = 20;
        QCOMPARE(halvingBudgets(h, 180, 9), (std::vector<long>{20, 60, 180}));
        h.eta = 2;
        QCOMPARE(halvingBudgets(h, 160, 4), (std::vector<long>{40, 80, 160}));
        QCOMPARE(rungOfTask("p_lr=0.1_seed1_r2"), 2);
        QCOMPARE(rungOfTask("p_lr=0.1_seed1"), -1);
    }
};

QTEST_APPLESS_MAIN(TestSweepDesign)
#include "tst_sweep_design.moc"
