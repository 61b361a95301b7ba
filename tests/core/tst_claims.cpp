// Claims (core/claims): parsing, each check on histories whose answer is known, seeds, pending
// runs; presets with claims, seeds and quick sizes (core/plan).
#include <QtTest>

#include <cmath>

#include "claims/ClaimStats.h"
#include "claims/Claims.h"
#include "experiments/ExperimentRegistry.h"
#include "plan/PlanRunner.h"
#include "plan/Preset.h"
#include "plan/ScalingModels.h"

using namespace ade;

namespace {

// A history with columns iteration, m; m(iteration) given.
MetricHistory series(int records, int every, const std::function<double(double)>& m) {
    MetricHistory h;
    h.columns = {"iteration", "m"};
    for (int i = 0; i < records; ++i) {
        const double it = static_cast<double>(i * every);
        h.rows.push_back({it, m(it)});
    }
    return h;
}

MetricHistory constant(double v) {
    return series(10, 10, [v](double) { return v; });
}

// Runs "a" and "b" paired by seed, one seed per ratio: a holds the ratio, b holds 1 (the
// histories live in `store`, which the runs point into).
std::vector<ClaimRun> pairedRatioRuns(const std::vector<double>& ratios,
                                      std::vector<MetricHistory>& store) {
    store.clear();
    store.reserve(2 * ratios.size());
    for (double q : ratios) {
        store.push_back(series(3, 1, [q](double) { return q; }));
        store.push_back(series(3, 1, [](double) { return 1.0; }));
    }
    std::vector<ClaimRun> out;
    for (std::size_t i = 0; i < ratios.size(); ++i) {
        out.push_back({"a", static_cast<long long>(i), {}, &store[2 * i], true});
        out.push_back({"b", static_cast<long long>(i), {}, &store[2 * i + 1], true});
    }
    return out;
}

ClaimSpec claim(const std::string& json) {
    std::string error;
    auto c = parseClaim(nlohmann::json::parse(json), &error);
    if (!c) qFatal("%s", error.c_str());
    return *c;
}

std::string parseError(const std::string& json) {
    std::string error;
    const auto c = parseClaim(nlohmann::json::parse(json), &error);
    return c ? std::string("(parsed)") : error;
}

const char* kPreset = R"({
  "name": "t", "description": "d", "about": "a",
  "config": {"experiment": "a", "seed": 5, "iterations": 40,
             "data": {"d": 2, "k": 2, "n": 8, "prompts": 4}},
  "seeds": 3,
  "runs": [{"name": "x", "config": {"lr": 0.1}}, {"name": "y", "config": {"lr": 0.2}}],
  "claims": [{"id": "c1", "text": "x beats y", "paper": "A", "check": "ratio",
              "metric": "train_loss", "run": "x", "other": "y", "max": 1}],
  "quick": {"iterations": 10, "seeds": 2}
})";

}  // namespace

