// Optuna storages read as a sweep (core/sweep/OptunaStudy.h), on files written by Debian's
// python3-optuna at test time (the CTest fixture optuna_storage: tests/core/data/
// make_optuna_study.py): the trials, their decoded params, values, pruned and failed trials,
// intermediate values as curves, the ranking, the journal file read the same as the SQLite
// file, a second study, the files never written, and the messages for files that are not
// Optuna storages.
#include <QtTest>

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sweep/OptunaStudy.h"
#include "sweep/Sweep.h"

using namespace ade;
namespace fs = std::filesystem;

namespace {

fs::path fixture(const char* name) {
    return fs::path(ADE_OPTUNA_FIXTURE_DIR) / name;
}

std::string bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

const RunOutcome* trial(const SweepFolder& f, int number) {
    for (const auto& o : f.finished)
        if (o.run.name == "trial_" + std::to_string(number)) return &o;
    return nullptr;
}

std::string varied(const RunOutcome& o, const std::string& key) {
    for (const auto& [k, v] : o.run.varied)
        if (k == key) return v;
    return "(absent)";
}

// Runs SQL on a database file (the test's own copies).
void exec(const fs::path& db, const char* sql) {
    sqlite3* h = nullptr;
    QCOMPARE(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    char* msg = nullptr;
    const int rc = sqlite3_exec(h, sql, nullptr, nullptr, &msg);
    sqlite3_close(h);
    QVERIFY2(rc == SQLITE_OK, msg ? msg : "");
}

QString errorOf(const fs::path& p, const std::string& study = "") {
    std::string err;
    const auto f = readOptunaStudy(p, study, &err);
    return f ? QStringLiteral("(read)") : QString::fromStdString(err);
}

}  // namespace

class TestOptunaStudy : public QObject {
    Q_OBJECT
  private:
    // What both files hold of study "lr-lambda" (make_optuna_study.py).
    void checkLrLambda(const SweepFolder& f) {
        QCOMPARE(f.planName, std::string("lr-lambda"));
        QCOMPARE(f.tasks.size(), std::size_t(8));
        QCOMPARE(f.finished.size(), std::size_t(8));
        QVERIFY(f.missing.empty());
        QCOMPARE(f.failed, std::vector<int>{6});
        QCOMPARE(f.design.axes.size(), std::size_t(3));
        QCOMPARE(f.design.axes[0].key, std::string("lr"));
        QCOMPARE(f.design.axes[1].key, std::string("lambda"));
        QCOMPARE(f.design.axes[2].key, std::string("optimizer"));
        QVERIFY(f.design.objective.lowerIsBetter);

        // Params: floats as numbers, the categorical index decoded to its choice.
        const RunOutcome* t1 = trial(f, 1);
        QVERIFY(t1);
        QCOMPARE(varied(*t1, "lr"), std::string("0.3"));
        QCOMPARE(varied(*t1, "lambda"), std::string("0.01"));
        QCOMPARE(varied(*t1, "optimizer"), std::string("adam"));
        QCOMPARE(t1->run.config.getString("optimizer"), std::string("adam"));
        QCOMPARE(t1->run.config.getReal("lr"), 0.3);
        QCOMPARE(t1->run.config.getInt("iterations"), std::int64_t(300));  // the helper's config attribute
        QCOMPARE(varied(*trial(f, 0), "optimizer"), std::string("gd"));

        // Intermediate values: the curve, step = iteration; the trial's value beside it.
        const MetricHistory& h = trial(f, 0)->result.history;
        QCOMPARE(h.columns, (std::vector<std::string>{"iteration", "objective", "value"}));
        QCOMPARE(h.rows.size(), std::size_t(4));
        QCOMPARE(h.rows[1][0], 100.0);
        QCOMPARE(h.rows[0][1], 2.0);
        QCOMPARE(h.rows[1][1], 1.0 * (1 + 1.0 / 101));
        QCOMPARE(h.rows[2][2], 1.0);  // the value on every row
        QCOMPARE(h.rows[3][2], 1.0);
        QCOMPARE(trial(f, 0)->result.iterationsDone, 300L);

        // Pruned: its last reported value, stopped at step 100, marked.
        const RunOutcome* t2 = trial(f, 2);
        QCOMPARE(t2->result.status, RunStatus::Completed);
        QCOMPARE(t2->result.stop, std::string("pruned"));
        QCOMPARE(t2->result.history.rows.size(), std::size_t(2));
        QCOMPARE(t2->result.history.rows.back()[2], 15.0 * (1 + 1.0 / 101));
        QCOMPARE(t2->run.config.getInt("iterations"), std::int64_t(100));
        // Every trial's state, for the sweep tab's State column.
        QCOMPARE(f.trialStates.size(), std::size_t(8));
        QCOMPARE(f.trialStates.at(0), std::string("COMPLETE"));
        QCOMPARE(f.trialStates.at(2), std::string("PRUNED"));
        QCOMPARE(f.trialStates.at(5), std::string("PRUNED"));
        QCOMPARE(f.trialStates.at(6), std::string("FAIL"));
        // Failed: no value.
        const RunOutcome* t6 = trial(f, 6);
        QCOMPARE(t6->result.status, RunStatus::Failed);
        QVERIFY(t6->result.history.rows.empty());

        // Ranked as a sweep: each trial a config; the full trials first, best value first.
        const auto configs = aggregateConfigs(f.finished, f.design.objective);
        QCOMPARE(configs.size(), std::size_t(8));
        QCOMPARE(configs[0].runNames, std::vector<std::string>{"trial_0"});
        QCOMPARE(configs[0].mean, 1.0);
        QCOMPARE(configs[1].mean, 3.0);   // trial 4
        QCOMPARE(configs[2].mean, 4.5);   // trial 1
        QCOMPARE(configs[3].mean, 5.0);   // trial 7
        QCOMPARE(configs[4].mean, 11.5);  // trial 3
        // Then the pruned ones (a smaller budget), then the failed one (no value).
        QCOMPARE(configs[5].iterations, 100L);
        QCOMPARE(configs[5].seedsPruned, 1);
        QCOMPARE(configs[5].mean, 6.5 * (1 + 1.0 / 101));
        QCOMPARE(configs[6].seedsPruned, 1);
        QCOMPARE(configs[7].seedsFailed, 1);
        QVERIFY(std::isnan(configs[7].mean));
    }

