// The reproduction report (`report`): every shipped preset at its quick sizes with every claim
// holding (a change that breaks the science fails here), a claim that does not hold, the
// report's files, and `run` checking a preset's claims over its seeds.
#include <QtTest>

#include "Process.h"
#include "ReadFile.h"

namespace {

using Result = testproc::ProcessResult;

QJsonObject readJson(const QString& path) {
    return QJsonDocument::fromJson(adetest::readBytes(path)).object();
}

// A resources folder DIR/FOLDER holding one preset, presets/NAME.json with TEXT, for the CLI's
// ADE_RESOURCES; "" when it cannot be written.
QString presetResources(const QTemporaryDir& dir, const QString& folder, const QString& name,
                        const char* text) {
    if (!QDir(dir.path()).mkpath(folder + "/presets")) return {};
    QFile f(dir.filePath(folder + "/presets/" + name + ".json"));
    if (!f.open(QIODevice::WriteOnly) || f.write(text) < 0) return {};
    return dir.filePath(folder);
}

// A preset of Experiment A at tiny sizes with one claim that holds and one that cannot.
const char* kTinyPreset = R"({
  "name": "tiny-claims", "description": "two runs, two claims", "about": "test",
  "config": {"experiment": "a", "seed": 3, "iterations": 30, "log_every": 5,
             "data": {"d": 2, "k": 2, "n": 16, "prompts": 4}},
  "seeds": 2,
  "runs": [{"name": "fast", "config": {"lr": 0.5}}, {"name": "slow", "config": {"lr": 0.05}}],
  "claims": [
    {"id": "same-start", "text": "Both runs start from the same loss.", "paper": "A",
     "check": "close", "metric": "train_loss", "run": "fast", "other": "slow",
     "stat": "initial", "max": 1e-12},
    {"id": "impossible", "text": "The fast run ends a million times lower.", "paper": "A",
     "check": "ratio", "metric": "train_loss", "run": "slow", "other": "fast", "min": 1e6}]
})";

// What a sanitizer build's report runs instead of the shipped presets: the same machinery
// (quick sizes, seeds, claims that hold, figures, report.md and report.json) in seconds. The
// shipped presets' quick sizes took 183 s under ThreadSanitizer for a-same-start alone on an
// idle 2-core machine and over 600 s in CI beside other tests; their science is checked by the
// normal build, the kernels under the sanitizers by tst_gradients.
// Two claims whose negative controls change the preset the same way: the second control's runs
// are the first's (same names, configs and seeds), trained once.
const char* kSharedControlPreset = R"({
  "name": "shared-control", "description": "two claims, one control", "about": "test",
  "config": {"experiment": "a", "seed": 3, "iterations": 30, "log_every": 5,
             "data": {"d": 2, "k": 2, "n": 16, "prompts": 4}},
  "seeds": 2,
  "runs": [{"name": "fast", "config": {"lr": 0.5}}, {"name": "slow", "config": {"lr": 0.05}}],
  "claims": [
    {"id": "fast-lower", "text": "The larger step ends 1% lower.", "paper": "A",
     "check": "ratio", "metric": "train_loss", "run": "slow", "other": "fast", "min": 1.01,
     "control": {"why": "fast given slow's step", "runs": {"fast": {"lr": 0.05}}}},
    {"id": "fast-much-lower", "text": "The larger step ends 10% lower.", "paper": "A",
     "check": "ratio", "metric": "train_loss", "run": "slow", "other": "fast", "min": 1.1,
     "control": {"why": "fast given slow's step", "runs": {"fast": {"lr": 0.05}}}}]
})";

#ifdef ADE_SANITIZED  // only the sanitizer builds run it (below)
const char* kQuickTinyPreset = R"({
  "name": "tiny-quick", "description": "two runs, claims that hold", "about": "test",
  "config": {"experiment": "a", "seed": 3, "iterations": 400, "log_every": 5,
             "data": {"d": 2, "k": 2, "n": 16, "prompts": 4}},
  "seeds": 2,
  "runs": [{"name": "fast", "config": {"lr": 0.5}}, {"name": "slow", "config": {"lr": 0.05}}],
  "claims": [
    {"id": "same-start", "text": "Both runs start from the same loss.", "paper": "A",
     "check": "close", "metric": "train_loss", "run": "fast", "other": "slow",
     "stat": "initial", "max": 1e-12,
     "control": {"why": "slow started from a smaller random start",
                 "runs": {"slow": {"init": "random", "init_scale": 0.05}}}},
    {"id": "fast-lower", "text": "The larger step ends lower.", "paper": "A",
     "check": "ratio", "metric": "train_loss", "run": "slow", "other": "fast", "min": 1.0,
     "control": {"why": "the runs swapped", "swap": true}}],
  "quick": {"iterations": 40}
})";
#endif

}  // namespace

