// An Optuna study's storage in the sweep tab (issue 32, item 2), on files written by Debian's
// python3-optuna at test time (the CTest fixture optuna_storage, tests/core/data/
// make_optuna_study.py): the SQLite file's first study in parallel coordinates (three params,
// every trial a line), its pruned and failed trials in the table, a study picked from the combo
// box (two params: a filled heatmap; one: the one-key plot), a trial's intermediate values as its
// curve in the run list, the journal file through "Open sweep folder", the title saying
// read-only, the files' bytes unchanged, and a file that is not a study refused with a message
// and nothing changed.
// Then the table's words for a study (Trial, Value, State: "pruned at iteration N", "failed",
// "running"), the best row the best complete trial (never a trial pruned at its last step with a
// lower value), File > Open Optuna study… (Ctrl+Shift+O) and File > Open session… with a study,
// the program's --optuna-study / --study (its exit codes and messages), and a copy of a study
// re-read when Debian's python3-optuna adds a trial to it (running, then complete).
// ADE_SWEEP_OPTUNA_SHOTS=DIR saves the window with the study's views there (under xvfb-run with a
// 1600x1000 screen, or 1024x768: the window fitted to it); with ADE_SWEEP_OPTUNA_FILE=FILE also
// that study (one made with attention_explorer.tuning), the table's last rows, its best trial's
// curve in the charts and a pruned trial's beside it.
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QStatusBar>
#include <QTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTreeWidget>
#include <QTemporaryDir>
#include <QTest>

#include "Process.h"
#include "TestWindow.h"
#include "sessions/SessionManager.h"
#include "runlist/RunListWidget.h"
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

// The texts of column `header` by trial number (the Trial column).
QMap<int, QString> byTrial(SweepTable* t, const QString& header) {
    QMap<int, QString> out;
    const QStringList trials = column(t, QStringLiteral("Trial"));
    const QStringList values = column(t, header);
    for (int i = 0; i < trials.size() && i < values.size(); ++i)
        out[trials[i].toInt()] = values[i];
    return out;
}

QStringList headers(SweepTable* t) {
    QStringList out;
    for (int c = 0; c < t->columnCount(); ++c)
        out << t->horizontalHeaderItem(c)->text();
    return out;
}

// Adds trial 8 to study "lr-lambda" of the SQLite file argv[1] and leaves it running (enqueued
// params, one report at step 0), as a tuner that is still at work does.
const char* const kAskTrial =
    "import sys, optuna\n"
    "from optuna.distributions import FloatDistribution as F, CategoricalDistribution as C\n"
    "optuna.logging.set_verbosity(optuna.logging.ERROR)\n"
    "s = optuna.load_study(study_name='lr-lambda', storage='sqlite:///' + sys.argv[1])\n"
    "s.enqueue_trial({'lr': 0.05, 'lambda': 0.0, 'optimizer': 'gd'})\n"
    "t = s.ask({'lr': F(0.01, 1.0, log=True), 'lambda': F(0.0, 1.0), "
    "'optimizer': C(['gd', 'adam'])})\n"
    "t.report(0.75, 0)\n"
    "assert t.number == 8\n";
// Completes that trial with value 0.5 (the best of the study).
const char* const kTellTrial =
    "import sys, optuna\n"
    "optuna.logging.set_verbosity(optuna.logging.ERROR)\n"
    "s = optuna.load_study(study_name='lr-lambda', storage='sqlite:///' + sys.argv[1])\n"
    "s.tell(8, 0.5)\n";

// Runs Debian's python3 (with python3-optuna) on `script` with the argument `arg`.
testproc::ProcessResult python(const char* script, const QString& arg) {
    return testproc::run(QStringLiteral(ADE_DEBIAN_PYTHON),
                         {QStringLiteral("-W"), QStringLiteral("ignore"), QStringLiteral("-c"),
                          QString::fromLatin1(script), arg},
                         120000);
}