  private slots:
    void initTestCase() {
        QVERIFY2(fs::exists(fixture("study.db")) && fs::exists(fixture("study.journal")),
                 "the fixture optuna_storage_fixture (python3-optuna) did not write the studies");
    }

    void sqliteStudy() {
        std::string err;
        std::vector<std::string> names;
        const auto f = readOptunaStudy(fixture("study.db"), "", &err, &names);
        QVERIFY2(f, err.c_str());
        QCOMPARE(names, (std::vector<std::string>{"lr-lambda", "second", "grid2"}));
        checkLrLambda(*f);
    }

    void journalStudy() {
        std::string err;
        std::vector<std::string> names;
        const auto f = readOptunaStudy(fixture("study.journal"), "", &err, &names);
        QVERIFY2(f, err.c_str());
        QCOMPARE(names, std::vector<std::string>{"lr-lambda"});
        checkLrLambda(*f);
    }

    void secondStudyByName() {
        std::string err;
        const auto f = readOptunaStudy(fixture("study.db"), "second", &err);
        QVERIFY2(f, err.c_str());
        QCOMPARE(f->tasks.size(), std::size_t(2));  // numbers 0, 1 of this study
        QCOMPARE(f->tasks[1].name, std::string("trial_1"));
        QCOMPARE(f->design.axes.size(), std::size_t(1));
        QCOMPARE(f->finished[1].run.varied,
                 (std::vector<std::pair<std::string, std::string>>{{"x", "-0.25"}}));
        QCOMPARE(f->finished[1].result.history.rows.back()[2], 0.0625);
        QVERIFY(errorOf(fixture("study.db"), "nope").contains("no study named 'nope'"));
    }