class TestReport : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void initTestCase() { QVERIFY(tmp.isValid()); }

    void quickReportHoldsEveryClaim() {
        const QString out = tmp.filePath("quick");
        QStringList args = {"report", "--quick", "--out", out, "--jobs", "2"};
        QProcessEnvironment env;
#ifdef ADE_SANITIZED
        // A sanitizer build runs 5 to 15 times slower (ThreadSanitizer): a tiny preset of its
        // own (kQuickTinyPreset); the normal build checks every shipped preset's claims.
        const QString res = presetResources(tmp, "quick-res", "tiny-quick", kQuickTinyPreset);
        QVERIFY(!res.isEmpty());
        env.insert("ADE_RESOURCES", res);
        args << "--only" << "tiny-quick";
#endif
        QElapsedTimer timer;
        timer.start();
        const Result r = testproc::runCli(args, 600000, env);
        qInfo("report --quick: %.0f s", timer.elapsed() / 1000.0);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QRegularExpression("claims: (\\d+) of \\1 hold")), qPrintable(r.out));

        const QString md = QString::fromUtf8(adetest::readBytes(out + "/report.md"));
        QVERIFY(md.startsWith("# Reproduction report"));
        QVERIFY(md.contains("## Paper A"));
#ifndef ADE_SANITIZED
        QVERIFY(md.contains("## Paper B"));
#endif
        QVERIFY(md.contains(
            "| claim | measured | verdict | threshold | negative control | control's verdict |"));
        QVERIFY(!md.contains("| ✗ does not hold |"));
        QVERIFY(!md.contains("cannot fail here"));
        QVERIFY2(r.out.contains(
                     QRegularExpression("negative controls: (\\d+) of \\1 fail as they must")),
                 qPrintable(r.out));

        const QJsonObject j = readJson(out + "/report.json");
        QVERIFY(j["quick"].toBool());
        QVERIFY(j["claims"].toInt() > 0);
        QCOMPARE(j["holding"].toInt(), j["claims"].toInt());
        // Every claim, of a preset that ran or not, is shown able to fail: its negative
        // control (the variant of its preset without the effect) does not hold.
        QCOMPARE(j["claims_without_control"].toInt(), 0);
        QCOMPARE(j["controls_failing"].toInt(), j["controls"].toInt());
        QVERIFY(j["controls"].toInt() >= j["claims"].toInt());
        for (const auto& p : j["presets"].toArray())
            for (const auto& c : p.toObject()["claims"].toArray()) {
                const QJsonObject ctl = c.toObject()["control"].toObject();
                const QString id = p.toObject()["preset"].toString() + "/" +
                                   c.toObject()["claim"].toObject()["id"].toString();
                QVERIFY2(!ctl["why"].toString().isEmpty(), qPrintable(id));
                QVERIFY2(
                    ctl["status"].toString() == "does not hold" && ctl["fails_as_it_must"].toBool(),
                    qPrintable(id + ": control " + ctl["status"].toString() + " " +
                               ctl["measured"].toString() + " " + ctl["problem"].toString()));
            }
        int figures = 0;
        QSet<QString> papersRun;
        for (const auto& p : j["presets"].toArray()) {
            const QJsonObject po = p.toObject();
            const QString name = po["preset"].toString();
            QVERIFY2(md.contains("### " + name), qPrintable(name));
            QVERIFY2(!po["claims"].toArray().isEmpty(), qPrintable(name + " declares no claim"));
            if (!po["skipped"].toString().isEmpty()) {
                // No quick sizes: listed with the reason, its claims not run.
                QVERIFY(md.contains("*Not run at quick sizes: " + po["skipped"].toString()));
                continue;
            }
            papersRun.insert(po["paper"].toString());
            for (const auto& c : po["claims"].toArray())
                QCOMPARE(c.toObject()["status"].toString(), QString("holds"));
            for (const auto& f : po["figures"].toArray()) {
                QVERIFY2(QFileInfo(out + "/" + f.toString()).size() > 1000, qPrintable(f.toString()));
                QVERIFY2(md.contains("](" + f.toString() + ")"), qPrintable(f.toString()));
                ++figures;
            }
            QVERIFY(QFileInfo(out + "/" + po["folder"].toString()).isDir());
        }
        QVERIFY(figures > 0);
