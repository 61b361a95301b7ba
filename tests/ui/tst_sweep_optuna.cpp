// An Optuna study's storage in the sweep tab (issue 32, item 2), on files written by Debian's
// python3-optuna at test time (the CTest fixture optuna_storage, tests/core/data/
// make_optuna_study.py): the SQLite file's first study in parallel coordinates (three params,
// every trial a line), its pruned and failed trials in the table, a study picked from the combo
// box (two params: a filled heatmap; one: the one-key plot), a trial's intermediate values as its
// curve in the run list, the journal file through "Open sweep folder", the title saying
// read-only, the files' bytes unchanged, and a file that is not a study refused with a message
// and nothing changed.
// ADE_SWEEP_OPTUNA_SHOTS=DIR saves the window with the study's views there (under xvfb-run with a
// 1600x1000 screen, or 1024x768: the window fitted to it); with ADE_SWEEP_OPTUNA_FILE=FILE also
// that study (one made with attention_explorer.tuning) and its best trial's curve in the charts.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "TestWindow.h"
#include "runs/RunStore.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepLinePlot.h"
#include "sweep/SweepParallel.h"
#include "sweep/SweepTable.h"
#include "sweep/SweepView.h"

using namespace ade::ui;

namespace {

QString fixture(const char* name) {
    return QDir(QStringLiteral(ADE_OPTUNA_FIXTURE_DIR)).filePath(QString::fromLatin1(name));
}

QByteArray bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString statusOf(SweepView* v) {
    return v->findChild<QLabel*>(QStringLiteral("sweepStatus"))->text();
}

// The texts of a table column whose header is `header`.
QStringList column(SweepTable* t, const QString& header) {
    QStringList out;
    for (int c = 0; c < t->columnCount(); ++c)
        if (t->horizontalHeaderItem(c) && t->horizontalHeaderItem(c)->text().contains(header))
            for (int r = 0; r < t->rowCount(); ++r)
                out << (t->item(r, c) ? t->item(r, c)->text() : QString());
    return out;
}

void shot(MainWindow* w, const QString& name) {
    const QString dir = qEnvironmentVariable("ADE_SWEEP_OPTUNA_SHOTS");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    const QSize screen = w->screen()->availableGeometry().size();
    if (screen.width() <= 1100)
        fitToScreen(*w);
    else
        w->resize(1600, 1000);
    QCoreApplication::processEvents();
    QVERIFY(w->grab().save(QDir(dir).filePath(
        QStringLiteral("%1-%2x%3.png").arg(name).arg(w->width()).arg(w->height()))));
}

}  // namespace

