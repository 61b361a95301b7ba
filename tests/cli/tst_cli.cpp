// The CLI contract: outputs, exit codes, error messages, determinism, interruption.
#include <QtTest>

#include <csignal>

#include "Process.h"
#include "ReadFile.h"
#include "io/Npy.h"

namespace {

using Result = testproc::ProcessResult;

using adetest::readBytes;
using testproc::cliPath;

Result runCli(const QStringList& args, int timeoutMs = 120000) {
    return testproc::runCli(args, timeoutMs);
}

QJsonObject readJson(const QString& path) {
    return QJsonDocument::fromJson(readBytes(path)).object();
}

// metrics.csv without its time_s column (wall time differs between runs).
QStringList withoutTime(const QByteArray& csv) {
    QStringList out;
    for (const auto& line : QString::fromUtf8(csv).split('\n', Qt::SkipEmptyParts)) {
        QStringList cells = line.split(',');
        cells.removeAt(1);
        out << cells.join(',');
    }
    return out;
}

// One seed per run (a preset's "seeds" would multiply the runs and name folders <run>_seed<N>).
const QStringList kSmall = {"--set", "iterations=20",  "--set",  "data.n=16",
                            "--set", "data.prompts=4", "--quiet", "--seeds", "1"};

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void initTestCase() {
        QVERIFY(QFileInfo(cliPath()).isExecutable());
        QVERIFY(tmp.isValid());
    }

    void listsPresets() {
        const Result r = runCli({"presets"});
        QCOMPARE(r.code, 0);
        for (const char* name :
             {"a-spectral-vs-random", "a-same-start", "a-ablation", "a-scaling-n"})
            QVERIFY2(r.out.contains(name), name);
    }

    void runWritesEveryFile() {
        const QString out = tmp.filePath("run");
        const Result r = runCli(
            QStringList{"run", "--preset", "a-spectral-vs-random", "--out", out, "--save-data"} +
            kSmall);
        QCOMPARE(r.code, 0);
        for (const char* run : {"alg1-spectral", "sgd-random"}) {
            const QString dir = out + "/" + run;
            const QList<QByteArray> lines = readBytes(dir + "/metrics.csv").split('\n');
            QCOMPARE(
                lines[0],
                QByteArray("iteration,time_s,train_loss,test_loss,excess_risk,manifold_distance,"
                           "manifold_distance_rel,norm_A,norm_B,norm_L,norm_R,imbalance,gen_gap,"
                           "step_size,"
                           "reg_value,data_passes"));
            QCOMPARE(lines.size() - 2,
                     21);  // iterations 0..20 (log_every auto = 1) + trailing newline
            const QJsonObject s = readJson(dir + "/summary.json");
            QCOMPARE(s["status"].toString(), QString("completed"));
            QCOMPARE(s["seed"].toInt(), 1);
            QCOMPARE(s["config"].toObject()["iterations"].toInt(), 20);
            QVERIFY(s["iterations_per_second"].toDouble() > 0);
            QVERIFY(s["metrics"].toObject()["final"].toObject().contains("excess_risk"));
            QVERIFY(s["command"].toString().contains("a-spectral-vs-random"));
            std::string err;
            const auto A = ade::decodeNpy(readBytes(dir + "/params/A.npy").toStdString(), &err);
            QVERIFY2(A, err.c_str());
            QVERIFY((A->shape == std::vector<std::size_t>{4, 4}));
            const auto X = ade::decodeNpy(readBytes(dir + "/data/X_train.npy").toStdString(), &err);
            QVERIFY2(X, err.c_str());
            QVERIFY((X->shape == std::vector<std::size_t>{4, 16, 4}));
            QVERIFY(QFileInfo::exists(dir + "/data/Sigma.npy"));
            QVERIFY(QFileInfo::exists(dir + "/data/M.npy"));
        }
    }

