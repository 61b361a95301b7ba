// Configuration keys, preset files, .npy and CSV round trips.
#include <QtTest>

#include "config/Config.h"
#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "io/Npy.h"
#include "output/RunOutput.h"
#include "plan/Preset.h"

using namespace ade;

class TestConfig : public QObject {
    Q_OBJECT
  private slots:
    // A key says whether its value changes the cost of an iteration (the GUI's time estimate
    // reuses a measured rate across such keys); shapes and methods do.
    void keysSayWhetherTheyChangeTheCost() {
        const auto& r = ParamRegistry::instance();
        for (const char* k : {"seed", "iterations", "lr", "lambda", "data.kappa_sigma",
                              "precond.damping", "temperature"})
            QVERIFY2(r.find(k) && r.find(k)->costNeutral, k);
        for (const char* k : {"data.n", "data.prompts", "optimizer", "regularizer", "precision",
                              "batch"})
            QVERIFY2(r.find(k) && !r.find(k)->costNeutral, k);
    }

    void defaultsAreValid() {
        Config c;
        QVERIFY(validateConfig(c).empty());
        QCOMPARE(c.getInt("data.n"), 64);
        QCOMPARE(c.experiment(), std::string("a"));
    }

    void badValuesNameKeyValueAndAllowed_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expect");
        QTest::newRow("negative n") << "data.n"
                                    << "-3"
                                    << "an integer in [1,";
        QTest::newRow("not a number") << "lr"
                                      << "fast"
                                      << "not a number";
        QTest::newRow("nan") << "lr"
                             << "nan"
                             << "not a finite number";
        QTest::newRow("inf") << "lambda"
                             << "inf"
                             << "not a finite number";
        QTest::newRow("fraction for int") << "iterations"
                                          << "2.5"
                                          << "not an integer";
        QTest::newRow("huge int") << "seed"
                                  << "99999999999999999999999"
                                  << "too large";
        QTest::newRow("bad choice") << "optimizer"
                                    << "lbfgs"
                                    << "one of gd, sgd, adam, sde";
        QTest::newRow("bad bool") << "data.fresh"
                                  << "maybe"
                                  << "true or false";
        QTest::newRow("zero init scale") << "init_scale"
                                         << "0"
                                         << "(0,";
        QTest::newRow("unknown key") << "data.m"
                                     << "3"
                                     << "unknown key 'data.m'";
    }
    void badValuesNameKeyValueAndAllowed() {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, expect);
        Config c;
        const auto before = c.toJson();
        const auto e = c.setText(key.toStdString(), value.toStdString());
        QVERIFY(e);
        const QString msg = QString::fromStdString(e->message);
        QVERIFY2(msg.contains(expect), qPrintable(msg));
        if (!msg.contains("unknown key")) {
            QVERIFY2(msg.contains(key) && msg.contains(value), qPrintable(msg));
        }
        QVERIFY(c.toJson() == before);  // nothing changed
    }

    void integerLimitsAndAliases() {
        Config c;
        QVERIFY(!c.setText("seed", "9223372036854775807"));
        QCOMPARE(c.getInt("seed"), INT64_MAX);
        QVERIFY(!c.setText("seed", "0"));
        QVERIFY(!c.setText("iterations", "1e3"));
        QCOMPARE(c.getInt("iterations"), 1000);
        QVERIFY(!c.setText("step", "0.25"));  // alias of lr
        QCOMPARE(c.getReal("lr"), 0.25);
        QVERIFY(!c.setText("preconditioner", "true"));
        QCOMPARE(c.getString("preconditioner"), std::string("scaled"));
        QVERIFY(!c.setJson("preconditioner", false));
        QCOMPARE(c.getString("preconditioner"), std::string("none"));
    }

    void crossKeyValidation() {
        Config c;
        c.setText("data.d", "3");
        c.setText("data.k", "2");
        c.setText("data.rank", "3");
        auto errors = validateConfig(c);
        QVERIFY(!errors.empty());
        QVERIFY(QString::fromStdString(errors[0].message).contains("min(d, k) = 2"));
        Config big;
        big.setText("data.n", "1000000");
        big.setText("data.prompts", "1000000");
        errors = validateConfig(big);
        QVERIFY(!errors.empty());
        QVERIFY(QString::fromStdString(errors[0].message).contains("GiB"));
    }

    void nestedJsonFlattens() {
        PlanError err;
        const auto plan =
            parsePlan(R"({"data": {"n": 33, "noise": 0.2}, "lr": 0.1})", "flat", {}, &err);
        QVERIFY2(plan, err.message.c_str());
        QCOMPARE(plan->runs.size(), std::size_t(1));
        QCOMPARE(plan->runs[0].config.getInt("data.n"), 33);
        QCOMPARE(plan->runs[0].config.getReal("data.noise"), 0.2);
    }

    void malformedDocumentsGiveLineAndColumn() {
        PlanError err;
        QVERIFY(!parsePlan("{\n  \"lr\": 0.1,\n  \"data.n\": ,\n}", "bad.json", {}, &err));
        QVERIFY2(QString::fromStdString(err.message).contains("line 3"), err.message.c_str());
        QVERIFY(QString::fromStdString(err.message).contains("column"));
        QVERIFY(!parsePlan("[1, 2]", "arr.json", {}, &err));
        QVERIFY(!parsePlan(R"({"runs": []})", "r.json", {}, &err));
        QVERIFY(!parsePlan(R"({"runs": [{"name": "a"}, {"name": "a"}]})", "r.json", {}, &err));
        QVERIFY(QString::fromStdString(err.message).contains("duplicate"));
        QVERIFY(!parsePlan(R"({"runs": [{"name": "../x"}]})", "r.json", {}, &err));
        QVERIFY(!parsePlan(R"({"config": {"lr": "abc"}})", "r.json", {}, &err));
        QVERIFY(!parsePlan(R"({"config": 3})", "r.json", {}, &err));
        QVERIFY(!parsePlan(
            R"({"runs": [{"name": "a", "config": {"init": "same", "init_from": "zz"}}]})", "r.json",
            {}, &err));
        QVERIFY(QString::fromStdString(err.message).contains("init_from"));
        QVERIFY(
            !parsePlan(R"({"config": {}, "sweep": {"vary": {"data.n": []}}})", "s.json", {}, &err));
        QVERIFY(!parsePlan("", "empty.json", {}, &err));
        QVERIFY(!parsePlan("{\"lr\": 1e999}", "big.json", {}, &err));
    }

    void unknownKeysCollectedWhenAsked() {
        PlanError err;
        std::vector<std::string> unknown;
        const auto plan = parsePlan(R"({"config": {"lr": 0.1, "future_knob": 3}, "colour": "red"})",
                                    "u", {}, &err, &unknown);
        QVERIFY2(plan, err.message.c_str());
        QCOMPARE(unknown.size(), std::size_t(2));
        QVERIFY(!parsePlan(R"({"config": {"lr": 0.1, "future_knob": 3}})", "u", {}, &err));
    }

    void everyShippedPresetLoads() {
        const PresetLibrary lib(PresetLibrary::defaultDirectories(""));
        QVERIFY(lib.entries().size() >= 4);
        for (const auto& e : lib.entries()) {
            PlanError err;
            const auto plan = lib.load(e.name, {}, &err);
            QVERIFY2(plan, err.message.c_str());
            QVERIFY2(!e.description.empty(), e.name.c_str());
            QVERIFY2(!plan->about.empty(), e.name.c_str());
        }
        for (const char* name :
             {"a-spectral-vs-random", "a-same-start", "a-ablation", "a-scaling-n"})
            QVERIFY2(lib.find(name), name);
    }

    void overridesApplyToEveryRun() {
        const PresetLibrary lib(PresetLibrary::defaultDirectories(""));
        PlanError err;
        const auto plan = lib.load("a-spectral-vs-random", {"iterations=7", "data.n=16"}, &err);
        QVERIFY2(plan, err.message.c_str());
        for (const auto& r : plan->runs) {
            QCOMPARE(r.config.getInt("iterations"), 7);
            QCOMPARE(r.config.getInt("data.n"), 16);
        }
        QVERIFY(!lib.load("a-spectral-vs-random", {"nokey=1"}, &err));
        QVERIFY(!lib.load("a-spectral-vs-random", {"iterations"}, &err));
        QVERIFY(!lib.load("no-such-preset", {}, &err));
        QVERIFY(QString::fromStdString(err.message).contains("a-spectral-vs-random"));
    }

    void npyRoundTrip() {
        NamedArray a;
        a.name = "x";
        a.shape = {2, 3, 4};
        for (int i = 0; i < 24; ++i)
            a.values.push_back(i * 0.1 - 1.0 / 3.0);
        const std::string bytes = encodeNpy(a);
        QCOMPARE(bytes.size() % 64, std::size_t(24 * 8 % 64));  // header padded to 64
        std::string err;
        const auto b = decodeNpy(bytes, &err);
        QVERIFY2(b, err.c_str());
        QVERIFY(b->shape == a.shape);
        QVERIFY(b->values == a.values);
        // Truncations and garbage are rejected, never over-read.
        for (std::size_t cut = 0; cut < bytes.size(); cut += 7)
            QVERIFY(!decodeNpy(bytes.substr(0, cut), &err));
        QVERIFY(!decodeNpy("garbage", &err));
    }

    void csvRoundTripIsExact() {
        MetricHistory h;
        h.columns = {"iteration", "x"};
        h.rows = {{0, 0.1}, {5, 1.0 / 3.0}, {10, 1e-300}, {11, NAN}};
        const std::string csv = historyCsv(h);
        QStringList lines = QString::fromStdString(csv).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines[0], QString("iteration,x"));
        QCOMPARE(lines[2].split(',')[1].toDouble(), 1.0 / 3.0);
        QCOMPARE(lines[3].split(',')[1].toDouble(), 1e-300);
        QCOMPARE(lines[4].split(',')[1], QString("nan"));
    }
};

QTEST_APPLESS_MAIN(TestConfig)
#include "tst_config.moc"
