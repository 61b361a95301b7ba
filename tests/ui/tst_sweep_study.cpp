// An Optuna study in the sweep tab, as a study rather than a sweep (issue 32, item 2), on the
// files python3-optuna writes at test time (the CTest fixture optuna_storage): "Rank by" offers
// the study's objective (its trials' value) and the metrics its trials have (their intermediate
// values), not the experiment's sweep metrics, and re-ranks the trials; "Sweep form…" gives the
// sweep's form back; the CSV holds the study's columns (trial, value, state, params); a trial
// still running is drawn in parallel coordinates unlike a failed one (green dots, grey dashes);
// at 1024x768 the study's table shows at least five rows (the design's rows hidden).
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "Process.h"
#include "ReadFile.h"
#include "TestWindow.h"
#include "sweep/SweepForm.h"
#include "sweep/SweepParallel.h"
#include "sweep/SweepTable.h"
#include "sweep/SweepTab.h"
#include "sweep/SweepView.h"

using namespace ade::ui;

namespace {

QString studyFixture(const char* name) {
    return QDir(QStringLiteral(ADE_OPTUNA_FIXTURE_DIR)).filePath(QString::fromLatin1(name));
}

QStringList comboData(QComboBox* box) {
    QStringList out;
    for (int i = 0; i < box->count(); ++i)
        out << box->itemData(i).toString();
    return out;
}

// Adds trial 8 to study "lr-lambda" of the SQLite file argv[1], left running (one report).
const char* const kRunningTrial =
    "import sys, optuna\n"
    "from optuna.distributions import FloatDistribution as F, CategoricalDistribution as C\n"
    "optuna.logging.set_verbosity(optuna.logging.ERROR)\n"
    "s = optuna.load_study(study_name='lr-lambda', storage='sqlite:///' + sys.argv[1])\n"
    "t = s.ask({'lr': F(0.01, 1.0, log=True), 'lambda': F(0.0, 1.0), "
    "'optimizer': C(['gd', 'adam'])})\n"
    "t.report(0.75, 0)\n";

}  // namespace