    void sameSeedIdenticalCsv() {
        const QString a = tmp.filePath("det1"), b = tmp.filePath("det2");
        QCOMPARE(runCli(QStringList{"run", "--preset", "a-same-start", "--out", a} + kSmall).code,
                 0);
        QCOMPARE(runCli(QStringList{"run", "--preset", "a-same-start", "--out", b} + kSmall).code,
                 0);
        for (const char* run : {"alg1", "gd"}) {
            const auto ca = withoutTime(readBytes(a + "/" + run + "/metrics.csv"));
            QVERIFY(ca.size() > 5);
            QCOMPARE(ca, withoutTime(readBytes(b + "/" + run + "/metrics.csv")));
        }
        // --jobs: the runs at once (gd starts from alg1's start, init = same), same results.
        const QString j = tmp.filePath("det-jobs");
        QCOMPARE(runCli(QStringList{"run", "--preset", "a-same-start", "--out", j, "--jobs", "2"} +
                        kSmall)
                     .code,
                 0);
        for (const char* run : {"alg1", "gd"})
            QCOMPARE(withoutTime(readBytes(j + "/" + run + "/metrics.csv")),
                     withoutTime(readBytes(a + "/" + run + "/metrics.csv")));
        const Result c = runCli(QStringList{"run", "--preset", "a-same-start", "--out",
                                            tmp.filePath("det3"), "--set", "seed=7"} +
                                kSmall);
        QCOMPARE(c.code, 0);
        QVERIFY(withoutTime(readBytes(a + "/gd/metrics.csv")) !=
                withoutTime(readBytes(tmp.filePath("det3") + "/gd/metrics.csv")));
    }

