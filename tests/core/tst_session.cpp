// Session files: round trips and every malformed-input path.
#include <QtTest>

#include "experiments/ExperimentRegistry.h"
#include "output/Session.h"
#include "training/Trainer.h"

using namespace ade;

namespace {

Session makeSession() {
    Config c;
    c.setText("data.n", "12");
    c.setText("data.prompts", "3");
    c.setText("iterations", "15");
    c.setText("log_every", "1");
    std::string err;
    auto t = makeTrainer(c, &err);
    const RunResult r = t->run();
    Session s;
    s.preset = "a-same-start";
    s.chartSettings = {{"log_y", true}, {"smoothing", 0.6}};
    SessionRun a = sessionRunFrom("first", c, r);
    a.color = "#0072b2";
    s.runs.push_back(a);
    SessionRun b = sessionRunFrom("second", c, r);
    b.visible = false;
    b.stop = "cap";  // reached its cap before its stopping rule
    b.history.rows[3][4] = std::numeric_limits<double>::quiet_NaN();  // NaN survives as null
    s.runs.push_back(b);
    return s;
}

bool sameRows(const MetricHistory& a, const MetricHistory& b) {
    if (a.columns != b.columns || a.rows.size() != b.rows.size()) return false;
    for (std::size_t i = 0; i < a.rows.size(); ++i)
        for (std::size_t j = 0; j < a.rows[i].size(); ++j) {
            const double x = a.rows[i][j], y = b.rows[i][j];
            if (!(x == y || (std::isnan(x) && std::isnan(y)))) return false;
        }
    return true;
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
  private slots:
    void roundTripIsExact() {
        const Session s = makeSession();
        const auto r = sessionFromText(sessionToText(s));
        QVERIFY2(r.session, r.error.c_str());
        QVERIFY(r.warnings.empty());
        QCOMPARE(r.session->runs.size(), std::size_t(2));
        QCOMPARE(r.session->preset, s.preset);
        QVERIFY(r.session->chartSettings == s.chartSettings);
        for (std::size_t i = 0; i < 2; ++i) {
            const auto& a = s.runs[i];
            const auto& b = r.session->runs[i];
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.color, a.color);
            QCOMPARE(b.visible, a.visible);
            QCOMPARE(b.status, a.status);
            QCOMPARE(b.iterationsDone, a.iterationsDone);
            QCOMPARE(b.stop, a.stop);
            QVERIFY(b.config.toJson() == a.config.toJson());
            QVERIFY(sameRows(a.history, b.history));
            QVERIFY(b.finalParams && b.finalParams->names == a.finalParams->names);
            QVERIFY((*b.finalParams)[1] == (*a.finalParams)[1]);  // bit-exact doubles
            QVERIFY((*b.initialParams)[0] == (*a.initialParams)[0]);
        }
        // Without parameters the file still loads; the runs just cannot be continued.
        const auto light = sessionFromText(sessionToText(s, false));
        QVERIFY(light.session && !light.session->runs[0].finalParams);
    }

    // The recovery writer's pieces (each record and snapshot serialized once, spliced in) give
    // the same session as sessionToText; the loaded preset ("plan") and each run's claim label
    // come back.
    void piecesSplicedInAreTheSameSession() {
        Session s = makeSession();
        s.plan = {{"name", "a-same-start"}, {"runs", nlohmann::json::array()}};
        s.runs[0].claimLabel = "alg1";
        s.runs[1].running = true;
        std::vector<std::string> rows(2);
        std::vector<std::vector<std::string>> snaps(2);
        std::vector<SessionRunTexts> texts;
        for (std::size_t i = 0; i < 2; ++i) {
            QVERIFY(!s.runs[i].snapshots.empty());
            for (const auto& row : s.runs[i].history.rows)
                rows[i] += (rows[i].empty() ? "" : ",") + historyRowText(row);
            for (const auto& snap : s.runs[i].snapshots)
                snaps[i].push_back(snapshotText(snap));
        }
        texts = {{&rows[0], &snaps[0]}, {&rows[1], &snaps[1]}};
        Session light = s;  // the texts stand for the rows and snapshots
        for (auto& run : light.runs) {
            run.history.rows.clear();
            run.snapshots.clear();
        }
        const auto r = sessionFromText(sessionToText(light, texts));
        QVERIFY2(r.session, r.error.c_str());
        QVERIFY(r.warnings.empty());
        QVERIFY(r.session->plan == s.plan);
        QCOMPARE(r.session->runs[0].claimLabel, std::string("alg1"));
        QVERIFY(r.session->runs[1].claimLabel.empty());
        QVERIFY(r.session->runs[1].running);
        const auto whole = sessionFromText(sessionToText(s));
        QVERIFY2(whole.session, whole.error.c_str());
        QVERIFY(whole.session->plan == s.plan);
        for (std::size_t i = 0; i < 2; ++i) {
            const auto& a = whole.session->runs[i];
            const auto& b = r.session->runs[i];
            QVERIFY(sameRows(a.history, b.history));
            QCOMPARE(b.snapshots.size(), a.snapshots.size());
            for (std::size_t k = 0; k < a.snapshots.size(); ++k) {
                QCOMPARE(b.snapshots[k].iteration, a.snapshots[k].iteration);
                QVERIFY(b.snapshots[k].params[0] == a.snapshots[k].params[0]);
            }
            QVERIFY((*b.finalParams)[0] == (*a.finalParams)[0]);
        }
        // No rows and no snapshots yet: still a session.
        std::string none;
        std::vector<std::string> noSnaps;
        const auto empty =
            sessionFromText(sessionToText(light, {{&none, &noSnaps}, {&none, &noSnaps}}));
        QVERIFY2(empty.session, empty.error.c_str());
        QVERIFY(empty.session->runs[0].history.rows.empty());
    }

