// The sweep commands (docs/sweeps.md): the value forms, clear errors with nothing written, the
// Slurm backend's job script (--dry-run), tasks run by index as Slurm runs them and collected
// into the same sweep.csv as the local backend, resuming, and collect reporting missing tasks.
#include <QtTest>

#include "Process.h"
#include "ReadFile.h"

namespace {

using Result = testproc::ProcessResult;
using adetest::readBytes;

Result cli(const QStringList& args, const QProcessEnvironment& env = {}) {
    return testproc::runCli(args, 180000, env);
}

// a-same-start (two runs, alg1 and gd; seed 2) at its smallest.
const QStringList kTiny = {"--preset", "a-same-start", "--set", "iterations=10", "--set",
                           "data.prompts=2", "--quiet"};

QStringList csvRows(const QString& file) {
    return QString::fromUtf8(readBytes(file)).split('\n', Qt::SkipEmptyParts);
}

QStringList filesUnder(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

}  // namespace

class TestSweepCli : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void initTestCase() {
        QVERIFY(QFileInfo(testproc::cliPath()).isExecutable());
        QVERIFY(tmp.isValid());
    }

    void valueForms() {
        const QString out = tmp.filePath("forms");
        const Result r = cli(QStringList{"sweep", "--vary", "data.n=lin:8:16:3", "--vary",
                                         "lr=log:0.01:0.1:2", "--seeds", "1", "--jobs", "2",
                                         "--out", out} + kTiny);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList rows = csvRows(out + "/sweep.csv");
        QCOMPARE(rows.size(), 1 + 3 * 2 * 2);  // header + n x lr x runs
        QVERIFY2(rows[0].startsWith("run,label,data.n,lr,seed,status,iterations_done,stop,final_"),
                 qPrintable(rows[0]));
        QVERIFY(!rows[0].contains("iterations_per_second") && !rows[0].contains("time_s"));
        QVERIFY(rows[1].startsWith("alg1_data.n=8_lr=0.01_seed2,alg1,8,0.01,2,completed,10,"));
        QVERIFY(csvRows(out + "/timing.csv")[0] == "run,label,seconds,iterations_per_second");
        QVERIFY(QFileInfo::exists(out + "/runs/alg1_data.n=12_lr=0.1_seed2/summary.json"));
        QVERIFY(QFileInfo::exists(out + "/configs/alg1_data.n=12_lr=0.1_seed2.json"));
        QVERIFY(QFileInfo::exists(out + "/session.json"));
        QVERIFY(QFileInfo::exists(out + "/fit.json"));
        // The results table: one row per config (6 values x 2 runs), best first, mean ± sd.
        QVERIFY2(r.out.contains("results: floor excess_risk over seeds"), qPrintable(r.out));
        QVERIFY(r.out.contains("\n  12  "));
        QVERIFY(!r.out.contains("\n  13  "));

        const QString rnd = tmp.filePath("rand");
        const QStringList args = QStringList{"sweep", "--vary", "lr=rand:0.01:0.3", "--samples",
                                             "3", "--sample-seed", "4", "--seeds", "2", "--out",
                                             rnd} + kTiny;
        const Result r2 = cli(args);
        QVERIFY2(r2.code == 0, qPrintable(r2.err));
        QCOMPARE(csvRows(rnd + "/sweep.csv").size(), 1 + 3 * 2 * 2);
        QVERIFY(!QFileInfo::exists(rnd + "/fit.json"));  // random samples: no power law
        QVERIFY(r2.out.contains("±"));
    }