class TestSweepStudy : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY2(QFileInfo::exists(studyFixture("study.db")),
                 "the fixture optuna_storage_fixture (python3-optuna) did not write the studies");
    }

    void rankByOffersTheStudysMetrics() {
        auto w = adetest::makeWindow();
        SweepView* v = w->sweepTab()->view();
        QComboBox* metric = v->form()->metricBox();
        QVERIFY(comboData(metric).contains(QStringLiteral("excess_risk")));  // a sweep's, before
        QVERIFY(w->sweepTab()->openOptunaStudy(studyFixture("study.db")));
        // The study's objective first, then what its trials reported; no sweep metric.
        QCOMPARE(comboData(metric), (QStringList{QStringLiteral("value"), QStringLiteral("objective")}));
        QCOMPARE(v->results().metric, QStringLiteral("value"));
        QCOMPARE(v->table()->horizontalHeaderItem(4)->text(), QStringLiteral("Value"));
        // The design's rows are hidden: a study is read, not run.
        QVERIFY(!v->form()->keyBox(0)->isVisibleTo(v));
        QVERIFY(!v->findChild<QWidget*>(QStringLiteral("sweepSeeds"))->isVisibleTo(v));
        QVERIFY(metric->isVisibleTo(v));

        // Ranked by the best intermediate value: the table and the views follow.
        metric->setCurrentIndex(1);
        emit metric->activated(1);
        auto* stat = v->findChild<QComboBox*>(QStringLiteral("sweepStat"));
        stat->setCurrentIndex(stat->findData(QStringLiteral("best")));
        emit stat->activated(stat->currentIndex());
        QCOMPARE(v->results().metric, QStringLiteral("objective"));
        QCOMPARE(v->results().stat, QStringLiteral("best"));
        QVERIFY2(v->table()->horizontalHeaderItem(4)->text().contains(QStringLiteral("intermediate")),
                 qPrintable(v->table()->horizontalHeaderItem(4)->text()));
        QVERIFY(v->parallel()->note().contains(QStringLiteral("trial")));
        // Each finished trial's number is now its lowest report (its intermediate values).
        int checked = 0;
        for (const auto& c : v->results().configs)
            for (const auto& o : v->outcomes())
                if (!c.runNames.empty() && o.run.name == c.runNames.front() &&
                    !o.result.history.rows.empty()) {
                    double lowest = INFINITY;
                    for (const auto& row : o.result.history.rows)
                        if (std::isfinite(row[1])) lowest = std::min(lowest, row[1]);
                    QCOMPARE(c.mean, lowest);
                    ++checked;
                }
        QVERIFY(checked >= 5);

        // "Sweep form…": the sweep's form and metrics again, the study still shown.
        auto* run = v->findChild<QPushButton*>(QStringLiteral("sweepRun"));
        QCOMPARE(run->text(), QStringLiteral("Sweep form…"));
        run->click();
        QVERIFY(v->form()->keyBox(0)->isVisibleTo(v));
        QVERIFY(comboData(metric).contains(QStringLiteral("excess_risk")));
        QVERIFY(!comboData(metric).contains(QStringLiteral("objective")));
        QCOMPARE(run->text(), QStringLiteral("Run sweep"));
        QVERIFY(v->showsOptunaStudy());
    }

    void csvHasTheStudysColumns() {
        auto w = adetest::makeWindow();
        SweepView* v = w->sweepTab()->view();
        QVERIFY(w->sweepTab()->openOptunaStudy(studyFixture("study.db")));
        QTemporaryDir tmp;
        const QString csv = tmp.filePath(QStringLiteral("trials.csv"));
        QVERIFY(v->exportCsv(csv));
        const QStringList rows = QString::fromUtf8(adetest::readBytes(csv)).trimmed().split('\n');
        QCOMPARE(rows.front(), QStringLiteral("trial,value,state,lr,lambda,optimizer"));
        QCOMPARE(rows.size(), 9);  // eight trials, by number
        QVERIFY2(rows[1].startsWith(QStringLiteral("0,1,COMPLETE,0.1,0,gd")), qPrintable(rows[1]));
        QVERIFY2(rows[3].startsWith(QStringLiteral("2,")) && rows[3].contains(QStringLiteral(",PRUNED,")),
                 qPrintable(rows[3]));
        QVERIFY2(rows[7].startsWith(QStringLiteral("6,,FAIL,")), qPrintable(rows[7]));
    }

    void runningTrialsAreNotDrawnAsFailed() {
        QTemporaryDir tmp;
        const QString db = tmp.filePath(QStringLiteral("running.db"));
        QVERIFY(QFile::copy(studyFixture("study.db"), db));
        QFile(db).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        const auto r = testproc::run(QStringLiteral(ADE_DEBIAN_PYTHON),
                                     {QStringLiteral("-W"), QStringLiteral("ignore"), QStringLiteral("-c"),
                                      QString::fromLatin1(kRunningTrial), db},
                                     120000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto w = adetest::makeWindow();
        SweepView* v = w->sweepTab()->view();
        QVERIFY(w->sweepTab()->openOptunaStudy(db));
        int running = -1, failed = -1;
        for (int i = 0; i < static_cast<int>(v->results().configs.size()); ++i) {
            if (v->results().trialState(i) == QStringLiteral("running")) running = i;
            if (v->results().trialState(i) == QStringLiteral("failed")) failed = i;
        }
        QVERIFY(running >= 0 && failed >= 0);
        const QPen run = v->parallel()->linePen(running), fail = v->parallel()->linePen(failed);
        QCOMPARE(run.style(), Qt::DotLine);
        QCOMPARE(run.color(), pendingTrialColor());
        QCOMPARE(fail.style(), Qt::DashLine);
        QVERIFY(run.color() != fail.color());
        QVERIFY(v->parallel()->note().contains(QStringLiteral("running or waiting: green dots")));
        QVERIFY(v->parallel()->note().contains(QStringLiteral("failed: grey dashes")));
        // Its paper figure draws it so too.
        const PaperFigure paper = v->parallel()->paperFigure();
        QVERIFY(paper.lines);
        int dotted = 0;
        for (const FigureCurve& c : paper.lines->curves)
            dotted += c.style == Qt::DotLine && c.color == pendingTrialColor();
        QCOMPARE(dotted, 1);
    }

    // At 1024x768 the study's table keeps at least five rows in view (it showed one and a half:
    // the sweep's design rows took the height). The sweep tab's scroll area at the size it has
    // in a 1024x768 window fitted to the screen (668 x 509, measured on its screenshot), a
    // little smaller here.
    void tableShowsRowsAt1024x768() {
        QScrollArea area;
        area.setWidgetResizable(true);
        auto* v = new SweepView;
        area.setWidget(v);
        area.resize(660, 500);
        area.show();
        QVERIFY(v->openOptunaStudy(studyFixture("study.db")));
        SweepTable* t = v->table();
        QTRY_VERIFY(t->isVisible() && area.viewport()->height() > 0);
        QCoreApplication::processEvents();
        // Rows whole in the table's viewport and inside what the scroll area shows.
        const QRect shown = area.viewport()->rect();
        int whole = 0;
        for (int row = 0; row < t->rowCount(); ++row) {
            const QRect cell = t->visualRect(t->model()->index(row, 0));
            const QRect inArea(t->viewport()->mapTo(area.viewport(), cell.topLeft()), cell.size());
            whole += t->viewport()->rect().contains(cell) && shown.contains(inArea);
        }
        if (!qEnvironmentVariableIsEmpty("ADE_SWEEP_STUDY_SHOT"))
            area.grab().save(qEnvironmentVariable("ADE_SWEEP_STUDY_SHOT"));
        QVERIFY2(whole >= 5, qPrintable(QStringLiteral("%1 whole rows in view").arg(whole)));
    }
};

QTEST_MAIN(TestSweepStudy)
#include "tst_sweep_study.moc"
