// The sweep tab in the window: keys offered by label and relevance (no Adam knobs under the SDE
// optimiser), the headline metric by default (Experiment C ranks by its test loss, not the
// excess risk it does not have), a λ sweep that keeps λ = 0, two and three keys picking the
// heatmap and parallel coordinates, the status bar during a sweep and Cancel keeping finished
// runs, a clicked config's runs in the run list, Apply to form, exports, and a sweep folder
// written by core's runSweepLocal read back into the table.
// ADE_SWEEP_SHOTS=DIR saves the window with each view there (1600x1000, or fitted to a small
// screen such as 1024x768).
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "Configs.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "ReadFile.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "sweep/SweepView.h"
#include "TestWindow.h"
#include "sweep/SweepForm.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepLinePlot.h"
#include "sweep/SweepParallel.h"
#include "sweep/SweepTable.h"

using namespace ade::ui;
using adetest::tinyA;

namespace {

// The window with the sweep tab in front and the form holding `base`.
std::unique_ptr<MainWindow> sweepWindow(const ade::Config& base) {
    auto w = adetest::makeWindow();
    w->resize(1600, 1000);
    w->form()->setConfig(base);
    w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentIndex(1);
    return w;
}

bool runSweep(SweepView* s, int timeoutMs = kRunWaitMs) {
    QSignalSpy done(s, &SweepView::finished);
    if (!s->start()) {
        qWarning("%s", qPrintable(s->findChild<QLabel*>(QStringLiteral("sweepStatus"))->text()));
        return false;
    }
    return done.wait(timeoutMs);
}

void shots(MainWindow* w, const QString& name) {
    const QString dir = qEnvironmentVariable("ADE_SWEEP_SHOTS");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    // On a small screen (a 1024x768 X server) the window as the program fits it (the About
    // panel tabbed with the parameters); on a large one 1600x1000.
    const QSize screen = w->screen()->availableGeometry().size();
    if (screen.width() <= 1100)
        fitToScreen(*w);
    else
        w->resize(1600, 1000);
    QTest::qWait(400);
    w->grab().save(QDir(dir).filePath(QStringLiteral("%1-%2x%3.png")
                                          .arg(name)
                                          .arg(w->width())
                                          .arg(w->height())));
    w->resize(1600, 1000);
}

}  // namespace

class TestSweep : public QObject {
    Q_OBJECT

  private slots:
    void keysFollowTheExperimentAndTheSettings() {
        auto w = sweepWindow(tinyA(20, {{"optimizer", "sde"}}));
        SweepForm* f = w->sweepView()->form();
        QStringList keys = f->offeredKeys();
        QVERIFY(keys.contains(QStringLiteral("lr")));
        QVERIFY(keys.contains(QStringLiteral("temperature")));
        for (const char* adam : {"adam.beta1", "adam.beta2", "adam.eps", "batch"})
            QVERIFY2(!keys.contains(QLatin1String(adam)), adam);
        QVERIFY(!keys.contains(QStringLiteral("seed")));
        // Labels with the key, the ParamSpec's help as tooltip.
        QComboBox* box = f->keyBox(0);
        const int lr = box->findData(QStringLiteral("lr"));
        QVERIFY(box->itemText(lr).contains(QStringLiteral("(lr)")));
        QVERIFY(box->itemText(lr) != QStringLiteral("lr"));
        QVERIFY(box->itemData(lr, Qt::ToolTipRole).toString().contains(QStringLiteral("Step")));
        // Under Adam its knobs are offered.
        w->form()->setConfig(tinyA(20, {{"optimizer", "adam"}}));
        keys = f->offeredKeys();
        QVERIFY(keys.contains(QStringLiteral("adam.beta1")));
        QVERIFY(keys.contains(QStringLiteral("batch")));
    }

    void defaultMetricIsTheHeadline() {
        auto w = sweepWindow(tinyA(20));
        QCOMPARE(w->sweepView()->form()->metric(), QStringLiteral("excess_risk"));
        w->form()->setConfig(adetest::configFrom({{"experiment", "c"}}));
        QVERIFY(w->sweepView()->form()->metric() != QStringLiteral("excess_risk"));
        QCOMPARE(w->sweepView()->form()->metric(), QStringLiteral("test_loss"));
        QVERIFY(w->sweepView()->form()->metricBox()->findData(QStringLiteral("excess_risk")) < 0);
    }