    void paramTexts() {
        const std::string cat =
            "{\"name\": \"CategoricalDistribution\", \"attributes\": {\"choices\": "
            "[\"gd\", 3, true, null]}}";
        QCOMPARE(optunaParamText(0, cat), std::string("gd"));
        QCOMPARE(optunaParamText(1, cat), std::string("3"));
        QCOMPARE(optunaParamText(2, cat), std::string("true"));
        QCOMPARE(optunaParamText(3, cat), std::string("null"));
        QCOMPARE(optunaParamText(
                     64, "{\"name\": \"IntDistribution\", \"attributes\": {\"low\": 1, "
                         "\"high\": 128, \"log\": true, \"step\": 1}}"),
                 std::string("64"));
        QCOMPARE(optunaParamText(0.001, "{\"name\": \"FloatDistribution\"}"),
                 std::string("0.001"));
        QCOMPARE(optunaParamText(0.4463640106567031, "{\"name\": \"FloatDistribution\"}"),
                 std::string("0.446364"));
    }

    // Reading never writes: the files' bytes and times are unchanged, no journal beside them.
    void neverWrites() {
        for (const char* name : {"study.db", "study.journal"}) {
            const fs::path p = fixture(name);
            const std::string before = bytes(p);
            const auto time = fs::last_write_time(p);
            std::string err;
            QVERIFY2(readOptunaStudy(p, "", &err), err.c_str());
            QVERIFY(bytes(p) == before);
            QVERIFY(fs::last_write_time(p) == time);
        }
        for (const char* extra : {"study.db-journal", "study.db-wal", "study.db-shm"})
            QVERIFY2(!fs::exists(fixture(extra)), extra);
    }

    // A trial still running (a copy whose trial 7 is set back to RUNNING): missing, its state
    // kept; the storage told apart from a session by its first bytes.
    void runningTrialAndSniffing() {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        fs::copy_file(fixture("study.db"), dir / "running.db");
        exec(dir / "running.db", "UPDATE trials SET state = 'RUNNING' WHERE number = 7 AND "
                                 "study_id = (SELECT study_id FROM studies WHERE "
                                 "study_name = 'lr-lambda');");
        std::string err;
        const auto f = readOptunaStudy(dir / "running.db", "", &err);
        QVERIFY2(f, err.c_str());
        QCOMPARE(f->missing, std::vector<int>{7});
        QCOMPARE(f->trialStates.at(7), std::string("RUNNING"));
        QVERIFY(looksLikeOptunaStorage(fixture("study.db")));
        QVERIFY(looksLikeOptunaStorage(fixture("study.journal")));
        std::ofstream(dir / "session.json") << "{\n  \"runs\": []\n}\n";
        QVERIFY(!looksLikeOptunaStorage(dir / "session.json"));
        std::ofstream(dir / "one-line.json") << "{\"runs\": []}\n";
        QVERIFY(!looksLikeOptunaStorage(dir / "one-line.json"));
        QVERIFY(!looksLikeOptunaStorage(dir / "absent.db"));
    }

    void badFiles() {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        QVERIFY(errorOf(dir / "absent.db").contains("cannot read it"));
        std::ofstream(dir / "notes.db") << "hello\n";
        QVERIFY(errorOf(dir / "notes.db").contains("not an Optuna storage"));
        std::ofstream(dir / "other.log") << "{\"a\": 1}\n{\"b\": 2}\n";
        QVERIFY(errorOf(dir / "other.log").contains("line 1 is not an Optuna journal operation"));
        // An SQLite database of something else.
        exec(dir / "plain.db", "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);");
        QVERIFY(errorOf(dir / "plain.db").contains("not an Optuna storage (no version_info table)"));
        // Another schema version.
        fs::copy_file(fixture("study.db"), dir / "v99.db");
        exec(dir / "v99.db", "UPDATE version_info SET schema_version = 99;");
        QVERIFY(errorOf(dir / "v99.db").contains("schema version 99"));
        // A file cut short: SQLite's header with half its pages.
        const std::string all = bytes(fixture("study.db"));
        std::ofstream(dir / "cut.db", std::ios::binary) << all.substr(0, all.size() / 3);
        const QString cut = errorOf(dir / "cut.db");
        QVERIFY2(cut != QStringLiteral("(read)"), qPrintable(cut));
        QVERIFY2(cut.contains(QStringLiteral("cut.db")), qPrintable(cut));
    }
};

QTEST_GUILESS_MAIN(TestOptunaStudy)
#include "tst_optuna_study.moc"