    void savedParamsContinueTheRun() {
        const Session s = makeSession();
        const auto r = sessionFromText(sessionToText(s));
        std::string err;
        auto t = makeTrainer(r.session->runs[0].config, &err, r.session->runs[0].finalParams);
        QVERIFY(t);
        const RunResult more = t->run();
        QVERIFY(more.initialParams[0] == (*s.runs[0].finalParams)[0]);
    }

    void fileErrors() {
        QTemporaryDir dir;
        std::string err;
        const Session s = makeSession();
        QVERIFY(writeSessionFile(dir.filePath("a b ü.session.json").toStdString(), s, true, &err));
        QVERIFY(readSessionFile(dir.filePath("a b ü.session.json").toStdString()).session);
        QVERIFY(!writeSessionFile("/proc/nope/x.json", s, true, &err));
        QVERIFY(QString::fromStdString(err).contains("/proc/nope"));
        auto r = readSessionFile(dir.filePath("missing.json").toStdString());
        QVERIFY(!r.session && QString::fromStdString(r.error).contains("cannot open"));
        r = readSessionFile(dir.path().toStdString());
        QVERIFY(!r.session && QString::fromStdString(r.error).contains("folder"));
    }

    void malformedSessions_data() {
        QTest::addColumn<QString>("mutation");
        QTest::addColumn<QString>("expect");
        QTest::newRow("empty") << "empty"
                               << "empty";
        QTest::newRow("truncated") << "truncate"
                                   << "parse error";
        QTest::newRow("future version") << "version=99"
                                        << "newer version";
        QTest::newRow("wrong format") << "format"
                                      << "not an attention-explorer session";
        QTest::newRow("short row") << "shortrow"
                                   << "runs[0].history.rows[2]: expected";
        QTest::newRow("text in row") << "textcell"
                                     << "runs[1].history.rows[0][1]: not a number";
        QTest::newRow("bad config value") << "badconfig"
                                          << "runs[0].config";
        QTest::newRow("bad shape") << "badshape"
                                   << "does not match";
        QTest::newRow("duplicate name") << "dupname"
                                        << "duplicate run name";
        QTest::newRow("bad status") << "badstatus"
                                    << "runs[0].status";
        QTest::newRow("runs not array") << "runsobj"
                                        << "runs: missing or not an array";
    }
    void malformedSessions() {
        QFETCH(QString, mutation);
        QFETCH(QString, expect);
        nlohmann::json j = sessionToJson(makeSession());
        std::string text;
        if (mutation == "empty")
            text = "";
        else if (mutation == "truncate")
            text = j.dump().substr(0, j.dump().size() / 2);
        else {
            if (mutation == "version=99") j["version"] = 99;
            if (mutation == "format") j["format"] = "something-else";
            if (mutation == "shortrow") j["runs"][0]["history"]["rows"][2].erase(0);
            if (mutation == "textcell") j["runs"][1]["history"]["rows"][0][1] = "x";
            if (mutation == "badconfig") j["runs"][0]["config"]["data.n"] = -5;
            if (mutation == "badshape") j["runs"][0]["params"]["A"]["rows"] = 7;
            if (mutation == "dupname") j["runs"][1]["name"] = j["runs"][0]["name"];
            if (mutation == "badstatus") j["runs"][0]["status"] = "exploded";
            if (mutation == "runsobj") j["runs"] = nlohmann::json::object();
            text = j.dump();
        }
        const auto r = sessionFromText(text);
        QVERIFY(!r.session);
        QVERIFY2(QString::fromStdString(r.error).contains(expect), r.error.c_str());
    }

    void unknownFieldsAreWarnings() {
        nlohmann::json j = sessionToJson(makeSession());
        j["theme"] = "dark";
        j["runs"][0]["stars"] = 5;
        j["runs"][0]["config"]["future.knob"] = 1;
        const auto r = sessionFromText(j.dump());
        QVERIFY2(r.session, r.error.c_str());
        QCOMPARE(r.warnings.size(), std::size_t(3));
    }
};

QTEST_APPLESS_MAIN(TestSession)
#include "tst_session.moc"