class TestSweepOptuna : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY2(QFileInfo::exists(fixture("study.db")) && QFileInfo::exists(fixture("study.journal")),
                 "the fixture optuna_storage_fixture (python3-optuna) did not write the studies");
    }

    void studyInTheViews() {
        const QByteArray db = bytes(fixture("study.db"));
        const QDateTime dbTime = QFileInfo(fixture("study.db")).lastModified();
        auto w = adetest::makeWindow();
        w->resize(1600, 1000);
        w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentIndex(1);
        SweepView* v = w->sweepTab()->view();
        QVERIFY(w->sweepTab()->openOptunaStudy(fixture("study.db")));

        // The first study: three params, so parallel coordinates, a line per trial.
        QVERIFY(v->showsOptunaStudy());
        QCOMPARE(v->optunaStudy(), QStringLiteral("lr-lambda"));
        QVERIFY(statusOf(v).contains(QStringLiteral("(Optuna study, read-only)")));
        QVERIFY2(statusOf(v).contains(QStringLiteral("8 trials: 5 complete, 2 pruned, 1 failed")),
                 qPrintable(statusOf(v)));
        QCOMPARE(v->currentChart(), static_cast<SweepChart*>(v->parallel()));
        QCOMPARE(v->parallel()->drawnCount(), 8);
        QCOMPARE(v->parallel()->axisCount(), 4);
        QCOMPARE(v->results().keys,
                 (std::vector<std::string>{"lr", "lambda", "optimizer"}));
        QCOMPARE(v->results().best(), 0);
        QCOMPARE(v->results().configs[0].mean, 1.0);
        QCOMPARE(v->table()->rowCount(), 8);
        const QStringList done = column(v->table(), QStringLiteral("Seeds"));
        QCOMPARE(done.count(QStringLiteral("pruned")), 2);
        QVERIFY(column(v->table(), QStringLiteral("optimizer")).contains(QStringLiteral("adam")));
        // The study's other studies are offered.
        auto* studies = v->findChild<QComboBox*>(QStringLiteral("sweepStudies"));
        QVERIFY(studies->isVisible());
        QCOMPARE(v->optunaStudies(),
                 (QStringList{QStringLiteral("lr-lambda"), QStringLiteral("second"),
                              QStringLiteral("grid2")}));
        shot(w.get(), QStringLiteral("optuna-parallel"));

        // A trial's curve: its intermediate values (step = iteration) into the run list.
        std::vector<ade::RunOutcome> outcomes;
        int requests = 0;
        connect(v, &SweepView::openRunsRequested, this,
                [&](const std::vector<ade::RunOutcome>& r, const QString&) {
                    outcomes = r;
                    ++requests;
                });
        emit v->parallel()->configActivated(0);
        QCOMPARE(requests, 1);
        QCOMPARE(outcomes.size(), std::size_t(1));
        QCOMPARE(outcomes[0].run.name, std::string("trial_0"));
        QCOMPARE(outcomes[0].result.history.rows.size(), std::size_t(4));
        QCOMPARE(outcomes[0].result.history.rows[2][0], 200.0);
        bool inStore = false;
        for (const auto& r : w->store()->runs())
            inStore = inStore || (r->history().rows.size() == 4 && r->history().columns.size() == 3);
        QVERIFY(inStore);

        // Two params: the heatmap, every cell filled (the sweep tab in front again: the trial's
        // curve brought the charts forward).
        w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentIndex(1);
        studies->setCurrentIndex(2);
        emit studies->activated(2);
        QCOMPARE(v->optunaStudy(), QStringLiteral("grid2"));
        QCOMPARE(v->currentChart(), static_cast<SweepChart*>(v->heatmap()));
        QCOMPARE(v->heatmap()->columns(), 2);
        QCOMPARE(v->heatmap()->rows(), 2);
        for (int c = 0; c < 2; ++c)
            for (int r = 0; r < 2; ++r)
                QVERIFY(v->heatmap()->cell(c, r) >= 0);
        QCOMPARE(v->heatmap()->drawnCount(), 4);
        QCOMPARE(v->results().text(v->heatmap()->markedBest(), "lr"), QStringLiteral("0.1"));
        QCOMPARE(v->results().text(v->heatmap()->markedBest(), "lambda"), QStringLiteral("0"));
        shot(w.get(), QStringLiteral("optuna-heatmap"));

        // One param: the one-key plot.
        QVERIFY(v->openOptunaStudy(fixture("study.db"), QStringLiteral("second")));
        QCOMPARE(v->currentChart(), static_cast<SweepChart*>(v->linePlot()));
        QCOMPARE(v->linePlot()->xCount(), 2);
        QCOMPARE(v->linePlot()->drawnCount(), 2);

        // Read-only: the file is as it was.
        QVERIFY(bytes(fixture("study.db")) == db);
        QCOMPARE(QFileInfo(fixture("study.db")).lastModified(), dbTime);
        QVERIFY(!QFileInfo::exists(fixture("study.db-journal")));
    }

    void shotsOfAStudy() {
        const QString file = qEnvironmentVariable("ADE_SWEEP_OPTUNA_FILE");
        if (file.isEmpty() || qEnvironmentVariableIsEmpty("ADE_SWEEP_OPTUNA_SHOTS"))
            QSKIP("set ADE_SWEEP_OPTUNA_FILE and ADE_SWEEP_OPTUNA_SHOTS to write the screenshots");
        auto w = adetest::makeWindow();
        w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentIndex(1);
        SweepView* v = w->sweepTab()->view();
        QVERIFY2(w->sweepTab()->openOptunaStudy(file), qPrintable(statusOf(v)));
        shot(w.get(), QStringLiteral("study"));
        emit v->currentChart()->configActivated(v->results().best());
        shot(w.get(), QStringLiteral("study-best-curve"));
        // The first trial's curve beside the best's.
        w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentIndex(1);
        emit v->currentChart()->configActivated(v->results().configs.size() - 1);
        shot(w.get(), QStringLiteral("study-two-curves"));
    }

    void journalThroughOpenSweepFolder() {
        const QByteArray journal = bytes(fixture("study.journal"));
        auto w = adetest::makeWindow();
        SweepView* v = w->sweepTab()->view();
        QVERIFY(w->sweepTab()->openFolder(fixture("study.journal")));
        QCOMPARE(v->optunaStudy(), QStringLiteral("lr-lambda"));
        QCOMPARE(v->parallel()->drawnCount(), 8);
        QVERIFY(!v->findChild<QComboBox*>(QStringLiteral("sweepStudies"))->isVisible());
        QVERIFY(bytes(fixture("study.journal")) == journal);
    }

    void notAStudy() {
        QTemporaryDir tmp;
        const QString bad = tmp.filePath(QStringLiteral("notes.db"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("hello, not a database\n");
        }
        auto w = adetest::makeWindow();
        SweepView* v = w->sweepTab()->view();
        QVERIFY(w->sweepTab()->openOptunaStudy(fixture("study.db")));
        QVERIFY(!w->sweepTab()->openOptunaStudy(bad));
        QVERIFY2(statusOf(v).contains(QStringLiteral("not an Optuna storage")),
                 qPrintable(statusOf(v)));
        // Nothing else changed: the study shown before is still shown.
        QCOMPARE(v->optunaStudy(), QStringLiteral("lr-lambda"));
        QCOMPARE(v->table()->rowCount(), 8);
        QCOMPARE(bytes(bad), QByteArray("hello, not a database\n"));
    }
};

QTEST_MAIN(TestSweepOptuna)
#include "tst_sweep_optuna.moc"