    // a-same-start's gd run has no regulariser: varying lambda repeats its run, and the CLI says
    // so once (alg1, which uses lambda, is not named).
    void aKeyARunDoesNotUseIsNoted() {
        const QString out = tmp.filePath("unused");
        const Result r = cli(QStringList{"sweep", "--vary", "lambda=0.1,0.5", "--seeds", "1",
                                         "--out", out} + kTiny);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("note: run gd: lambda is not used with regularizer = none"),
                 qPrintable(r.err));
        QCOMPARE(r.err.count("note: run"), 1);
        QCOMPARE(csvRows(out + "/sweep.csv").size(), 1 + 2 * 2);  // still run, as asked
    }

    void badInputWritesNothing_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown key") << QStringList{"--vary", "nosuch=1,2"} << "unknown key 'nosuch'";
        QTest::newRow("bad range form") << QStringList{"--vary", "lr=log:0:1:3"} << "log: needs LO > 0";
        QTest::newRow("bad count") << QStringList{"--vary", "lr=lin:0:1:x"} << "count N";
        QTest::newRow("rand without samples") << QStringList{"--vary", "lr=rand:0.01:1"} << "--samples";
        QTest::newRow("samples without rand") << QStringList{"--vary", "lr=0.1", "--samples", "3"}
                                              << "rand:LO:HI";
        QTest::newRow("out of range") << QStringList{"--vary", "data.n=0,8"} << "data.n";
        QTest::newRow("halving on slurm") << QStringList{"--vary", "lr=0.1,0.2", "--halving",
                                                         "--backend", "slurm"}
                                          << "--backend local only";
        QTest::newRow("eta without halving") << QStringList{"--vary", "lr=0.1,0.2", "--eta", "2"}
                                             << "belong to --halving";
        QTest::newRow("unknown metric") << QStringList{"--vary", "lr=0.1,0.2", "--metric", "nope"}
                                        << "has no metric 'nope'";
        QTest::newRow("bad stat") << QStringList{"--vary", "lr=0.1", "--stat", "mean"}
                                  << "final, best or floor";
        QTest::newRow("slurm option on local") << QStringList{"--vary", "lr=0.1", "--mem", "1G"}
                                               << "belong to --backend slurm";
        QTest::newRow("bad time") << QStringList{"--vary", "lr=0.1", "--backend", "slurm",
                                                 "--time", "soon", "--dry-run"}
                                  << "invalid --time";
    }
    void badInputWritesNothing() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const QString out = tmp.filePath("bad");
        const Result r = cli(QStringList{"sweep", "--out", out} + args + kTiny);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }

    void dryRunWritesTheJobScript() {
        const QString out = tmp.filePath("slurm");
        const Result r = cli(QStringList{"sweep", "--vary", "data.n=8,16,32", "--seeds", "2",
                                         "--backend", "slurm", "--dry-run", "--partition",
                                         "short", "--account", "proj42", "--time", "0:30:00",
                                         "--mem", "2G", "--array-throttle", "5", "--sbatch-arg",
                                         "--qos=quick", "--setup-cmd", "module load qt/6",
                                         "--out", out} + kTiny);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString script = QString::fromUtf8(readBytes(out + "/slurm/array.sbatch"));
        const QString abs = QDir(out).absolutePath();
        QVERIFY(script.startsWith("#!/bin/bash\n#SBATCH --job-name=ade-a-same-start\n"));
        QVERIFY2(script.contains("\n#SBATCH --array=0-11%5\n"), qPrintable(script));  // 3 x 2 x 2
        QVERIFY(script.contains("\n#SBATCH --time=0:30:00\n"));
        QVERIFY(script.contains("\n#SBATCH --mem=2G\n"));
        QVERIFY(script.contains("\n#SBATCH --cpus-per-task=1\n"));
        QVERIFY(script.contains("\n#SBATCH --output=" + abs + "/slurm/logs/%A_%a.out\n"));
        QVERIFY(script.contains("\n#SBATCH --partition=short\n"));
        QVERIFY(script.contains("\n#SBATCH --account=proj42\n"));
        QVERIFY(script.contains("\n#SBATCH --qos=quick\n"));
        QVERIFY(script.indexOf("\nmodule load qt/6\n") < script.indexOf("\nexec "));
        QVERIFY2(script.contains("\nexec " + QFileInfo(testproc::cliPath()).canonicalFilePath() +
                                 " sweep task " + abs + " --index \"$SLURM_ARRAY_TASK_ID\"\n"),
                 qPrintable(script));
        QVERIFY(QFileInfo(out + "/slurm/array.sbatch").isExecutable());
        QVERIFY(QFileInfo(out + "/slurm/logs").isDir());
        QVERIFY(r.out.contains("dry run: nothing submitted"));
        QVERIFY(r.out.contains("sbatch --parsable " + out + "/slurm/array.sbatch"));
        QVERIFY(!QFileInfo::exists(out + "/slurm/jobs.txt"));
        QCOMPARE(QDir(out + "/configs").entryList(QDir::Files).size(), 12);
        QVERIFY(!QFileInfo::exists(out + "/runs"));
        // Defaults derived from a calibration run: time at its floor of 10 minutes for runs of
        // milliseconds, memory a whole number of 64 MiB.
        const QString def = tmp.filePath("slurm-defaults");
        const Result d = cli(QStringList{"sweep", "--vary", "data.n=8,16", "--backend", "slurm",
                                         "--dry-run", "--out", def} + kTiny);
        QVERIFY2(d.code == 0, qPrintable(d.err));
        const QString s2 = QString::fromUtf8(readBytes(def + "/slurm/array.sbatch"));
        QVERIFY2(s2.contains("\n#SBATCH --time=0-00:10:00\n"), qPrintable(s2));
        const QRegularExpression mem("\n#SBATCH --mem=(\\d+)M\n");
        const auto m = mem.match(s2);
        QVERIFY2(m.hasMatch(), qPrintable(s2));
        QVERIFY(m.captured(1).toInt() >= 256 + 64 && m.captured(1).toInt() % 64 == 0);
        QVERIFY(s2.contains("\n#SBATCH --array=0-3%4\n"));  // throttle min(tasks, 32)
        QVERIFY(d.out.contains("calibrated on"));
    }

    void tasksThenCollectMatchLocal() {
        const QStringList design = {"--vary", "data.n=8,16", "--seeds", "2"};
        const QString local = tmp.filePath("match-local"), slurm = tmp.filePath("match-slurm");
        const Result l = cli(QStringList{"sweep", "--out", local} + design + kTiny);
        QVERIFY2(l.code == 0, qPrintable(l.err));
        const Result w = cli(QStringList{"sweep", "--backend", "slurm", "--dry-run", "--out",
                                         slurm} + design + kTiny);
        QVERIFY2(w.code == 0, qPrintable(w.err));
        // Nothing ran yet: collect lists every task missing and exits 6.
        const Result c0 = cli({"sweep", "collect", slurm});
        QCOMPARE(c0.code, 6);
        QVERIFY2(c0.out.contains("8 missing tasks:"), qPrintable(c0.out));
        QVERIFY(c0.out.contains("     0  alg1_data.n=8_seed2\n"));
        // As Slurm runs them: by index (one through $SLURM_ARRAY_TASK_ID), in any order.
        for (int i : {7, 3, 0, 5, 1, 2, 6}) {
            const Result t = cli({"sweep", "task", slurm, "--index", QString::number(i)});
            QVERIFY2(t.code == 0, qPrintable(t.err));
            QVERIFY(t.out.startsWith("task " + QString::number(i) + " ("));
        }
        QProcessEnvironment env;
        env.insert("SLURM_ARRAY_TASK_ID", "4");
        const Result t4 = cli({"sweep", "task", slurm}, env);
        QVERIFY2(t4.code == 0, qPrintable(t4.err));
        QVERIFY2(t4.out.startsWith("task 4 (alg1_data.n=16_seed2): completed"), qPrintable(t4.out));
        const Result again = cli({"sweep", "task", slurm, "--index", "4"});
        QCOMPARE(again.code, 0);
        QVERIFY(again.out.contains("finished already"));
        const Result bad = cli({"sweep", "task", slurm, "--index", "8"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("not in 0..7"));
        const Result c = cli({"sweep", "collect", slurm});
        QVERIFY2(c.code == 0, qPrintable(c.out + c.err));
        QVERIFY(c.out.contains("8 of 8 tasks finished"));
        QVERIFY(!c.out.contains("missing"));
        QCOMPARE(readBytes(slurm + "/sweep.csv"), readBytes(local + "/sweep.csv"));
        QCOMPARE(readBytes(slurm + "/fit.json"), readBytes(local + "/fit.json"));
        QVERIFY(QFileInfo::exists(slurm + "/session.json"));
        QCOMPARE(csvRows(slurm + "/timing.csv").size(), 9);
        // The slurm command again on the finished folder: nothing to submit.
        const Result w2 = cli(QStringList{"sweep", "--backend", "slurm", "--out", slurm} +
                              design + kTiny);
        QCOMPARE(w2.code, 0);
        QVERIFY2(w2.out.contains("all 8 tasks"), qPrintable(w2.out));
    }

    void collectReportsMissingAndFailed() {
        const QString dir = tmp.filePath("partial");
        QVERIFY(cli(QStringList{"sweep", "--vary", "data.n=8,16", "--seeds", "1", "--backend",
                                "slurm", "--dry-run", "--out", dir} + kTiny).code == 0);
        QCOMPARE(cli({"sweep", "task", dir, "--index", "0"}).code, 0);
        QVERIFY(QDir().mkpath(dir + "/slurm/logs"));
        QFile log(dir + "/slurm/logs/41_2.out");
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write("slurmstepd: error: *** JOB 43 ON n1 CANCELLED DUE TO TIME LIMIT ***\n");
        log.close();
        const Result c = cli({"sweep", "collect", dir});
        QCOMPARE(c.code, 6);
        QVERIFY2(c.out.contains("1 of 4 tasks finished"), qPrintable(c.out));
        QVERIFY(c.out.contains("2 missing tasks:\n     1  gd_data.n=8_seed2\n     3  "));
        QVERIFY(c.out.contains("1 failed task:\n     2  alg1_data.n=16_seed2  (log " + dir +
                               "/slurm/logs/41_2.out)"));
        QCOMPARE(csvRows(dir + "/sweep.csv").size(), 2);  // the finished run so far
        const Result re = cli({"sweep", "collect", dir, "--resubmit", "--dry-run"});
        QCOMPARE(re.code, 6);
        QVERIFY2(re.out.contains("sbatch --parsable --array=1-3%3 " + dir + "/slurm/array.sbatch"),
                 qPrintable(re.out));
        const Result notSweep = cli({"sweep", "collect", tmp.filePath("nowhere")});
        QCOMPARE(notSweep.code, 2);
        QVERIFY(notSweep.err.contains("not a sweep folder"));
    }

    void localResumesAndRefusesAnotherSweep() {
        const QString out = tmp.filePath("resume");
        const QStringList args = QStringList{"sweep", "--vary", "data.n=8,16", "--seeds", "2",
                                             "--jobs", "2", "--out", out} + kTiny;
        const Result first = cli(args);
        QVERIFY2(first.code == 0, qPrintable(first.err));
        const QByteArray csv = readBytes(out + "/sweep.csv");
        QVERIFY(QDir(out + "/runs/gd_data.n=16_seed2").removeRecursively());
        const Result second = cli(args);
        QVERIFY2(second.code == 0, qPrintable(second.err));
        QVERIFY2(second.out.contains("skipped 7 finished tasks, ran 1"), qPrintable(second.out));
        QVERIFY(QFileInfo::exists(out + "/runs/gd_data.n=16_seed2/summary.json"));
        QCOMPARE(readBytes(out + "/sweep.csv"), csv);
        // Another design into the same folder: refused, nothing changed.
        const QStringList before = filesUnder(out);
        const QByteArray manifest = readBytes(out + "/sweep.json");
        const Result other = cli(QStringList{"sweep", "--vary", "data.n=8,32", "--out", out} + kTiny);
        QCOMPARE(other.code, 2);
        QVERIFY2(other.err.contains("holds another sweep"), qPrintable(other.err));
        QCOMPARE(filesUnder(out), before);
        QCOMPARE(readBytes(out + "/sweep.json"), manifest);
    }

    void halvingPrintsRungs() {
        const QString out = tmp.filePath("halving");
        const Result r = cli({"sweep", "--preset", "a-same-start", "--vary", "lr=0.01,0.05,0.1,0.2",
                              "--halving", "--eta", "2", "--min-iterations", "10", "--set",
                              "iterations=40", "--set", "data.prompts=2", "--seeds", "1",
                              "--quiet", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // 8 configs (4 lr x 2 runs), eta 2: 8 at 10, 4 at 20, 2 at 40 iterations.
        QVERIFY2(r.out.contains(" rung   iterations   configs   kept\n"
                                "    0           10         8      4\n"
                                "    1           20         4      2\n"
                                "    2           40         2      0\n"),
                 qPrintable(r.out));
        QCOMPARE(csvRows(out + "/sweep.csv").size(), 1 + 8 + 4 + 2);
    }
};

QTEST_GUILESS_MAIN(TestSweepCli)
#include "tst_sweep_cli.moc"