class TestClaims : public QObject {
    Q_OBJECT
  private slots:
    void parsesEachCheckAndRoundTrips() {
        for (
            const char* j :
            {R"({"id":"r","text":"t","paper":"B","check":"ratio","metric":"m","run":"a","other":"b","min":2,"threshold":{"from":"law","why":"w"}})",
             R"({"id":"c","text":"t","paper":"B","check":"close","metric":"m","run":"a","other":"b","stat":"floor","max":0.15})",
             R"({"id":"o","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"a","stat":"floor","other_stat":"initial","min":1.5})",
             R"({"id":"t","text":"t","paper":"B","check":"trend","metric":"m","run":"a","direction":"flat","window":0.5,"max":0.05})",
             R"({"id":"f","text":"t","paper":"A","check":"floor","metric":"m","run":"a","other":"b","tol":0.2,"min":5})",
             R"({"id":"s","text":"t","paper":"A","check":"slope","metric":"m","run":"a","x":"data.n","stat":"floor","min":-2.5,"max":-0.8})"}) {
            const ClaimSpec c = claim(j);
            const ClaimSpec back = claim(toJson(c).dump());
            QCOMPARE(toJson(back), toJson(c));
        }
        // A rising trend without "min" needs only a positive change.
        QCOMPARE(claim(R"({"id":"t","text":"t","paper":"B","check":"trend","metric":"m","run":"a"})").min, 0.0);
    }

    void badClaimsSayWhatIsWrong_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("no id") << R"({"text":"t","paper":"A","check":"ratio","metric":"m","run":"a"})"
                               << "needs an \"id\"";
        QTest::newRow("bad check")
            << R"({"id":"x","text":"t","paper":"A","check":"bigger","metric":"m","run":"a"})"
            << "\"check\" must be one of close, floor, law, rate, ratio, reach, slope, trend";
        QTest::newRow("paper") << R"({"id":"x","text":"t","paper":"C","check":"ratio","metric":"m","run":"a"})"
                               << "\"paper\" must be \"A\" or \"B\"";
        QTest::newRow("ratio without other") << R"({"id":"x","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","min":2})"
                                             << "needs \"other\"";
        QTest::newRow("close without max") << R"({"id":"x","text":"t","paper":"A","check":"close","metric":"m","run":"a","other":"b"})"
                                           << "needs \"max\"";
        QTest::newRow("threshold without why")
            << R"({"id":"x","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":2,"threshold":{"from":"choice"}})"
            << "\"threshold\" must be {\"from\"";
        QTest::newRow("threshold from nowhere")
            << R"({"id":"x","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":2,"threshold":{"from":"intuition","why":"w"}})"
            << "\"paper\" | \"law\" | \"choice\"";
        QTest::newRow("close with min")
            << R"({"id":"x","text":"t","paper":"A","check":"close","metric":"m","run":"a","other":"b","min":-0.1,"max":0.1})"
            << "close is symmetric";
        QTest::newRow("field of another check") << R"({"id":"x","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":2,"window":0.5})"
                                                << "unknown field 'window' for a ratio check";
        QTest::newRow("min above max") << R"({"id":"x","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":3,"max":2})"
                                       << "\"min\" is above \"max\"";
        QTest::newRow("window") << R"({"id":"x","text":"t","paper":"A","check":"trend","metric":"m","run":"a","window":1.5})"
                                << "\"window\" must be a fraction in (0, 1]";
        QTest::newRow("law without law")
            << R"({"id":"x","text":"t","paper":"B","check":"law","metric":"m","run":"a","min":0.75})"
            << "needs \"law\"";
        QTest::newRow("slope without x") << R"({"id":"x","text":"t","paper":"A","check":"slope","metric":"m","run":"a","min":-2})"
                                         << "needs \"x\"";
    }
    void badClaimsSayWhatIsWrong() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        const QString got = QString::fromStdString(parseError(json.toStdString()));
        QVERIFY2(got.contains(message), qPrintable(got));
        std::string error;
        QVERIFY(!parseClaims(nlohmann::json::parse(R"([{"id":"a","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":1},
                                                      {"id":"a","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":1}])"),
                             &error));
        QVERIFY(QString::fromStdString(error).contains("duplicate id 'a'"));
    }

    void lineFitAgreesWithAnIndependentComputation() {
        // Reference: Python's statistics.linear_regression and the textbook standard error.
        const LineFit f = fitLine({1, 2, 3, 4, 5}, {2.1, 3.9, 6.2, 7.8, 10.1});
        QVERIFY(std::fabs(f.slope - 1.99) < 1e-12);
        QVERIFY(std::fabs(f.intercept - 0.05) < 1e-12);
        QVERIFY(std::fabs(f.slopeSe - 0.059721576223896594) < 1e-12);
        QVERIFY(std::fabs(f.ci95 - 3.182 * 0.059721576223896594) < 1e-12);
        QVERIFY(std::fabs(f.r2 - 0.9973053289009772) < 1e-12);
        QCOMPARE(studentT975(1), 12.706);
        QVERIFY(std::fabs(studentT975(60) - 2.0003) < 2e-3);
        QVERIFY(std::fabs(studentT975(1000) - 1.9623) < 2e-3);
    }

    void ratioOverSeedsGivesMeanSpreadAndVerdict() {
        const ClaimSpec c = claim(
            R"({"id":"r","text":"t","paper":"B","check":"ratio","metric":"m","run":"a","other":"b","min":2})");
        const MetricHistory a1 = constant(6), a2 = constant(5), a3 = constant(4), b = constant(2);
        std::vector<ClaimRun> runs = {{"a", 1, {}, &a1, true}, {"a", 2, {}, &a2, true},
                                      {"a", 3, {}, &a3, true}, {"b", 1, {}, &b, true},
                                      {"b", 2, {}, &b, true},  {"b", 3, {}, &b, true}};
        ClaimResult r = evaluateClaim(c, runs);
        QCOMPARE(r.status, ClaimStatus::Holds);
        QCOMPARE(r.seeds, 3);
        QCOMPARE(r.value, 2.5);
        QCOMPARE(r.sd, 0.5);
        QCOMPARE(r.lo, 2.0);
        QCOMPARE(r.hi, 3.0);
        QVERIFY2(QString::fromStdString(r.measured).contains("ratio 2.5 ± 0.5 (3 seeds, 2 to 3)"),
                 r.measured.c_str());
        // Runs that reached their iteration cap before their stopping rule: the verdict is the
        // numbers', and the claim says how many of its runs were not converged.
        QCOMPARE(r.capped, 0);
        QVERIFY(!QString::fromStdString(r.measured).contains("cap"));
        runs[1].capped = runs[4].capped = true;
        r = evaluateClaim(c, runs);
        QCOMPARE(r.status, ClaimStatus::Holds);
        QCOMPARE(r.capped, 2);
        QVERIFY2(QString::fromStdString(r.measured)
                     .contains("2 of 6 runs reached their iteration cap before the stopping rule"),
                 r.measured.c_str());
        runs[1].capped = runs[4].capped = false;
        // One seed short of the bar: the claim does not hold, and says for how many seeds.
        const MetricHistory low = constant(3.8);
        runs[2].history = &low;
        r = evaluateClaim(c, runs);
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        QCOMPARE(r.seedsInRange, 2);
        QVERIFY2(QString::fromStdString(r.measured).contains("2/3 seeds in range"),
                 r.measured.c_str());
        // A run still going: pending, with the number so far.
        runs[0].finished = false;
        r = evaluateClaim(c, runs);
        QCOMPARE(r.status, ClaimStatus::Pending);
        QVERIFY(r.value > 2);
        // A run without a record yet (columns not even known): waiting, not missing.
        const MetricHistory empty;
        std::vector<ClaimRun> starting = {{"a", 1, {}, &empty, false}, {"b", 1, {}, &b, false}};
        r = evaluateClaim(c, starting);
        QCOMPARE(r.status, ClaimStatus::Pending);
        QCOMPARE(r.measured, std::string("waiting for data"));
        // A run or metric missing: unavailable, saying which.
        runs.resize(3);
        r = evaluateClaim(c, runs);
        QCOMPARE(r.status, ClaimStatus::Unavailable);
        QVERIFY(QString::fromStdString(r.detail).contains("no run 'b'"));
    }

    // While runs stream, a paired claim compares them at the last iteration both have reached:
    // a run that is ahead is not measured against one that has only its first record.
    void aRunningPairIsComparedAtTheIterationBothReached() {
        const ClaimSpec c = claim(
            R"({"id":"r","text":"t","paper":"A","check":"ratio","metric":"m","run":"slow","other":"fast","min":1.2})");
        const auto loss = [](double rate) {
            return [rate](double it) { return std::exp(-rate * it); };
        };
        const MetricHistory fast = series(51, 1, loss(0.1));  // iterations 0..50
        const MetricHistory slowStart = series(1, 1, loss(0.001));  // iteration 0 only
        std::vector<ClaimRun> runs = {{"slow", 1, {}, &slowStart, false},
                                      {"fast", 1, {}, &fast, false}};
        ClaimResult r = evaluateClaim(c, runs);
        QCOMPARE(r.status, ClaimStatus::Pending);
        QCOMPARE(r.value, 1.0);  // both at iteration 0
        QCOMPARE(r.seedsInRange, 0);
        // The slow run at iteration 10: compared with the fast one at 10, not at 50.
        const MetricHistory slow10 = series(11, 1, loss(0.001));
        runs[0].history = &slow10;
        r = evaluateClaim(c, runs);
        QVERIFY(std::fabs(r.value - std::exp(-0.01) / std::exp(-1.0)) < 1e-12);
        QCOMPARE(r.seedsInRange, 1);
        // Both finished (one diverged early, say): each compares whole.
        runs[0].finished = runs[1].finished = true;
        r = evaluateClaim(c, runs);
        QVERIFY(std::fabs(r.value - std::exp(-0.01) / std::exp(-5.0)) < 1e-12);
        QCOMPARE(r.status, ClaimStatus::Holds);
    }

    // The explorer's claims read a live run's columns in place (HistoryView over the store's
    // columns, no copy); a finished run's rows are turned into columns. Both read the same
    // records: every statistic of every check agrees, and a view of the first records only
    // (the store's columns while they grow) reads only those.
    void aViewOfColumnsReadsAsTheRowsItWasMadeFrom() {
        const MetricHistory fast = series(200, 5, [](double it) { return 1 + std::exp(-it / 20); });
        const MetricHistory slow = series(200, 5, [](double it) { return 1 + std::exp(-it / 90); });
        std::vector<std::vector<double>> fastCols(2), slowCols(2);
        for (const auto& row : fast.rows)
            for (int c = 0; c < 2; ++c) fastCols[c].push_back(row[c]);
        for (const auto& row : slow.rows)
            for (int c = 0; c < 2; ++c) slowCols[c].push_back(row[c]);
        const auto view = [](const std::vector<std::vector<double>>& cols, std::size_t n) {
            return HistoryView({"iteration", "m"}, {cols[0].data(), cols[1].data()}, n);
        };
        const HistoryView rows(&fast);
        QCOMPARE(rows.size(), std::size_t(200));
        QCOMPARE(rows.column("m"), 1);
        QCOMPARE(rows.column("absent"), -1);
        QCOMPARE(rows.last(0), 995.0);
        QVERIFY(!HistoryView(static_cast<const MetricHistory*>(nullptr)));
        for (const char* spec :
             {R"({"id":"f","text":"t","paper":"A","check":"floor","metric":"m","run":"a","other":"b","tol":0.1,"min":2})",
              R"({"id":"r","text":"t","paper":"A","check":"ratio","metric":"m","run":"b","other":"a","stat":"best","min":1})",
              R"({"id":"c","text":"t","paper":"B","check":"close","metric":"m","run":"a","other":"b","stat":"floor","max":0.15})",
              R"({"id":"t","text":"t","paper":"B","check":"trend","metric":"m","run":"a","direction":"flat","window":0.5,"max":0.05})"}) {
            const ClaimSpec c = claim(spec);
            const ClaimResult fromRows =
                evaluateClaim(c, {{"a", 1, {}, &fast, true}, {"b", 1, {}, &slow, true}});
            const ClaimResult fromColumns = evaluateClaim(
                c, {{"a", 1, {}, view(fastCols, 200), true}, {"b", 1, {}, view(slowCols, 200), true}});
            QCOMPARE(fromColumns.status, fromRows.status);
            QCOMPARE(fromColumns.value, fromRows.value);
            QCOMPARE(fromColumns.detail, fromRows.detail);
            QVERIFY2(fromRows.status != ClaimStatus::Unavailable, fromRows.detail.c_str());
        }
        // The first 50 records of a longer column read as a history of 50 records.
        const MetricHistory first50{fast.columns, {fast.rows.begin(), fast.rows.begin() + 50}};
        const ClaimSpec v = claim(
            R"({"id":"t","text":"t","paper":"B","check":"trend","metric":"m","run":"a","direction":"flat","window":0.5,"max":0.05})");
        QCOMPARE(evaluateClaim(v, {{"a", 1, {}, view(fastCols, 50), false}}).value,
                 evaluateClaim(v, {{"a", 1, {}, &first50, false}}).value);
    }

    void closeUsesTheChosenStatistic() {
        const ClaimSpec c = claim(
            R"({"id":"c","text":"t","paper":"B","check":"close","metric":"m","run":"a","other":"b","stat":"best","max":0.1})");
        const MetricHistory a = series(10, 1, [](double it) { return 1.0 + it; });  // best 1
        const MetricHistory b = series(10, 1, [](double it) { return 1.05 + it; });  // best 1.05
        const ClaimResult r = evaluateClaim(c, {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QCOMPARE(r.status, ClaimStatus::Holds);
        // Signed: a is the lower, so the difference is below 0.
        QVERIFY(std::fabs(r.value + 0.05 / 1.05) < 1e-15);
        QVERIFY2(r.measured.find("relative difference -4.76%") != std::string::npos,
                 r.measured.c_str());
        QVERIFY2(r.measured.find("needs within ±10.0%") != std::string::npos, r.measured.c_str());
        // Swapped, the same gap the other way: +5% of b's 1.
        const ClaimResult s = evaluateClaim(c, {{"a", 1, {}, &b, true}, {"b", 1, {}, &a, true}});
        QVERIFY(std::fabs(s.value - 0.05) < 1e-15);
        QCOMPARE(s.status, ClaimStatus::Holds);
    }

    // "average": the time average over the last half of the records (a stationary SDE run's),
    // against "floor", the mean of the last tenth.
    void averageIsTheMeanOfTheLastHalf() {
        const ClaimSpec avg = claim(
            R"({"id":"a","text":"t","paper":"B","check":"ratio","metric":"m","run":"a","other":"b","stat":"average","min":0.5})");
        const ClaimSpec flo = claim(
            R"({"id":"f","text":"t","paper":"B","check":"ratio","metric":"m","run":"a","other":"b","stat":"floor","min":0.5})");
        // 20 records 0..19: the last half 10..19 averages 14.5, the last tenth 18, 19 → 18.5.
        const MetricHistory a = series(20, 1, [](double it) { return it; });
        const MetricHistory b = constant(2.0);
        const ClaimResult ra = evaluateClaim(avg, {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QVERIFY(std::fabs(ra.value - 14.5 / 2.0) < 1e-15);
        const ClaimResult rf = evaluateClaim(flo, {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QVERIFY(std::fabs(rf.value - 18.5 / 2.0) < 1e-15);
        QCOMPARE(toJson(claim(toJson(avg).dump())), toJson(avg));
    }

    // other_stat: a run's end against its own start (run = other), both numbers named.
    void ratioOfARunsEndToItsOwnStart() {
        const ClaimSpec c = claim(
            R"({"id":"o","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"a","stat":"final","other_stat":"initial","min":1.5})");
        const MetricHistory a = series(10, 1, [](double it) { return 1.0 + it; });  // 1 → 10
        const ClaimResult r = evaluateClaim(c, {{"a", 1, {}, &a, true}});
        QCOMPARE(r.status, ClaimStatus::Holds);
        QCOMPARE(r.value, 10.0);
        QVERIFY2(r.measured.find("ratio final m of a / initial m of a 10") != std::string::npos,
                 r.measured.c_str());
        QVERIFY(
            parseError(
                R"({"id":"o","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"a","other_stat":"last","min":1})")
                .find("\"other_stat\" must be one of") != std::string::npos);
    }

    // Judged on the mean, a close check holds when the signed mean's 95% interval lies in
    // ±max: an equivalence test, so seeds scattered either side of 0 can pass together while a
    // consistent difference fails however small its spread.
    void closeOnTheMeanIsAnEquivalenceTest() {
        const ClaimSpec c = claim(
            R"({"id":"c","text":"t","paper":"B","check":"close","metric":"m","run":"a","other":"b","stat":"final","max":0.1,"judge":"mean"})");
        std::vector<MetricHistory> store;
        // Differences −6%, +6%, −4%, +4%: every one within 10%, the mean 0 ± 2.6%.
        ClaimResult r = evaluateClaim(c, pairedRatioRuns({0.94, 1.06, 0.96, 1.04}, store));
        QCOMPARE(r.status, ClaimStatus::Holds);
        QVERIFY(std::fabs(r.value) < 1e-12);
        // +7%, +9.5%, +9.9%, +8.5%: every seed within 10%, but the mean's interval reaches past it.
        r = evaluateClaim(c, pairedRatioRuns({1.07, 1.095, 1.099, 1.085}, store));
        QCOMPARE(r.seedsInRange, 4);
        QVERIFY(r.meanHi > 0.1);
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
    }

    // Judged on the geometric mean, a ratio that varies by factors across seeds is read on the
    // scale it varies on: one seed at 30 neither carries the claim nor sinks it, as it does the
    // arithmetic mean's interval. Reference (Python, math.log and the t quantile 2.776):
    // ratios 3, 4, 6, 8, 30: geometric mean 7.038964057871046, 95% CI 2.322701014892844 to
    // 21.331637042525777; the arithmetic mean's interval starts at -3.746.
    void geometricMeanJudgesRatiosOnTheirOwnScale() {
        const std::string base =
            R"({"id":"g","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":2)";
        const ClaimSpec geo = claim(base + R"(,"judge":"geomean"})");
        const ClaimSpec mean = claim(base + R"(,"judge":"mean"})");
        std::vector<MetricHistory> store;
        ClaimResult r = evaluateClaim(geo, pairedRatioRuns({3, 4, 6, 8, 30}, store));
        QCOMPARE(r.status, ClaimStatus::Holds);
        QVERIFY(std::fabs(r.geoMean - 7.038964057871046) < 1e-12);
        QVERIFY(std::fabs(r.geoLo - 2.322701014892844) < 1e-12);
        QVERIFY(std::fabs(r.geoHi - 21.331637042525777) < 1e-11);
        QVERIFY2(QString::fromStdString(r.measured).contains("judged on the geometric mean 7.04"),
                 r.measured.c_str());
        r = evaluateClaim(mean, pairedRatioRuns({3, 4, 6, 8, 30}, store));
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        QVERIFY(std::fabs(r.meanLo - (-3.7464648653341506)) < 1e-9);
        // Ratios about 1 (the effect absent): the interval straddles 1 and the claim fails.
        r = evaluateClaim(geo, pairedRatioRuns({0.9, 1.1, 1.0, 1.05}, store));
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        QVERIFY(r.geoLo < 1 && r.geoHi > 1);
        // The same run twice (every ratio exactly 1): an interval that only touches min = 1 shows
        // no effect, on the geometric mean as on the mean.
        const ClaimSpec above1 = claim(
            R"({"id":"g","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":1,"judge":"geomean"})");
        QCOMPARE(evaluateClaim(above1, pairedRatioRuns({1, 1, 1}, store)).status, ClaimStatus::DoesNotHold);
        const ClaimSpec above1Mean = claim(
            R"({"id":"g","text":"t","paper":"A","check":"ratio","metric":"m","run":"a","other":"b","min":1,"judge":"mean"})");
        QCOMPARE(evaluateClaim(above1Mean, pairedRatioRuns({1, 1, 1}, store)).status, ClaimStatus::DoesNotHold);
        QCOMPARE(evaluateClaim(above1, pairedRatioRuns({1.2, 1.3, 1.25}, store)).status, ClaimStatus::Holds);
        // A seed at 0 (e.g. a run that never reaches a common target): no geometric mean, and
        // the claim does not hold rather than dropping the seed.
        r = evaluateClaim(geo, pairedRatioRuns({3, 4, 0, 8}, store));
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        QVERIFY(std::isnan(r.geoMean));
        QVERIFY2(QString::fromStdString(r.measured).contains("a seed's number is 0, negative or undefined"),
                 r.measured.c_str());
        // One seed: no interval, unavailable.
        QCOMPARE(evaluateClaim(geo, pairedRatioRuns({3}, store)).status, ClaimStatus::Unavailable);
        // Signed numbers have no geometric mean: refused when the preset loads.
        QVERIFY(QString::fromStdString(parseError(
                    R"({"id":"x","text":"t","paper":"A","check":"close","metric":"m","run":"a","other":"b","max":0.1,"judge":"geomean"})"))
                    .contains("needs numbers above 0"));
    }

    void trendMeasuresTheEndOfTheRun() {
        // Rises linearly over the last half: relative change = slope·span / mean.
        const MetricHistory up = series(100, 10, [](double it) { return it < 500 ? 5 : 5 + 0.002 * (it - 500); });
        const ClaimSpec rising = claim(
            R"({"id":"t","text":"t","paper":"B","check":"trend","metric":"m","run":"a","window":0.5,"min":0.1})");
        ClaimResult r = evaluateClaim(rising, {{"a", 1, {}, &up, true}});
        QCOMPARE(r.status, ClaimStatus::Holds);
        const double span = 990 - 500, mean = 5 + 0.002 * span / 2;
        QVERIFY(std::fabs(r.value - 0.002 * span / mean) < 1e-12);
        // The same rise is not flat; a noisy level is.
        const ClaimSpec flat = claim(
            R"({"id":"f","text":"t","paper":"B","check":"trend","metric":"m","run":"a","direction":"flat","window":0.5,"max":0.05})");
        QCOMPARE(evaluateClaim(flat, {{"a", 1, {}, &up, true}}).status, ClaimStatus::DoesNotHold);
        const MetricHistory level = series(100, 10, [](double it) { return 4 + 0.01 * std::sin(it); });
        r = evaluateClaim(flat, {{"a", 1, {}, &level, true}});
        QCOMPARE(r.status, ClaimStatus::Holds);
        QVERIFY(std::fabs(r.value) < 0.01);
        // Noise alone is not a significant rise (t < 2), even with a positive slope estimate.
        const ClaimSpec anyRise = claim(
            R"({"id":"t","text":"t","paper":"B","check":"trend","metric":"m","run":"a","window":0.5})");
        QCOMPARE(evaluateClaim(anyRise, {{"a", 1, {}, &level, true}}).status,
                 ClaimStatus::DoesNotHold);
    }

    void lawDividesTheMeasuredRateByTheLawsPrediction() {
        // Experiment B under the SDE: free diffusion predicts s h (2 d d_k − d²) per step for
        // d_k ≥ d, and s h d_k² when d_k < d (the orbit GL(d_k)).
        Config cfg;
        QVERIFY(!cfg.apply(nlohmann::json::parse(
            R"({"experiment": "b", "optimizer": "sde", "temperature": 0.001, "lr": 0.05,
                "data": {"d": 4}, "b": {"dk": 32}})")));
        const double rate = 0.001 * 0.05 * (2 * 4 * 32 - 16);
        Config narrow = cfg;
        QVERIFY(!narrow.apply(nlohmann::json::parse(R"({"b": {"dk": 2}})")));
        const LawInfo* law = findLaw("b", "free_diffusion");
        QVERIFY(law);
        QCOMPARE(law->metric, std::string("norm_sq"));
        QVERIFY(std::fabs(law->perIteration(cfg, nullptr) - rate) < 1e-18);
        QVERIFY(std::fabs(law->perIteration(narrow, nullptr) - 0.001 * 0.05 * 4) < 1e-18);

        const ClaimSpec grows = claim(
            R"({"id":"g","text":"t","paper":"B","check":"law","metric":"m","run":"a","law":"free_diffusion","window":0.5,"min":0.75,"max":1.25})");
        // After a transient, the metric grows at 0.9 and 1.1 times the law's rate.
        const MetricHistory slow =
            series(100, 10, [&](double it) { return it < 300 ? 1 : 1 + 0.9 * rate * (it - 300); });
        const MetricHistory fast =
            series(100, 10, [&](double it) { return it < 300 ? 1 : 1 + 1.1 * rate * (it - 300); });
        ClaimResult r = evaluateClaim(
            grows, {{"a", 1, {}, &slow, true, &cfg}, {"a", 2, {}, &fast, true, &cfg}});
        QCOMPARE(r.status, ClaimStatus::Holds);
        QCOMPARE(r.seeds, 2);
        QVERIFY(std::fabs(r.value - 1.0) < 1e-9);
        QVERIFY(std::fabs(r.lo - 0.9) < 1e-9 && std::fabs(r.hi - 1.1) < 1e-9);
        QVERIFY2(QString::fromStdString(r.measured).contains("the mean's 95% CI"),
                 r.measured.c_str());
        // A level metric: ratio 0, the growth is absent; the claim fails, the absence claim holds.
        const MetricHistory level = constant(7);
        QCOMPARE(evaluateClaim(grows, {{"a", 1, {}, &level, true, &cfg}}).status,
                 ClaimStatus::DoesNotHold);
        const ClaimSpec absent = claim(
            R"({"id":"n","text":"t","paper":"B","check":"law","metric":"m","run":"a","law":"free_diffusion","min":-0.1,"max":0.1})");
        r = evaluateClaim(absent, {{"a", 1, {}, &level, true, &cfg}});
        QCOMPARE(r.status, ClaimStatus::Holds);
        QCOMPARE(r.value, 0.0);
        // Without a config, without noise, or not under the SDE, the law cannot be evaluated.
        QCOMPARE(evaluateClaim(grows, {{"a", 1, {}, &slow, true}}).status,
                 ClaimStatus::Unavailable);
        Config cold = cfg, gd = cfg;
        QVERIFY(!cold.apply(nlohmann::json::parse(R"({"temperature": 0})")));
        QVERIFY(!gd.apply(nlohmann::json::parse(R"({"optimizer": "gd"})")));
        r = evaluateClaim(grows, {{"a", 1, {}, &slow, true, &cold}});
        QCOMPARE(r.status, ClaimStatus::Unavailable);
        QVERIFY2(QString::fromStdString(r.detail).contains("no noise"), r.detail.c_str());
        QCOMPARE(evaluateClaim(grows, {{"a", 1, {}, &slow, true, &gd}}).status,
                 ClaimStatus::Unavailable);
        // Still running: pending, with the number so far.
        r = evaluateClaim(grows, {{"a", 1, {}, &slow, false, &cfg}});
        QCOMPARE(r.status, ClaimStatus::Pending);
        QVERIFY(std::fabs(r.value - 0.9) < 1e-9);
    }

    void floorIterationAndTimesSooner() {
        // e^{-it/τ} + 1: within 10% of the floor (≈ 1) once e^{-it/τ} ≤ 0.1 (a bit above: the
        // floor is the mean of the last tenth).
        const auto decay = [](double tau) {
            return series(200, 5, [tau](double it) { return 1 + std::exp(-it / tau); });
        };
        const MetricHistory fast = decay(20), slow = decay(100);
        const double fastIt = floorIteration(&fast, 1, 0.1), slowIt = floorIteration(&slow, 1, 0.1);
        QCOMPARE(fastIt, 50.0);   // first multiple of 5 with e^{-it/20} ≤ 0.1 + floor excess
        QCOMPARE(slowIt, 235.0);  // likewise for τ = 100
        const ClaimSpec sooner = claim(
            R"({"id":"f","text":"t","paper":"A","check":"floor","metric":"m","run":"a","other":"b","tol":0.1,"min":4})");
        const ClaimResult r =
            evaluateClaim(sooner, {{"a", 1, {}, &fast, true}, {"b", 1, {}, &slow, true}});
        QCOMPARE(r.value, 235.0 / 50.0);
        QCOMPARE(r.status, ClaimStatus::Holds);
        // Reaching the floor at the first record counts as one logging interval, not zero.
        const MetricHistory flat = constant(1);
        const ClaimResult r0 =
            evaluateClaim(sooner, {{"a", 1, {}, &flat, true}, {"b", 1, {}, &slow, true}});
        QCOMPARE(r0.value, 235.0 / 10.0);
    }

    void rateMeasuresTheGeometricContractionPerIterationAndPerPass() {
        // a: gap 0.8^t above a limit of 1, 2.5 data passes per iteration; b: 0.95^t, a quarter
        // pass per iteration. a contracts ln 0.8 / ln 0.95 = 4.35 times faster per iteration,
        // and 0.435 times as fast per data pass.
        auto run = [](double rho, double passesPerIt) {
            MetricHistory h;
            h.columns = {"iteration", "time_s", "m", "data_passes"};
            for (int i = 0; i < 200; ++i) {
                const double it = 5.0 * i;
                h.rows.push_back({it, 0.01 * it, 1 + std::pow(rho, it), passesPerIt * it});
            }
            return h;
        };
        const MetricHistory a = run(0.8, 2.5), b = run(0.95, 0.25);
        const ClaimSpec alone = claim(
            R"({"id":"r","text":"t","paper":"A","check":"rate","metric":"m","run":"a","by":"iteration","tol":0.01,"max":0.95})");
        ClaimResult r = evaluateClaim(alone, {{"a", 1, {}, &a, true}});
        QVERIFY2(std::fabs(r.value - 0.8) < 1e-9, r.measured.c_str());
        QCOMPARE(r.status, ClaimStatus::Holds);
        QVERIFY2(QString::fromStdString(r.measured).contains("contraction per iteration 0.8"),
                 r.measured.c_str());
        QVERIFY2(QString::fromStdString(r.measured).contains("per data pass 0.915"),
                 r.measured.c_str());  // 0.8^(1/2.5)
        const ClaimSpec faster = claim(
            R"({"id":"r","text":"t","paper":"A","check":"rate","metric":"m","run":"a","other":"b","by":"iteration","tol":0.01,"min":1,"control":{"why":"swapped","swap":true}})");
        r = evaluateClaim(faster, {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QVERIFY2(std::fabs(r.value - std::log(0.8) / std::log(0.95)) < 1e-9, r.measured.c_str());
        QCOMPARE(r.status, ClaimStatus::Holds);
        QVERIFY2(QString::fromStdString(r.measured).contains("a 0.8, b 0.95"), r.measured.c_str());
        // Its control, run and other exchanged, must not hold.
        r = evaluateClaim(controlledClaim(faster), {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QVERIFY2(std::fabs(r.value - std::log(0.95) / std::log(0.8)) < 1e-9, r.measured.c_str());
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        // Per data pass the order turns: a pays 2.5 passes an iteration, b a quarter.
        ClaimSpec perPass = faster;
        perPass.by = "data_passes";
        r = evaluateClaim(perPass, {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QVERIFY2(std::fabs(r.value - std::log(0.8) / (10 * std::log(0.95))) < 1e-9,
                 r.measured.c_str());
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        // A run that starts at its limit has no geometric phase: undefined, never "fast".
        const MetricHistory flat = constant(2);
        r = evaluateClaim(alone, {{"a", 1, {}, &flat, true}});
        QVERIFY(std::isnan(r.value));
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        QVERIFY2(QString::fromStdString(r.measured).contains("1 undefined"), r.measured.c_str());
        QVERIFY(parseError(R"({"id":"r","text":"t","paper":"A","check":"rate","metric":"m","run":"a","tol":0,"max":1})")
                    .find("must lie in (0, 1)") != std::string::npos);
        QVERIFY(parseError(R"({"id":"r","text":"t","paper":"A","check":"rate","metric":"m","run":"a"})")
                    .find("rate needs") != std::string::npos);
    }

    void reachComparesACommonTargetInWorkIterationsAndTime() {
        // a: fast per iteration (τ = 20) but 4 data passes per iteration; b: slow (τ = 100),
        // a quarter pass per iteration. Common target: 1.25 × the better floor (≈ 1): a is there
        // at iteration 30 (e^{-1.5} ≤ 0.25), b at 140 (e^{-1.4} ≤ 0.25).
        auto run = [](double tau, double passesPerIt, double secondsPerIt, double offset) {
            MetricHistory h;
            h.columns = {"iteration", "time_s", "m", "data_passes"};
            for (int i = 0; i < 200; ++i) {
                const double it = 5.0 * i;
                h.rows.push_back(
                    {it, secondsPerIt * it, offset + std::exp(-it / tau), passesPerIt * it});
            }
            return h;
        };
        const MetricHistory a = run(20, 4, 0.01, 1), b = run(100, 0.25, 0.001, 1);
        const ClaimSpec byWork = claim(
            R"({"id":"r","text":"t","paper":"A","check":"reach","metric":"m","run":"a","other":"b","tol":0.25,"min":1})");
        QCOMPARE(byWork.by, std::string("data_passes"));
        ClaimResult r = evaluateClaim(byWork, {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QCOMPARE(r.value, (0.25 * 140) / (4.0 * 30));  // sooner in iterations, later in work
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        QVERIFY2(QString::fromStdString(r.measured).contains("iterations 4.67×"),
                 r.measured.c_str());
        QVERIFY2(QString::fromStdString(r.measured).contains("wall time 0.467×"),
                 r.measured.c_str());
        QVERIFY2(QString::fromStdString(r.measured).contains("target 1.25"), r.measured.c_str());
        const ClaimSpec byIterations = claim(
            R"({"id":"r","text":"t","paper":"A","check":"reach","metric":"m","run":"a","other":"b","tol":0.25,"min":4,"by":"iteration"})");
        r = evaluateClaim(byIterations, {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QCOMPARE(r.value, 140.0 / 30.0);
        QCOMPARE(r.status, ClaimStatus::Holds);
        QVERIFY2(QString::fromStdString(r.measured).contains("data passes 0.292×"),
                 r.measured.c_str());
        // A run whose floor is twice the other's never comes down to the common target: it
        // scores 0, never "at its floor".
        const MetricHistory high = run(20, 1, 0.01, 2);
        r = evaluateClaim(byIterations, {{"a", 1, {}, &high, true}, {"b", 1, {}, &b, true}});
        QCOMPARE(r.value, 0.0);
        QCOMPARE(r.status, ClaimStatus::DoesNotHold);
        QVERIFY2(QString::fromStdString(r.measured).contains("a never reaches it in 1 of 1 seeds"),
                 r.measured.c_str());
        // Every claim states the compute its runs used, from their last records: a ran 995
        // iterations, 3980 data passes, 9.95 s; b 995, 249, 0.995 s.
        r = evaluateClaim(byWork, {{"a", 1, {}, &a, true}, {"b", 1, {}, &b, true}});
        QCOMPARE(r.compute.size(), std::size_t(2));
        QCOMPARE(r.compute[0].run, std::string("a"));
        QCOMPARE(r.compute[0].passes, 4.0 * 995);
        QCOMPARE(r.compute[1].seconds, 0.001 * 995);
        QCOMPARE(QString::fromStdString(computeText(r.compute)),
                 QString("a 995 it, 3980 passes, 9.95 s; b 995 it, 249 passes, 0.995 s"));
        // When only the other run never does, its whole run is a lower bound on the ratio.
        r = evaluateClaim(byIterations, {{"a", 1, {}, &b, true}, {"b", 1, {}, &high, true}});
        QCOMPARE(r.value, 995.0 / 140.0);
        QVERIFY2(QString::fromStdString(r.measured).contains("a lower bound"), r.measured.c_str());
        // Parsing: reach needs other and a range; by is one of three columns.
        QVERIFY(
            QString::fromStdString(
                parseError(
                    R"({"id":"r","text":"t","paper":"A","check":"reach","metric":"m","run":"a","min":1})"))
                .contains("reach needs \"other\""));
        QVERIFY(
            QString::fromStdString(
                parseError(
                    R"({"id":"r","text":"t","paper":"A","check":"reach","metric":"m","run":"a","other":"b","min":1,"by":"flops"})"))
                .contains("\"by\" must be"));
        QCOMPARE(toJson(byIterations)["by"].get<std::string>(), std::string("iteration"));
    }

    void slopeFitsEveryPointOfTheSweep() {
        const ClaimSpec c = claim(
            R"({"id":"s","text":"t","paper":"A","check":"slope","metric":"m","run":"a","x":"data.n","stat":"floor","min":-1.6,"max":-1.4})");
        std::vector<MetricHistory> hs;
        std::vector<ClaimRun> runs;
        const double ns[] = {32, 64, 128, 256};
        for (double n : ns)
            for (int seed : {1, 2})  // ±1% multiplicative scatter, opposite per seed
                hs.push_back(constant(3 * std::pow(n, -1.5) * (seed == 1 ? 1.01 : 0.99)));
        int k = 0;
        for (double n : ns)
            for (int seed : {1, 2})
                runs.push_back({"a", seed, {{"data.n", std::to_string(static_cast<int>(n))}}, &hs[k++], true});
        const ClaimResult r = evaluateClaim(c, runs);
        QCOMPARE(r.status, ClaimStatus::Holds);
        QCOMPARE(r.seeds, 8);
        QVERIFY(std::fabs(r.value + 1.5) < 1e-12);  // the scatter is symmetric at every n
        QVERIFY(r.lo < -1.5 && r.hi > -1.5 && r.hi - r.lo < 0.05);
        // The slope is judged on its interval: a band that holds the estimate but not the
        // whole 95% CI does not hold.
        const ClaimSpec tight = claim(
            R"({"id":"s","text":"t","paper":"A","check":"slope","metric":"m","run":"a","x":"data.n","stat":"floor","min":-1.51,"max":-1.49})");
        const ClaimResult t = evaluateClaim(tight, runs);
        QVERIFY(t.lo < -1.51 && t.hi > -1.49);
        QCOMPARE(t.status, ClaimStatus::DoesNotHold);
        // One value of x: no slope.
        runs.resize(2);
        QCOMPARE(evaluateClaim(c, runs).status, ClaimStatus::Unavailable);
    }

    // The law comparison picks the law the points were drawn from: 1/n, n^-2 log^6 n, or a
    // free exponent (then with its interval), each over n = 32..1024 with a ±2% scatter that
    // alternates by seed; on two values of n it does not judge at all.
    void scalingModelsPickTheLawThePointsFollow() {
        auto points = [](const std::function<double(double)>& law) {
            std::vector<std::pair<double, double>> pts;
            for (double n : {32.0, 64.0, 128.0, 256.0, 512.0, 1024.0})
                for (int seed : {0, 1, 2})
                    pts.emplace_back(n, law(n) * (1 + 0.02 * (seed - 1) * (n > 100 ? 1 : -1)));
            return pts;
        };
        const auto inv = compareScalingModels("a", points([](double n) { return 0.3 / n; }));
        QCOMPARE(inv.points, 18);
        QCOMPARE(inv.xs, 6);
        QCOMPARE(inv.models.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(inv.models[inv.best].name), QString("C / x"));
        QVERIFY(std::abs(inv.models[1].logC - std::log(0.3)) < 0.01);
        QVERIFY(inv.models[0].slope - inv.models[0].slopeCi95 < -1 &&
                inv.models[0].slope + inv.models[0].slopeCi95 > -1);
        const auto log6 = compareScalingModels(
            "a",
            points([](double n) { return 1e-4 * std::pow(n, -2) * std::pow(std::log(n), 6); }));
        QCOMPARE(QString::fromStdString(log6.models[log6.best].name), QString("C x^-2 log^6 x"));
        QVERIFY(log6.deltaAicc > 10);  // decisive over 32..1024
        const auto half =
            compareScalingModels("a", points([](double n) { return std::pow(n, -0.5); }));
        QCOMPARE(half.best, 0);
        QVERIFY(std::abs(half.models[0].slope + 0.5) < 0.01);
        double w = 0;
        for (const auto& m : half.models)
            w += m.weight;
        QVERIFY(std::abs(w - 1) < 1e-12);
        const std::string md = scalingComparisonMarkdown(half, "data.n", "excess_risk");
        QVERIFY2(QString::fromStdString(md).contains("Best by AICc: **free power law C x^b**"),
                 md.c_str());
        QVERIFY(compareScalingModels("a", {{32, 1}, {32, 2}, {64, 1}, {64, 2}}).models.empty());
        QVERIFY(scalingComparisonMarkdown(compareScalingModels("a", {}), "n", "e").empty());
    }

    void presetClaimsSeedsAndQuickSizes() {
        PlanError err;
        const auto plan = parsePlan(kPreset, "t", {}, &err);
        QVERIFY2(plan, err.message.c_str());
        QCOMPARE(plan->seeds, 3);
        QCOMPARE(plan->claims.size(), std::size_t(1));
        const auto runs = plainRuns(*plan);
        QCOMPARE(runs.size(), std::size_t(6));
        QCOMPARE(QString::fromStdString(runs[0].name), QString("x_seed5"));
        QCOMPARE(QString::fromStdString(runs[5].name), QString("y_seed7"));
        QCOMPARE(runs[5].label, std::string("y"));
        QCOMPARE(runs[5].seedIndex, 2);
        QCOMPARE(runs[5].config.getInt("seed"), 7);
        const auto quick = quickPlan(*plan, &err);
        QVERIFY2(quick, err.message.c_str());
        QCOMPARE(quick->seeds, 2);
        QCOMPARE(quick->runs[1].config.getInt("iterations"), 10);
        QCOMPARE(quick->runs[1].config.getReal("lr"), 0.2);
        // A preset without quick sizes says why; its quick plan is the plan itself.
        QString noQuick = QString::fromUtf8(kPreset);
        noQuick.replace("\"quick\": {\"iterations\": 10, \"seeds\": 2}",
                        "\"quick\": \"needs long runs.\"");
        const auto slow = parsePlan(noQuick.toStdString(), "t", {}, &err);
        QVERIFY2(slow, err.message.c_str());
        QCOMPARE(slow->quickSkipReason(), std::string("needs long runs."));
        QCOMPARE(quickPlan(*slow, &err)->runs[0].config.getInt("iterations"), 40);
        // The real runs: the claim is checked over both seeds of the quick plan.
        PlanRunOptions o;
        const auto outcomes = runPlanned(plainRuns(*quick), "t", o);
        const ClaimResult r = evaluateClaim(quick->claims[0], claimRuns(outcomes));
        QCOMPARE(r.seeds, 2);
        QVERIFY(r.status == ClaimStatus::Holds || r.status == ClaimStatus::DoesNotHold);
    }

    void presetErrorsNameTheClaim_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown run") << "\"other\": \"y\"" << "\"other\": \"z\""
                                     << "claim 'c1': \"other\" 'z' is not a run of this preset";
        QTest::newRow("metric of no experiment") << "\"train_loss\"" << "\"norm_U\""
                                                 << "metric 'norm_U' is not a metric of Experiment a";
        QTest::newRow("slope without a sweep")
            << "\"check\": \"ratio\"" << "\"check\": \"slope\", \"x\": \"data.n\""
            << "unknown field 'other' for a slope check";
        QTest::newRow("seeds") << "\"seeds\": 3" << "\"seeds\": 0" << "'seeds' must be an integer in [1, 100]";
        QTest::newRow("quick key") << "\"iterations\": 10" << "\"iterationz\": 10" << "quick: run 'x'";
        QTest::newRow("quick reason empty") << "\"quick\": {\"iterations\": 10, \"seeds\": 2}"
                                            << "\"quick\": \"\"" << "a string must say why";
    }
    void presetErrorsNameTheClaim() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        QString text = QString::fromUtf8(kPreset);
        QVERIFY(text.contains(from));
        text.replace(from, to);
        PlanError err;
        QVERIFY(!parsePlan(text.toStdString(), "t", {}, &err));
        QVERIFY2(QString::fromStdString(err.message).contains(message), err.message.c_str());
    }

    void controlsParseAndMakeTheirPlans() {
        auto withControl = [](const std::string& control, const std::string& extraRun = "") {
            QString text = QString::fromUtf8(kPreset);
            text.replace("\"max\": 1}]",
                         QString::fromStdString("\"max\": 1, \"control\": " + control + "}]"));
            if (!extraRun.empty())
                text.replace("{\"name\": \"x\",",
                             QString::fromStdString(extraRun + ", {\"name\": \"x\","));
            return text.toStdString();
        };
        PlanError err;
        // Keys for one run: the claim's runs kept, the plan's other keys unchanged.
        auto plan = parsePlan(
            withControl(R"({"why": "the step of y made that of x", "runs": {"y": {"lr": 0.1}}})"),
            "t", {}, &err);
        QVERIFY2(plan, err.message.c_str());
        QVERIFY(plan->claims[0].control);
        QCOMPARE(plan->claims[0].control->why, std::string("the step of y made that of x"));
        auto cp = controlPlan(*plan, plan->claims[0], &err);
        QVERIFY2(cp, err.message.c_str());
        QCOMPARE(cp->runs.size(), std::size_t(2));
        QCOMPARE(cp->runs[1].config.getReal("lr"), 0.1);
        QCOMPARE(cp->runs[0].config.getInt("iterations"), 40);
        QCOMPARE(cp->claims.size(), std::size_t(1));
        QCOMPARE(cp->claims[0].run, std::string("x"));
        QVERIFY(!cp->claims[0].control);
        QCOMPARE(cp->seeds, 3);
        // On the quick plan the control's keys come last.
        const auto quick = quickPlan(*plan, &err);
        cp = controlPlan(*quick, quick->claims[0], &err);
        QVERIFY2(cp, err.message.c_str());
        QCOMPARE(cp->runs[0].config.getInt("iterations"), 10);
        QCOMPARE(cp->seeds, 2);
        // Keys for every run, and the JSON round trip.
        plan = parsePlan(withControl(R"({"why": "shorter", "config": {"iterations": 7}})"), "t", {},
                         &err);
        QVERIFY2(plan, err.message.c_str());
        QCOMPARE(toJson(plan->claims[0])["control"]["config"]["iterations"].get<int>(), 7);
        cp = controlPlan(*plan, plan->claims[0], &err);
        QCOMPARE(cp->runs[0].config.getInt("iterations"), 7);
        QCOMPARE(cp->runs[1].config.getInt("iterations"), 7);
        // A swap: the claim read the other way, on the same runs.
        plan =
            parsePlan(withControl(R"({"why": "the runs swapped", "swap": true})"), "t", {}, &err);
        QVERIFY2(plan, err.message.c_str());
        QVERIFY(!plan->claims[0].control->needsRuns());
        const ClaimSpec swapped = controlledClaim(plan->claims[0]);
        QCOMPARE(swapped.run, std::string("y"));
        QCOMPARE(swapped.other, std::string("x"));
        // Runs the claim does not compare are dropped, the runs they start from kept.
        plan = parsePlan(
            withControl(
                R"({"why": "the step of x in y", "runs": {"y": {"lr": 0.1, "init": "same", "init_from": "w"}}})",
                R"({"name": "w", "config": {}}, {"name": "v", "config": {}})"),
            "t", {}, &err);
        QVERIFY2(plan, err.message.c_str());
        QCOMPARE(plan->runs.size(), std::size_t(4));
        cp = controlPlan(*plan, plan->claims[0], &err);
        QVERIFY2(cp, err.message.c_str());
        QStringList kept;
        for (const auto& r : cp->runs)
            kept << QString::fromStdString(r.name);
        QCOMPARE(kept, QStringList({"w", "x", "y"}));
    }

    void controlErrorsSayWhatIsWrong_data() {
        QTest::addColumn<QString>("control");
        QTest::addColumn<QString>("message");
        QTest::newRow("no why") << R"({"swap": true})"
                                << "needs \"why\"";
        QTest::newRow("nothing changed") << R"({"why": "w"})"
                                         << "changes nothing";
        QTest::newRow("unknown field") << R"({"why": "w", "swapp": true})"
                                       << "unknown field 'swapp'";
        QTest::newRow("unknown run") << R"({"why": "w", "runs": {"z": {"lr": 1}}})"
                                     << "\"runs\": 'z' is not a run of this preset";
        QTest::newRow("unknown key") << R"({"why": "w", "config": {"iterationz": 3}})"
                                     << "iterationz";
        QTest::newRow("bad value") << R"({"why": "w", "runs": {"x": {"lr": -1}}})"
                                   << "run 'x'";
        QTest::newRow("empty run keys") << R"({"why": "w", "runs": {"x": {}}})"
                                        << "non-empty object";
        QTest::newRow("not an object") << R"("off")"
                                       << "must be an object";
        QTest::newRow("seed") << R"({"why": "w", "runs": {"y": {"seed": 40}}})"
                              << "pairs its runs by seed";
    }
    void controlErrorsSayWhatIsWrong() {
        QFETCH(QString, control);
        QFETCH(QString, message);
        QString text = QString::fromUtf8(kPreset);
        text.replace("\"max\": 1}]", "\"max\": 1, \"control\": " + control + "}]");
        PlanError err;
        QVERIFY(!parsePlan(text.toStdString(), "t", {}, &err));
        QVERIFY2(QString::fromStdString(err.message).contains(message), err.message.c_str());
        QVERIFY2(QString::fromStdString(err.message).contains("c1"), err.message.c_str());
        // A swap needs a check with two runs.
        std::string e;
        QVERIFY(!parseClaim(
            nlohmann::json::parse(
                R"({"id":"t","text":"t","paper":"B","check":"trend","metric":"m","run":"a","min":0.1,"control":{"why":"w","swap":true}})"),
            &e));
        QVERIFY2(QString::fromStdString(e).contains("nothing to swap"), e.c_str());
    }

    void everyShippedClaimHasAControl() {
        const PresetLibrary lib(PresetLibrary::defaultDirectories(""));
        int claims = 0;
        for (const auto& e : lib.entries()) {
            PlanError err;
            const auto plan = lib.load(e.name, {}, &err);
            QVERIFY2(plan, err.message.c_str());
            for (const auto& c : plan->claims) {
                ++claims;
                QVERIFY2(c.control,
                         (e.name + ": claim '" + c.id + "' declares no negative control").c_str());
                QVERIFY2(c.threshold, (e.name + ": claim '" + c.id +
                                       "' does not say where its threshold "
                                       "comes from")
                                          .c_str());
                // A preset without quick sizes gives its controls' sizes: none runs at the
                // preset's full length in the quick report.
                if (!plan->quickSkipReason().empty() && c.control->needsRuns())
                    QVERIFY2(c.control->config.contains("iterations"),
                             (e.name + ": claim '" + c.id + "': control without sizes").c_str());
            }
        }
        QVERIFY(claims >= 30);
    }

    void everyShippedPresetsClaimsAndQuickSizesParse() {
        const PresetLibrary lib(PresetLibrary::defaultDirectories(""));
        for (const auto& e : lib.entries()) {
            PlanError err;
            const auto plan = lib.load(e.name, {}, &err);
            QVERIFY2(plan, err.message.c_str());
            QVERIFY2(quickPlan(*plan, &err), err.message.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestClaims)
#include "tst_claims.moc"