// The GUI program with `args` (offscreen, no settings): exit code, stdout, stderr.
testproc::ProcessResult gui(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    QTemporaryDir config;
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), config.path());
    p.setProcessEnvironment(env);
    return testproc::run(p, QStringLiteral(ADE_GUI_PROGRAM),
                         QStringList{QStringLiteral("--no-settings")} + args, 120000);
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
        // A study's words: a trial has one value and a state, not a mean over seeds.
        QCOMPARE(headers(v->table()),
                 (QStringList{QStringLiteral("Trial"), keyLabel("lr"), keyLabel("lambda"),
                              keyLabel("optimizer"), QStringLiteral("Value"),
                              QStringLiteral("State")}));
        const QMap<int, QString> state = byTrial(v->table(), QStringLiteral("State"));
        QCOMPARE(state.size(), 8);
        for (int t : {0, 1, 3, 4, 7})
            QCOMPARE(state[t], QStringLiteral("complete"));
        QCOMPARE(state[2], QStringLiteral("pruned at iteration 100"));
        QCOMPARE(state[5], QStringLiteral("pruned at iteration 100"));
        QCOMPARE(state[6], QStringLiteral("failed"));
        QCOMPARE(byTrial(v->table(), QStringLiteral("Value"))[0], QStringLiteral("1"));
        // Best first, complete trials before pruned ones, the failed one last; the best in bold.
        QCOMPARE(column(v->table(), QStringLiteral("Trial")),
                 (QStringList{"0", "4", "1", "7", "3", "5", "2", "6"}));
        QVERIFY(v->table()->item(0, 0)->font().bold());
        QVERIFY(!v->table()->item(5, 0)->font().bold());
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
        // The table's last rows (pruned, failed, running trials) in view.
        w->sweepTab()->ensureWidgetVisible(v->table());
        v->table()->scrollToBottom();
        shot(w.get(), QStringLiteral("study-table-end"));
        v->table()->scrollToTop();
        emit v->currentChart()->configActivated(v->results().best());
        shot(w.get(), QStringLiteral("study-best-curve"));
        // A pruned trial's curve beside the best's (the last config when none was pruned).
        w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentIndex(1);
        int other = static_cast<int>(v->results().configs.size()) - 1;
        for (int i = other; i >= 0; --i)
            if (v->results().configs[i].seedsPruned > 0) other = i;
        emit v->currentChart()->configActivated(other);
        shot(w.get(), QStringLiteral("study-two-curves"));
    }

    // A trial pruned after its report at its last step ran as far as the complete trials: its
    // value is an intermediate one all the same, and lower than theirs. The best is the best
    // complete trial (late.db: trial 1, x = 2), not the pruned trial 0 (x = 1).
    void prunedTrialIsNeverBest() {
        auto w = adetest::makeWindow();
        SweepView* v = w->sweepTab()->view();
        QVERIFY2(w->sweepTab()->openOptunaStudy(fixture("late.db")), qPrintable(statusOf(v)));
        QCOMPARE(v->optunaStudy(), QStringLiteral("late-prune"));
        const int best = v->results().best();
        QVERIFY(best >= 0);
        QCOMPARE(v->results().text(best, "x"), QStringLiteral("2"));
        QCOMPARE(v->results().trialState(best), QStringLiteral("complete"));
        const QMap<int, QString> state = byTrial(v->table(), QStringLiteral("State"));
        QCOMPARE(state[0], QStringLiteral("pruned at iteration 300"));
        QCOMPARE(state[1], QStringLiteral("complete"));
        QCOMPARE(state[3], QStringLiteral("failed"));
        // Complete trials first: the pruned one's lower value comes after them.
        QCOMPARE(column(v->table(), QStringLiteral("Trial")), (QStringList{"1", "2", "0", "3"}));
        QVERIFY(v->table()->item(0, 0)->font().bold());

        // Its curve says it was pruned, in the run list (state and name, the legend's text).
        w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentIndex(1);
        int pruned = -1;
        for (int i = 0; i < static_cast<int>(v->results().configs.size()); ++i)
            if (v->results().configs[i].seedsPruned > 0) pruned = i;
        QVERIFY(pruned >= 0);
        emit v->linePlot()->configActivated(pruned);
        int id = -1;
        for (const auto& r : w->store()->runs())
            if (r->name == QStringLiteral("trial_0 (pruned at iteration 300)")) id = r->id;
        QVERIFY(id >= 0);
        QTreeWidgetItem* item = w->runList()->itemForRun(id);
        QVERIFY(item);
        QCOMPARE(item->text(RunListWidget::ColState), QStringLiteral("pruned at iteration 300"));
    }

    // File > Open Optuna study… (its own key, bound to nothing else) asks for the file and shows
    // the study in the sweep tab, brought to the front.
    void fileMenuOpensAStudy() {
        auto w = adetest::makeWindow();
        auto* tabs = w->findChild<QTabWidget*>(QStringLiteral("tabs"));
        tabs->setCurrentIndex(0);
        QAction* open = w->action(QStringLiteral("openOptunaStudy"));
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
        int bound = 0;
        for (const QAction* a : w->findChildren<QAction*>())
            bound += a->shortcuts().contains(open->shortcut()) ? 1 : 0;
        QCOMPARE(bound, 1);
        QMenu* file = w->menuBar()->actions().constFirst()->menu();
        QVERIFY(file->actions().contains(open));
        // The dialog is asked for, with its title; cancelled, nothing opens. (Choosing the
        // file in Qt's own dialog waits for its file-system model, which lists the folder on a
        // thread and did not, on a loaded machine, within the test's five minutes: the file it
        // would give is opened through the same SweepTab::openOptunaStudy below and in
        // openSessionTakesAStudy.)
        QTimer answer;
        QString asked;
        connect(&answer, &QTimer::timeout, this, [&] {
            for (QWidget* top : QApplication::topLevelWidgets())
                if (auto* f = qobject_cast<QFileDialog*>(top); f && f->isVisible()) {
                    asked = f->windowTitle();
                    answer.stop();
                    f->reject();
                }
        });
        answer.start(20);
        open->trigger();
        answer.stop();
        QVERIFY2(asked.contains(QStringLiteral("Optuna")), qPrintable(asked));
        SweepView* v = w->sweepTab()->view();
        QVERIFY(!v->showsOptunaStudy());
        QCOMPARE(tabs->currentIndex(), 0);
        QString error;
        QVERIFY2(w->sweepTab()->openOptunaStudy(fixture("study.db"), {}, &error), qPrintable(error));
        QVERIFY(v->showsOptunaStudy());
        QCOMPARE(v->optunaStudy(), QStringLiteral("lr-lambda"));
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(w->sweepTab()));
    }

    // File > Open session… (and Open recent, which opens through it) recognises a study's
    // storage: the sweep tab shows it, the runs stay; a file named as one that is none is
    // refused as a study, with why.
    void openSessionTakesAStudy() {
        auto w = adetest::makeWindow();
        const int runs = static_cast<int>(w->store()->runs().size());
        QString error;
        QVERIFY2(w->sessions()->openSession(fixture("study.journal"), &error), qPrintable(error));
        SweepView* v = w->sweepTab()->view();
        QCOMPARE(v->optunaStudy(), QStringLiteral("lr-lambda"));
        QCOMPARE(static_cast<int>(w->store()->runs().size()), runs);
        QCOMPARE(w->findChild<QTabWidget*>(QStringLiteral("tabs"))->currentWidget(),
                 static_cast<QWidget*>(w->sweepTab()));
        QTemporaryDir tmp;
        const QString bad = tmp.filePath(QStringLiteral("notes.db"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("hello\n");
        }
        QVERIFY(!w->sessions()->openSession(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("not an Optuna storage")), qPrintable(error));
        QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("not an Optuna storage")),
                 qPrintable(w->statusBar()->currentMessage()));
        QCOMPARE(v->optunaStudy(), QStringLiteral("lr-lambda"));  // nothing else changed
    }

    // The launch option in the window: --optuna-study FILE --study NAME.
    void launchOpensAStudy() {
        ade::ui::LaunchOptions o;
        o.persistSettings = false;
        o.optunaStudy = fixture("study.db");
        o.study = QStringLiteral("grid2");
        MainWindow w(o);
        w.show();
        w.launch();
        SweepView* v = w.sweepTab()->view();
        QTRY_VERIFY_WITH_TIMEOUT(v->showsOptunaStudy(), 30000);
        QCOMPARE(v->optunaStudy(), QStringLiteral("grid2"));
        QCOMPARE(w.findChild<QTabWidget*>(QStringLiteral("tabs"))->currentWidget(),
                 static_cast<QWidget*>(w.sweepTab()));
        // A file that is no study: said in the window (the sweep tab and the status bar).
        QTemporaryDir tmp;
        const QString bad = tmp.filePath(QStringLiteral("missing.db"));
        ade::ui::LaunchOptions b = o;
        b.optunaStudy = bad;
        b.study.clear();
        MainWindow wb(b);
        wb.show();
        wb.launch();
        QTRY_VERIFY_WITH_TIMEOUT(statusOf(wb.sweepTab()->view()).contains(QStringLiteral("cannot read it")),
                                 30000);
        QVERIFY(wb.statusBar()->currentMessage().contains(QStringLiteral("missing.db")));
        QVERIFY(!wb.sweepTab()->view()->showsOptunaStudy());
    }

    // The program: --optuna-study with --study, a screenshot of it; a bad file on stderr with
    // exit code 2 under --quit-when-done (as a bad session); --study alone a usage error.
    void programOptions() {
        QTemporaryDir tmp;
        const QString png = tmp.filePath(QStringLiteral("study.png"));
        auto r = gui({QStringLiteral("--optuna-study"), fixture("study.db"), QStringLiteral("--study"),
                      QStringLiteral("second"), QStringLiteral("--screenshot"), png,
                      QStringLiteral("--quit-when-done")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(QFileInfo(png).size() > 0);
        r = gui({QStringLiteral("--optuna-study"), tmp.filePath(QStringLiteral("none.db")),
                 QStringLiteral("--quit-when-done")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("cannot open the Optuna study")) &&
                     r.err.contains(QStringLiteral("none.db")),
                 qPrintable(r.err));
        r = gui({QStringLiteral("--optuna-study"), fixture("study.db"), QStringLiteral("--study"),
                 QStringLiteral("nope"), QStringLiteral("--quit-when-done")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no study named 'nope'")), qPrintable(r.err));
        r = gui({QStringLiteral("--study"), QStringLiteral("second")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--optuna-study")), qPrintable(r.err));
        r = gui({QStringLiteral("--optuna-study"), fixture("study.db"), QStringLiteral("--preset"),
                 QStringLiteral("x")});
        QCOMPARE(r.code, 2);
    }

    // A study that an Optuna process is still writing: a copy of the fixture, shown with every
    // trial finished (nothing re-read on a timer), gets a trial from python3-optuna, shown as
    // running when the file changes, then complete (and the best) when it is told its value.
    // Reading never writes: the file is as the writer left it.
    void reloadWhileWritten() {
        QTemporaryDir tmp;
        const QString db = tmp.filePath(QStringLiteral("live.db"));
        QVERIFY(QFile::copy(fixture("study.db"), db));
        auto w = adetest::makeWindow();
        SweepView* v = w->sweepTab()->view();
        QVERIFY(w->sweepTab()->openOptunaStudy(db));
        QCOMPARE(v->table()->rowCount(), 8);
        QVERIFY(statusOf(v).contains(QStringLiteral("re-read when the file changes")));
        const QByteArray before = bytes(db);
        const QDateTime time = QFileInfo(db).lastModified();
        QVERIFY(v->openOptunaStudy(db));  // read again: nothing written
        QVERIFY(bytes(db) == before);
        QCOMPARE(QFileInfo(db).lastModified(), time);

        auto r = python(kAskTrial, db);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QTRY_COMPARE_WITH_TIMEOUT(v->table()->rowCount(), 9, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(byTrial(v->table(), QStringLiteral("State"))[8],
                                  QStringLiteral("running"), 30000);
        QCOMPARE(byTrial(v->table(), QStringLiteral("Value"))[8], QStringLiteral("—"));
        QVERIFY2(statusOf(v).contains(QStringLiteral("1 running or waiting")), qPrintable(statusOf(v)));
        const QByteArray written = bytes(db);

        r = python(kTellTrial, db);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QTRY_COMPARE_WITH_TIMEOUT(byTrial(v->table(), QStringLiteral("State"))[8],
                                  QStringLiteral("complete"), 30000);
        QCOMPARE(v->table()->rowCount(), 9);
        QCOMPARE(v->results().trialNumber(v->results().best()), 8);
        QCOMPARE(column(v->table(), QStringLiteral("Trial")).constFirst(), QStringLiteral("8"));
        QVERIFY(bytes(db) != written);  // the writer's change, read
        const QByteArray last = bytes(db);
        QVERIFY(v->openOptunaStudy(db));
        QVERIFY(bytes(db) == last);
        for (const char* extra : {"-journal", "-wal", "-shm"})
            QVERIFY2(!QFileInfo::exists(db + QLatin1String(extra)), extra);
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
