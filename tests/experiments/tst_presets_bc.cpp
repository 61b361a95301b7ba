// The Paper B presets through the CLI (shortened with --set): every run completes, writes the
// metric columns of MODELS.md, and the Darcy data and stage-1 weights are reused from the cache.
#include <QtTest>

#include "Process.h"

namespace {

using Result = testproc::ProcessResult;

Result runCli(const QStringList& args, const QString& cacheDir) {
    QProcessEnvironment env;
    env.insert("ADE_CACHE_DIR", cacheDir);
    return testproc::runCli(args, 60000, env);
}

// Header and last row of a metrics.csv.
QPair<QStringList, QStringList> lastRow(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QStringList lines;
    for (const auto& l : QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts))
        if (!l.startsWith('#')) lines << l;
    if (lines.size() < 2) return {};
    return {lines.first().split(','), lines.last().split(',')};
}

}  // namespace

class TestPresetsBC : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_, cache_;

  private slots:
    void runsEveryRegulariser_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QStringList>("sets");
        QTest::addColumn<QStringList>("columns");
        QTest::newRow("b") << "b-regularizers" << QStringList{"iterations=200", "data.n=64"}
                           << QStringList{"train_loss",        "test_loss",
                                          "gen_gap",           "norm_WQ",
                                          "norm_WK",           "imbalance",
                                          "manifold_distance", "manifold_distance_rel",
                                          "reg_value"};
        QTest::newRow("c") << "c-lora-drift" << QStringList{"iterations=200", "data.n=64"}
                           << QStringList{"norm_U", "norm_V", "imbalance", "manifold_distance"};
        QTest::newRow("darcy") << "darcy-stage2"
                               << QStringList{"iterations=6",        "log_every=3",
                                              "darcy.resolution=16", "darcy.train=40",
                                              "darcy.test=10",       "stage1.epochs=2",
                                              "darcy.width=8"}
                               << QStringList{"train_loss", "test_loss", "gen_gap", "rmse",
                                              "rel_l2",     "norm_WQ",   "norm_WK"};
    }
    void runsEveryRegulariser() {
        QFETCH(QString, preset);
        QFETCH(QStringList, sets);
        QFETCH(QStringList, columns);
        QStringList args = {"run",  "--preset", preset,   "--out", tmp_.filePath(preset),
                            "--quiet", "--seeds", "1"};
        for (const auto& s : sets)
            args << "--set" << s;
        const Result r = runCli(args, cache_.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const char* run : {"none", "log-amplified", "power"}) {
            const auto [header, row] = lastRow(tmp_.filePath(preset + "/" + run + "/metrics.csv"));
            QVERIFY2(!header.isEmpty(), run);
            for (const auto& c : columns) {
                const int i = header.indexOf(c);
                QVERIFY2(i >= 0, qPrintable(c));
                bool ok = false;
                const double v = row.value(i).toDouble(&ok);
                QVERIFY2(ok && std::isfinite(v), qPrintable(c + " = " + row.value(i)));
            }
            const int reg = header.indexOf("reg_value");
            QVERIFY((row.value(reg).toDouble() == 0.0) == (QString(run) == "none"));
        }
        if (preset == "darcy-stage2") {
            // Generated and trained once (first run), reused by the other two runs.
            QCOMPARE(r.err.count("darcy: generated"), 1);
            QCOMPARE(r.err.count("darcy: stage 1"), 1);
            // A second process reuses the disk cache: no PDE solve, no stage 1.
            const Result again = runCli(args, cache_.path());
            QVERIFY2(again.code == 0, qPrintable(again.err));
            QVERIFY2(!again.err.contains("darcy:"), qPrintable(again.err));
            const auto [header, before] = lastRow(tmp_.filePath(preset + "/power/metrics.csv"));
            // Corrupt cache files are regenerated (identically), never a crash.
            for (const auto& f : QDir(cache_.path()).entryInfoList(QDir::Files)) {
                QFile file(f.filePath());
                QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
                file.write("{\"key\": 3, garbage");
            }
            const Result fixed = runCli(args, cache_.path());
            QVERIFY2(fixed.code == 0, qPrintable(fixed.err));
            QCOMPARE(fixed.err.count("darcy: generated"), 1);
            QCOMPARE(fixed.err.count("darcy: stage 1"), 1);
            const auto [h2, after] = lastRow(tmp_.filePath(preset + "/power/metrics.csv"));
            QCOMPARE(after.size(), before.size());
            for (int i = 0; i < after.size(); ++i)
                if (header[i] != "time_s") QCOMPARE(after[i], before[i]);
        }
    }

    void badDarcyPatchIsAClearError() {
        const Result r = runCli({"run", "--preset", "darcy-stage2", "--out", tmp_.filePath("bad"),
                                 "--set", "darcy.patch=5", "--quiet"},
                                cache_.path());
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("darcy.patch") && r.err.contains("divide"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestPresetsBC)
#include "tst_presets_bc.moc"