    void invalidInputExitsTwo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expect");
        const QString out = "--out";
        QTest::newRow("unknown preset") << QStringList{"run", "--preset", "nope", out, "/tmp/x"}
                                        << "unknown preset 'nope'; available: a-ablation";
        QTest::newRow("unknown key")
            << QStringList{"run", "--preset", "a-same-start", "--set", "colour=1", out, "/tmp/x"}
            << "unknown key 'colour'";
        QTest::newRow("out of range")
            << QStringList{"run", "--preset", "a-same-start", "--set", "data.n=0", out, "/tmp/x"}
            << "invalid value '0' for key 'data.n'";
        QTest::newRow("nan") << QStringList{"run",    "--preset", "a-same-start", "--set",
                                            "lr=nan", out,        "/tmp/x"}
                             << "not a finite number";
        QTest::newRow("bad set") << QStringList{"run", "--preset", "a-same-start", "--set",
                                                "lr",  out,        "/tmp/x"}
                                 << "expected KEY=VALUE";
        QTest::newRow("no out") << QStringList{"run", "--preset", "a-same-start"}
                                << "--out DIR is required";
        QTest::newRow("both sources")
            << QStringList{"run", "--preset", "a", "--config", "b", out, "/tmp/x"}
            << "exactly one of";
        QTest::newRow("missing config")
            << QStringList{"run", "--config", "/nonexistent.json", out, "/tmp/x"}
            << "cannot open file";
        QTest::newRow("unknown command") << QStringList{"fly"} << "unknown command 'fly'";
        QTest::newRow("unknown option")
            << QStringList{"run", "--fast"} << "unknown option '--fast'";
        QTest::newRow("bad vary") << QStringList{"sweep",  "--preset", "a-same-start", "--vary",
                                                 "data.n", out,        "/tmp/x"}
                                  << "malformed --vary";
        QTest::newRow("bad vary value")
            << QStringList{"sweep",      "--preset", "a-same-start", "--vary",
                           "data.n=4,x", out,        "/tmp/x"}
            << "invalid value 'x' for key 'data.n'";
        QTest::newRow("bad seeds")
            << QStringList{"sweep", "--preset", "a-same-start", "--seeds", "0"}
            << "invalid value '0' for --seeds";
    }
    void invalidInputExitsTwo() {
        QFETCH(QStringList, args);
        QFETCH(QString, expect);
        const Result r = runCli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expect), qPrintable(r.err));
    }

    // The table of sub-commands (app/cli/Commands.cpp), as `complete-words` prints it: every
    // command has its part of `help`, and that part names each option the command takes.
    void helpShowsEveryCommandOfTheTable() {
        const Result words = runCli({"complete-words"});
        QCOMPARE(words.code, 0);
        const QStringList names = words.out.split('\n', Qt::SkipEmptyParts);
        for (const char* name : {"presets", "keys", "run", "sweep", "sweep task", "sweep collect",
                                 "figure", "animate", "report", "help", "--version"})
            QVERIFY2(names.contains(name), name);
        QVERIFY(!names.contains("complete-words"));  // hidden
        const Result help = runCli({"help"});
        QCOMPARE(help.code, 0);
        // help's part of each command: from "  attention-explorer-cli NAME" to the next command.
        const QString lead = "\n  attention-explorer-cli ";
        QMap<QString, QString> part;
        for (const QString& block : help.out.split(lead).mid(1)) {
            QString name;
            for (const QString& n : names)
                if ((block.startsWith(n + " ") || block.startsWith(n + "\n")) &&
                    n.size() > name.size())
                    name = n;
            if (!name.isEmpty()) part[name] = block.section("\nPresets are read", 0, 0);
        }
        for (const QString& name : names) {
            if (name == "--help") continue;  // help's other name
            QVERIFY2(part.contains(name), qPrintable(name + " is not in help:\n" + help.out));
            if (name.startsWith('-')) continue;
            const Result options = runCli(QStringList{"complete-words"} + name.split(' '));
            QCOMPARE(options.code, 0);
            for (const QString& line : options.out.split('\n', Qt::SkipEmptyParts)) {
                const QString option = line.section(' ', 0, 0);
                const QRegularExpression word("(^|[^a-z-])" + QRegularExpression::escape(option) +
                                              "([^a-z-]|$)");
                QVERIFY2(part[name].contains(word),
                         qPrintable(option + " is not in help's part of " + name + ":\n" +
                                    part[name]));
            }
        }
    }

    // The parser agrees with the table on which options take a value (complete-words prints
    // "--seeds K", "--save-data"): without it, one is refused, the other not (help ignores
    // options).
    void tableOptionsAreParsed() {
        const Result words = runCli({"complete-words"});
        QSet<QString> lines;
        for (const QString& name : words.out.split('\n', Qt::SkipEmptyParts))
            if (!name.startsWith('-'))
                for (const QString& l : runCli(QStringList{"complete-words"} + name.split(' '))
                                            .out.split('\n', Qt::SkipEmptyParts))
                    lines.insert(l);
        QVERIFY(lines.size() > 30);
        for (const QString& line : lines) {
            const QString option = line.section(' ', 0, 0);
            const Result r = runCli({"help", option});
            if (line.contains(' ')) {
                QCOMPARE(r.code, 2);
                QVERIFY2(r.err.contains("option " + option + " needs a value"), qPrintable(r.err));
            } else {
                QVERIFY2(r.code == 0, qPrintable(option + ": " + r.err));
            }
        }
    }

    void optionNotTakenIsRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expect");
        const QString out = tmp.filePath("refused");
        QTest::newRow("presets --out") << QStringList{"presets", "--out", out}
                                       << "the presets command does not take --out";
        QTest::newRow("presets -q") << QStringList{"presets", "-q"}
                                    << "the presets command does not take --quiet";
        QTest::newRow("keys --jobs") << QStringList{"keys", "--jobs", "2"}
                                     << "the keys command does not take --jobs";
        QTest::newRow("figure --vary")
            << QStringList{"figure", "--preset", "a-same-start", "--out", out, "--vary", "lr=1,2"}
            << "the figure command does not take --vary";
        QTest::newRow("report --seeds") << QStringList{"report", "--out", out, "--seeds", "2"}
                                        << "the report command does not take --seeds";
        QTest::newRow("sweep task --jobs") << QStringList{"sweep", "task", out, "--jobs", "2"}
                                           << "the sweep task command does not take --jobs";
        QTest::newRow("sweep collect --out")
            << QStringList{"sweep", "collect", out, "--out", out}
            << "sweep collect DIR reads the sweep from DIR/sweep.json";
        QTest::newRow("sweep --index")
            << QStringList{"sweep", "--preset", "a-same-start", "--index", "1", "--out", out}
            << "--index belongs to sweep task";
        QTest::newRow("run --fps") << QStringList{"run", "--preset", "a-same-start", "--fps", "5",
                                                  "--out", out}
                                   << "--run and --fps belong to the animate command";
        QTest::newRow("run --vary")
            << QStringList{"run", "--preset", "a-same-start", "--vary", "lr=0.1,0.2", "--out", out}
            << "--vary belongs to the sweep command";
        QTest::newRow("run --grid")
            << QStringList{"run", "--preset", "a-same-start", "--grid", "9", "--out", out}
            << "the run command does not take --grid";
        QTest::newRow("animate --config")
            << QStringList{"animate", "--config", "c.json", "--out", out}
            << "animate reads a saved session";
    }
    void optionNotTakenIsRefused() {
        QFETCH(QStringList, args);
        QFETCH(QString, expect);
        const Result r = runCli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expect), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(tmp.filePath("refused")));
    }

    void malformedJsonNamesLineAndColumn() {
        const QString file = tmp.filePath("bad.json");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"config\": {\n    \"lr\": 0.1,,\n  }\n}\n");
        f.close();
        const Result r = runCli({"run", "--config", file, "--out", tmp.filePath("bad")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("line 3, column 15"), qPrintable(r.err));
    }

    void divergenceExitsThreeAndKeepsMetrics() {
        const QString out = tmp.filePath("div");
        const Result r =
            runCli({"run", "--preset", "a-same-start", "--out", out, "--set", "iterations=50",
                    "--set", "data.n=16", "--set", "lr=1e6", "--set", "init_scale=3", "--quiet",
                    "--seeds", "1"});
        QCOMPARE(r.code, 3);
        const QJsonObject s = readJson(out + "/gd/summary.json");
        QCOMPARE(s["status"].toString(), QString("diverged"));
        QVERIFY(s["diverged_at"].toInt() >= 1);
        QVERIFY(s["message"].toString().contains("diverged at iteration"));
        QVERIFY(readBytes(out + "/gd/metrics.csv").split('\n').size() >= 3);  // header + iteration 0
    }

    void ctrlCWritesWhatWasComputed() {
        const QString out = tmp.filePath("int");
        QProcess p;
        p.start(cliPath(), {"run", "--preset", "a-same-start", "--out", out, "--set",
                            "iterations=100000000", "--set", "data.n=16", "--set", "log_every=10",
                            "--seeds", "1"});
        QVERIFY(p.waitForStarted());
        // Progress lines arrive on stderr (not a terminal: one per 10%, the first at 0%).
        QByteArray err;
        QElapsedTimer clock;
        clock.start();
        while (!err.contains("0%") && p.state() == QProcess::Running && clock.elapsed() < 20000) {
            p.waitForReadyRead(200);
            err += p.readAllStandardError();
        }
        QVERIFY2(err.contains("0%"), err.constData());
        QCOMPARE(p.state(), QProcess::Running);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 130);
        const QJsonObject s = readJson(out + "/alg1/summary.json");
        QCOMPARE(s["status"].toString(), QString("cancelled"));
        QVERIFY(s["iterations_done"].toInt() > 0);
        QVERIFY(QFileInfo::exists(out + "/alg1/params/B.npy"));
    }

    void sweepWritesTableAndFit() {
        const QString out = tmp.filePath("sweep");
        const Result r = runCli({"sweep", "--preset", "a-same-start", "--vary", "data.n=8,16,32",
                                 "--seeds", "2", "--jobs", "2", "--out", out, "--set",
                                 "iterations=10", "--set", "data.prompts=2", "--quiet"});
        QCOMPARE(r.code, 0);
        const QStringList rows =
            QString::fromUtf8(readBytes(out + "/sweep.csv")).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 1 + 3 * 2 * 2);  // header + values x seeds x runs
        QVERIFY(rows[0].startsWith("run,label,data.n,seed,status"));
        QVERIFY(rows[0].contains("final_excess_risk"));
        QVERIFY(rows[0].contains("best_excess_risk"));
        const QJsonArray fit = QJsonDocument::fromJson(readBytes(out + "/fit.json")).array();
        QCOMPARE(fit.size(), 2);  // one per run label
        QVERIFY(std::isfinite(fit[0].toObject()["slope"].toDouble()));
        QVERIFY(r.out.contains("fit alg1"));
        QVERIFY(QFileInfo::exists(out + "/runs/alg1_data.n=8_seed2/metrics.csv"));
        QVERIFY(QFileInfo::exists(out + "/configs/alg1_data.n=8_seed2.json"));
    }

    void unwritableOutputIsReported() {
        const Result r = runCli(
            QStringList{"run", "--preset", "a-same-start", "--out", "/proc/forbidden/x"} + kSmall);
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains("/proc/forbidden/x"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