    void lambdaSweepKeepsZeroAndOpensARun() {
        auto w = sweepWindow(tinyA(60, {{"regularizer", "l2"}}));
        SweepView* s = w->sweepView();
        s->form()->setAxis(0, "lambda", SweepForm::List, QStringLiteral("0, 0.1, 1"));
        s->findChild<QSpinBox*>(QStringLiteral("sweepSeeds"))->setValue(2);
        QVERIFY(runSweep(s));
        QCOMPARE(s->currentChart(), static_cast<SweepChart*>(s->linePlot()));
        QCOMPARE(s->results().configs.size(), std::size_t(3));
        QCOMPARE(s->linePlot()->xCount(), 3);
        QVERIFY(!s->linePlot()->logX());
        QVERIFY(!s->linePlot()->fitted());
        QCOMPARE(s->linePlot()->referenceSlopes(), 0);
        QVERIFY(s->linePlot()->note().contains(QStringLiteral("linear")));
        QCOMPARE(s->table()->rowCount(), 3);
        for (const auto& c : s->results().configs)
            QCOMPARE(c.seedsDone, 2);
        shots(w.get(), QStringLiteral("sweep-1key"));
        // Clicking a config: its two seeds come into the run list, selected, the charts in front.
        const int before = static_cast<int>(w->store()->runs().size());
        emit s->linePlot()->configActivated(0);
        QCOMPARE(static_cast<int>(w->store()->runs().size()), before + 2);
        const QList<int> selected = w->runList()->selectedRunIds();
        QVERIFY(!selected.isEmpty());
        QVERIFY(w->store()->run(selected.front())->config.getReal("lambda") ==
                std::stod(s->results().text(0, "lambda").toStdString()));
        QCOMPARE(w->findChild<QTabWidget*>(QStringLiteral("tabs"))->currentIndex(), 0);
        // A second click selects them again rather than adding copies.
        emit s->linePlot()->configActivated(0);
        QCOMPARE(static_cast<int>(w->store()->runs().size()), before + 2);
        // Apply to form: the selected row's λ (or the best) into the parameter panel.
        s->table()->selectConfig(2);
        QCOMPARE(s->targetConfig(), 2);
        s->findChild<QPushButton*>(QStringLiteral("sweepApply"))->click();
        QCOMPARE(w->form()->config().getReal("lambda"),
                 std::stod(s->results().text(2, "lambda").toStdString()));
        // Exports: the view as PNG / SVG / PDF, the table as CSV with one row per config.
        QTemporaryDir dir;
        for (auto [f, name] : {std::pair{FigureFormat::Png, "v.png"},
                               std::pair{FigureFormat::Svg, "v.svg"},
                               std::pair{FigureFormat::Pdf, "v.pdf"}}) {
            QVERIFY(s->exportView(f, dir.filePath(name)));
            QVERIFY(adetest::readBytes(dir.filePath(name)).size() > 1000);
        }
        QVERIFY(s->exportCsv(dir.filePath(QStringLiteral("t.csv"))));
        const QStringList lines = QString::fromUtf8(adetest::readBytes(dir.filePath("t.csv")))
                                      .trimmed()
                                      .split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines.front().startsWith(QStringLiteral("lambda,")));
    }

    void twoAndThreeKeysPickTheirViews() {
        auto w = sweepWindow(tinyA(60, {{"regularizer", "l2"}}));
        SweepView* s = w->sweepView();
        s->form()->setAxis(0, "lr", SweepForm::List, QStringLiteral("0.02, 0.05, 0.1"));
        s->form()->setAxis(1, "lambda", SweepForm::List, QStringLiteral("0, 0.01, 0.1"));
        s->findChild<QSpinBox*>(QStringLiteral("sweepSeeds"))->setValue(2);
        QVERIFY(runSweep(s));
        QCOMPARE(s->currentChart(), static_cast<SweepChart*>(s->heatmap()));
        QCOMPARE(s->heatmap()->drawnCount(), 9);
        const auto& configs = s->results().configs;
        double low = INFINITY;
        for (const auto& c : configs)
            low = std::min(low, c.mean);
        QCOMPARE(configs[s->heatmap()->markedBest()].mean, low);
        shots(w.get(), QStringLiteral("sweep-2keys"));

        s->form()->setAxis(0, "lr", SweepForm::List, QStringLiteral("0.02, 0.1"));
        s->form()->setAxis(1, "lambda", SweepForm::List, QStringLiteral("0.01, 0.1"));
        s->form()->setAxis(2, "data.n", SweepForm::List, QStringLiteral("8, 16"));
        s->findChild<QSpinBox*>(QStringLiteral("sweepSeeds"))->setValue(1);
        QVERIFY(runSweep(s));
        QCOMPARE(s->currentChart(), static_cast<SweepChart*>(s->parallel()));
        QCOMPARE(s->parallel()->drawnCount(), 8);
        QCOMPARE(s->parallel()->axisCount(), 4);
        shots(w.get(), QStringLiteral("sweep-3keys"));
    }

    void statusBarDuringASweepAndCancelKeepsRuns() {
        auto w = sweepWindow(tinyA(3000));
        SweepView* s = w->sweepView();
        s->form()->setAxis(0, "lr", SweepForm::List, QStringLiteral("0.01, 0.02, 0.03, 0.04, 0.05, 0.06"));
        s->findChild<QSpinBox*>(QStringLiteral("sweepSeeds"))->setValue(2);
        s->findChild<QSpinBox*>(QStringLiteral("sweepJobs"))->setValue(1);
        QSignalSpy done(s, &SweepView::finished);
        QVERIFY(s->start());
        auto* state = w->findChild<QLabel*>(QStringLiteral("stateLabel"));
        QTRY_VERIFY_WITH_TIMEOUT(state->text().contains(QStringLiteral("of 12 runs done")),
                                 kRunWaitMs);
        QVERIFY(state->text().startsWith(QStringLiteral("Sweep: ")));
        QVERIFY(!state->text().contains(QStringLiteral("idle")));
        QTRY_VERIFY_WITH_TIMEOUT(s->outcomes().size() >= 2, kRunWaitMs);
        s->findChild<QPushButton*>(QStringLiteral("sweepRun"))->click();  // Cancel
        QVERIFY(done.wait(kRunWaitMs));
        QVERIFY(s->outcomes().size() >= 2);
        int completed = 0;
        for (const auto& o : s->outcomes())
            if (o.result.status == ade::RunStatus::Completed) ++completed;
        QVERIFY(completed >= 2);
        QVERIFY(!s->results().configs.empty());
        QVERIFY(!state->text().contains(QStringLiteral("Sweep:")));
    }

    // Issue 30, item 12: a clicked config's runs do not join runs of another experiment on the
    // charts (A and Darcy on one chart before): those are hidden, runs of its own experiment
    // stay, and the status bar says so.
    void sweepRunsHideRunsOfOtherExperiments() {
        auto w = sweepWindow(tinyA(20));
        const int darcy = w->store()->addRun(QStringLiteral("darcy run"),
                                             adetest::configFrom({{"experiment", "darcy"}}));
        const int earlierA = w->store()->addRun(QStringLiteral("earlier A run"), tinyA(20));
        for (int id : {darcy, earlierA})
            w->store()->setState(id, RunState::Stopped);
        QVERIFY(w->store()->run(darcy)->visible);
        SweepView* s = w->sweepView();
        s->form()->setAxis(0, "lr", SweepForm::List, QStringLiteral("0.01, 0.02"));
        s->findChild<QSpinBox*>(QStringLiteral("sweepSeeds"))->setValue(1);
        QVERIFY(runSweep(s));
        emit s->linePlot()->configActivated(0);
        const QList<int> selected = w->runList()->selectedRunIds();
        QCOMPARE(selected.size(), 1);
        QVERIFY(w->store()->run(selected.front())->visible);
        QVERIFY(!w->store()->run(darcy)->visible);     // another experiment: off the charts
        QVERIFY(w->store()->run(darcy) != nullptr);    // ...but kept in the run list
        QVERIFY(w->store()->run(earlierA)->visible);   // the same experiment stays
        QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("other experiments")),
                 qPrintable(w->statusBar()->currentMessage()));
    }

    void sweepFolderFillsTheTable() {
        // A sweep folder as the command line writes it: core's runSweepLocal with an outDir.
        QTemporaryDir dir;
        ade::Plan plan;
        plan.name = "folder";
        plan.runs.push_back({"gd", tinyA(40, {{"regularizer", "l2"}})});
        ade::SweepDesign design;
        std::string error;
        for (const char* text : {"lambda=0,0.1,1", "lr=0.02,0.05"}) {
            auto axis = ade::parseAxis(text, &error);
            QVERIFY2(axis, error.c_str());
            design.axes.push_back(*axis);
        }
        design.seeds = 2;
        design.objective.metric = "excess_risk";
        ade::PlanRunOptions opt;
        opt.outDir = dir.path().toStdString();
        opt.jobs = 2;
        opt.keepSnapshots = false;
        const auto outcomes = ade::runSweepLocal(plan, design, opt, nullptr, &error);
        QCOMPARE(outcomes.size(), std::size_t(12));

        auto w = adetest::makeWindow();
        w->resize(1600, 1000);
        QVERIFY(w->sweepTab()->openFolder(dir.path()));
        SweepView* s = w->sweepView();
        QCOMPARE(w->findChild<QTabWidget*>(QStringLiteral("tabs"))->currentIndex(), 1);
        QCOMPARE(s->table()->rowCount(), 6);
        QCOMPARE(s->results().configs.size(), std::size_t(6));
        QCOMPARE(s->currentChart(), static_cast<SweepChart*>(s->heatmap()));
        QCOMPARE(s->heatmap()->drawnCount(), 6);
        for (const auto& c : s->results().configs)
            QCOMPARE(c.seedsDone, 2);
        QVERIFY2(s->folderStatus().contains(QStringLiteral("12 of 12 finished, 0 failed")),
                 qPrintable(s->folderStatus()));
        // Clicking a cell opens its runs, read from the folder.
        const int before = static_cast<int>(w->store()->runs().size());
        emit s->heatmap()->configActivated(s->heatmap()->markedBest());
        QCOMPARE(static_cast<int>(w->store()->runs().size()), before + 2);
        QVERIFY(w->store()->runs().back()->size() > 0);
        // Not a sweep folder: refused with a message, nothing read.
        QTemporaryDir empty;
        QVERIFY(!w->sweepTab()->openFolder(empty.path()));
    }

    // A sweep still running (as on a cluster): the tab shows what has finished and fills in as
    // the other tasks finish, re-reading the folder every 2 s.
    void sweepFolderFillsAsTasksFinish() {
        QTemporaryDir dir;
        ade::Plan plan;
        plan.name = "running";
        plan.runs.push_back({"gd", tinyA(40, {{"regularizer", "l2"}})});
        ade::SweepDesign design;
        std::string error;
        auto axis = ade::parseAxis("lambda=0,0.1,1", &error);
        QVERIFY2(axis, error.c_str());
        design.axes.push_back(*axis);
        design.seeds = 2;
        design.objective.metric = "excess_risk";
        const auto tasks = ade::expandDesign(plan, design, &error);
        QVERIFY2(tasks, error.c_str());
        QCOMPARE(tasks->size(), std::size_t(6));
        QVERIFY2(ade::writeSweepManifest(dir.path().toStdString(), plan.name, design, *tasks, "",
                                         &error),
                 error.c_str());
        auto runTask = [&](int i) {
            ade::RunOutcome outcome;
            return ade::runSweepTask(dir.path().toStdString(), i, "", &outcome, &error) ==
                   ade::TaskRunStatus::Ran;
        };
        for (int i : {0, 1})
            QVERIFY2(runTask(i), error.c_str());

        auto w = adetest::makeWindow();
        QVERIFY(w->sweepTab()->openFolder(dir.path()));
        SweepView* s = w->sweepView();
        QVERIFY2(s->folderStatus().contains(QStringLiteral("2 of 6 finished, 0 failed")),
                 qPrintable(s->folderStatus()));
        int seeds = 0;
        for (const auto& c : s->results().configs)
            seeds += c.seedsDone;
        QCOMPARE(seeds, 2);

        for (int i = 2; i < 6; ++i)
            QVERIFY2(runTask(i), error.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(s->folderStatus().contains(QStringLiteral("6 of 6 finished")),
                                 20000);
        QCOMPARE(s->table()->rowCount(), 3);
        for (const auto& c : s->results().configs)
            QCOMPARE(c.seedsDone, 2);
    }
};

QTEST_MAIN(TestSweep)
#include "tst_sweep.moc"