#ifndef ADE_SANITIZED
        QCOMPARE(papersRun.size(), 2);  // both papers' science is checked
#endif
    }

    void aClaimThatDoesNotHoldFailsTheReport() {
        const QString res = presetResources(tmp, "res", "tiny-claims", kTinyPreset);
        QVERIFY(!res.isEmpty());
        QProcessEnvironment env;
        env.insert("ADE_RESOURCES", res);
        const QString out = tmp.filePath("tiny");
        const Result r = testproc::runCli(
            {"report", "--only", "tiny-claims", "--no-figures", "--out", out}, 120000, env);
        QVERIFY2(r.code == 5, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains("claims: 1 of 2 hold, 1 do not hold"), qPrintable(r.out));
        const QString md = QString::fromUtf8(adetest::readBytes(out + "/report.md"));
        QVERIFY(md.contains("✗ does not hold"));
        QVERIFY(md.contains("✓ holds"));
        QVERIFY(md.contains("4 runs (2 seeds each)"));
        // The measured number is in the report, with its spread over the two seeds.
        QVERIFY2(md.contains(QRegularExpression("ratio [0-9.e+-]+ ± [0-9.e+-]+ \\(2 seeds")),
                 qPrintable(md));
        const QJsonObject j = readJson(out + "/report.json");
        QCOMPARE(j["not_holding"].toInt(), 1);

        // `run` checks the same claims over its seeds; --seeds changes how many.
        const Result run = testproc::runCli(
            {"run", "--preset", "tiny-claims", "--seeds", "3", "--out", tmp.filePath("tiny-run")},
            120000, env);
        QCOMPARE(run.code, 0);
        QVERIFY2(run.out.contains("claims (3 seeds per run):"), qPrintable(run.out));
        // The table over seeds: one line per run of the preset, mean ± sd of 3 seeds.
        QVERIFY2(run.out.contains(QRegularExpression("\nslow +3 +[0-9.e+-]+ ± [0-9.e+-]+ +[0-9.e+-]+ ± ")),
                 qPrintable(run.out));
        QVERIFY(run.out.contains("does not hold") && run.out.contains("holds"));
        QVERIFY(QFileInfo(tmp.filePath("tiny-run/slow_seed5/metrics.csv")).exists());
    }

    void controlsThatChangeThePresetAlikeTrainOnce() {
        const QString res =
            presetResources(tmp, "shared-res", "shared-control", kSharedControlPreset);
        QVERIFY(!res.isEmpty());
        QProcessEnvironment env;
        env.insert("ADE_RESOURCES", res);
        const QString out = tmp.filePath("shared");
        const Result r = testproc::runCli(
            {"report", "--only", "shared-control", "--no-figures", "--out", out}, 120000, env);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        const QJsonArray claims =
            readJson(out + "/report.json")["presets"].toArray()[0].toObject()["claims"].toArray();
        QCOMPARE(claims.size(), 2);
        const QJsonObject first = claims[0].toObject()["control"].toObject();
        const QJsonObject second = claims[1].toObject()["control"].toObject();
        // The first control trains fast with slow's step (2 seeds) and reuses slow's own runs.
        QCOMPARE(first["runs"].toInt(), 2);
        QCOMPARE(first["reused"].toInt(), 2);
        // The second trains nothing: its changed fast runs are the first control's.
        QCOMPARE(second["runs"].toInt(), 0);
        QCOMPARE(second["reused"].toInt(), 4);
        QCOMPARE(first["status"].toString(), QString("does not hold"));
        QCOMPARE(second["status"].toString(), QString("does not hold"));
        QVERIFY(second["fails_as_it_must"].toBool());
    }

    void badReportArgumentsAreRefused() {
        Result r = testproc::runCli({"report", "--out", tmp.filePath("x"), "--only", "nope"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--only: unknown preset 'nope'"));
        r = testproc::runCli({"report", "--preset", "a-same-start", "--out", tmp.filePath("x")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("choose presets with --only"));
        r = testproc::runCli({"run", "--preset", "a-same-start", "--quick", "--out", tmp.filePath("x")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("belong to the report command"));
    }
};

QTEST_MAIN(TestReport)
#include "tst_report.moc"
