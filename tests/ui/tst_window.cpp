// The explorer window driven as a user would: the form, the run controls, presets, overlays,
// closing mid-run, a screenshot. Waits on signals and conditions only, never on sleeps.
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QToolBar>
#include <QToolButton>

#include "base/ProcessMemory.h"
#include "charts/ChartArea.h"
#include "Configs.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "sweep/SweepView.h"
#include "TestWindow.h"
#include "charts/ChartPanel.h"
#include "charts/LegendBar.h"
#include "sweep/SweepForm.h"
#include "sweep/SweepLinePlot.h"

using namespace ade::ui;

namespace {

// A run small enough to take milliseconds per hundred iterations.
ade::Config tinyConfig(long iterations) {
    // Every record of short runs; long runs record often enough that records arrive quickly
    // even in sanitizer builds.
    return adetest::tinyA(iterations, {{"log_every", iterations > 100000 ? "100" : "1"}});
}

using adetest::makeWindow;

const RunRecord* onlyRun(const RunStore& s) {
    return s.runs().empty() ? nullptr : s.runs().back().get();
}

// Counts the requests to lay a widget out again (QEvent::LayoutRequest).
class LayoutRequests : public QObject {
  public:
    int count = 0;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::LayoutRequest) ++count;
        return QObject::eventFilter(o, e);
    }
};

}  // namespace

class TestWindow : public QObject {
    Q_OBJECT
  private slots:
    void formIsGeneratedFromRegistry() {
        auto w = makeWindow();
        for (const char* key : {"seed", "iterations", "data.n", "init", "optimizer", "lambda"})
            QVERIFY2(w->form()->editor(QLatin1String(key)), key);
        QVERIFY(!w->form()->editor(QStringLiteral("editor.that.does.not.exist")));
        QVERIFY(!w->form()->editor(QStringLiteral("lr"))->toolTip().isEmpty());
    }

    void experimentChoiceRebuildsTheForm() {
        auto w = makeWindow();
        auto* exp = qobject_cast<QComboBox*>(w->form()->editor(QStringLiteral("experiment")));
        QVERIFY(exp);
        const int b = exp->findData(QStringLiteral("b"));  // experiments come from the registry
        QVERIFY(b >= 0);
        QVERIFY(exp->itemText(b).startsWith(QStringLiteral("b — ")));  // with their titles
        QVERIFY(w->form()->editor(QStringLiteral("data.kappa_m")));
        exp->setCurrentIndex(b);
        QTRY_VERIFY_WITH_TIMEOUT(w->form()->editor(QStringLiteral("b.tau")), kRunWaitMs);
        QVERIFY(!w->form()->editor(QStringLiteral("data.kappa_m")));
        QCOMPARE(w->form()->config().experiment(), std::string("b"));
        QVERIFY(w->form()->isValid());
    }

    void legendClickTogglesCurves() {
        auto w = makeWindow();
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        w->form()->setConfig(tinyConfig(20));
        w->commands()->startFromForm();
        QVERIFY(finished.wait(kRunWaitMs));
        ChartPanel* loss = w->charts()->panel(QStringLiteral("loss"));
        const int all = loss->drawnPoints();
        // The grid's one legend (the charts' own legends are hidden in the window).
        LegendBar* legend = w->charts()->legend();
        auto* entry = legend->findChild<QToolButton*>(QStringLiteral("legend:train_loss"));
        QVERIFY(entry);
        QTest::mouseClick(entry, Qt::LeftButton);
        QVERIFY(loss->drawnPoints() < all);
        auto* again = legend->findChild<QToolButton*>(QStringLiteral("legend:train_loss"));
        QVERIFY(again && again->font().strikeOut());
        QTest::mouseClick(again, Qt::LeftButton);
        QCOMPARE(loss->drawnPoints(), all);
    }

    void invalidValuesAreMarkedAndBlockStart() {
        auto w = makeWindow();
        QAction* start = w->action(QStringLiteral("start"));
        QVERIFY(start->isEnabled());
        auto* lr = qobject_cast<QLineEdit*>(w->form()->editor(QStringLiteral("lr")));
        QVERIFY(lr);
        lr->selectAll();
        QTest::keyClicks(lr, QStringLiteral("-1"));
        QVERIFY(!w->form()->isValid());
        QVERIFY(!start->isEnabled());
        // The reason is in the form's fixed problem line and the field's tooltip.
        auto* problems = w->form()->findChild<QLabel*>(QStringLiteral("formProblems"));
        QVERIFY(problems && problems->text().contains(QStringLiteral("lr")));
        QVERIFY(lr->toolTip().contains(QStringLiteral("Refused")));
        lr->selectAll();
        QTest::keyClicks(lr, QStringLiteral("0.25"));
        QVERIFY(w->form()->isValid());
        QVERIFY(start->isEnabled());
        QCOMPARE(w->form()->config().getReal("lr"), 0.25);
        QVERIFY(problems->text().contains(QStringLiteral("All values are valid")));
        // Integers are refused out of range, not clamped: 0 tokens cannot be entered.
        auto* n = qobject_cast<QLineEdit*>(w->form()->editor(QStringLiteral("data.n")));
        QVERIFY(n);
        n->selectAll();
        QTest::keyClicks(n, QStringLiteral("0"));
        QCOMPARE(w->form()->config().getInt("data.n"), 64);
        QVERIFY(!w->form()->isValid());
        n->selectAll();
        QTest::keyClicks(n, QStringLiteral("32"));
        QCOMPARE(w->form()->config().getInt("data.n"), 32);
        // Choices are combo boxes.
        auto* opt = qobject_cast<QComboBox*>(w->form()->editor(QStringLiteral("optimizer")));
        QVERIFY(opt);
        opt->setCurrentText(QStringLiteral("adam"));
        QCOMPARE(w->form()->config().getString("optimizer"), std::string("adam"));
    }

    void startPauseStepStopReset() {
        auto w = makeWindow();
        w->form()->setConfig(tinyConfig(100000000));
        RunController* c = w->controller();
        w->action(QStringLiteral("start"))->trigger();
        QVERIFY(c->anyActive());
        const RunRecord* r = onlyRun(*w->store());
        QVERIFY(r);
        const int firstId = r->id;
        QTRY_VERIFY_WITH_TIMEOUT(r->size() >= 3, kRunWaitMs);
        const std::vector<double> firstRow = {r->data[2][0], r->data[3][0]};

        QTest::keyClick(w.get(), Qt::Key_Space);  // pause
        QVERIFY(c->paused());
        QCOMPARE(r->state, RunState::Paused);
        QSignalSpy drained(c, &RunController::drained);
        QVERIFY(drained.wait(kRunWaitMs));  // buffered records arrive...
        QVERIFY(drained.wait(kRunWaitMs));
        const std::size_t held = r->size();
        QVERIFY(drained.wait(kRunWaitMs));  // ...then nothing more while paused
        QVERIFY(drained.wait(kRunWaitMs));
        QCOMPARE(r->size(), held);

        QTest::keyClick(w.get(), Qt::Key_S);  // step: exactly one more record
        QTRY_COMPARE_WITH_TIMEOUT(r->size(), held + 1, kRunWaitMs);
        QVERIFY(drained.wait(kRunWaitMs));
        QCOMPARE(r->size(), held + 1);
        QVERIFY(c->paused());

        QTest::keyClick(w.get(), Qt::Key_Space);  // resume
        QTRY_VERIFY_WITH_TIMEOUT(r->size() > held + 3, kRunWaitMs);

        QTest::keyClick(w.get(), Qt::Key_Escape);  // stop
        // The run has far more iterations than a test can wait for: that it ends at all is the
        // stop (a wait on the condition, not on a clock that a loaded machine would fail).
        QTRY_VERIFY_WITH_TIMEOUT(!c->anyActive(), kRunWaitMs);
        QCOMPARE(w->store()->run(firstId)->state, RunState::Stopped);

        const int colour = w->store()->run(firstId)->colorIndex;
        QTest::keyClick(w.get(), Qt::Key_R);  // reset: same run, same initial weights
        QTRY_VERIFY_WITH_TIMEOUT(!w->store()->runs().empty() && w->store()->runs().back()->size() >= 1, kRunWaitMs);
        const RunRecord* again = w->store()->runs().back().get();
        QVERIFY(again->id != firstId);
        QCOMPARE(again->colorIndex, colour);                  // same colour and name
        QCOMPARE(w->store()->runs().size(), std::size_t(1));  // replaced, not added
        QCOMPARE(again->data[2][0], firstRow[0]);
        QCOMPARE(again->data[3][0], firstRow[1]);
        w->commands()->stopRuns();
        QTRY_VERIFY_WITH_TIMEOUT(!c->anyActive(), kRunWaitMs);

        const auto seed = w->form()->config().getInt("seed");
        w->action(QStringLiteral("reseed"))->trigger();
        QCOMPARE(w->form()->config().getInt("seed"), seed);  // the form is not touched
        QCOMPARE(w->store()->runs().size(), std::size_t(2));  // a new run beside the old one
        QVERIFY(w->store()->runs().back()->config.getInt("seed") != seed);
        QTRY_VERIFY_WITH_TIMEOUT(w->store()->runs().back()->size() >= 1, kRunWaitMs);
        QVERIFY(w->store()->runs().back()->data[2][0] != firstRow[0]);
        w->commands()->stopRuns();
        QTRY_VERIFY_WITH_TIMEOUT(!c->anyActive(), kRunWaitMs);
    }

    void sameStartAsARunOfTheList() {
        auto w = makeWindow();
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        ade::Config a = tinyConfig(10);
        a.setText("init", "random");
        a.setText("seed", "5");
        w->form()->setConfig(a);
        w->commands()->startFromForm();  // "run 1"
        ade::Config b = tinyConfig(10);
        b.setText("init", "same");
        b.setText("init_from", "run 1");
        b.setText("seed", "5");
        b.setText("lr", "0.01");         // another method, same start:
        b.setText("init_scale", "1.0");  // its own random draw would differ from run 1's
        w->form()->setConfig(b);
        w->commands()->startFromForm();
        QVERIFY(finished.wait(kRunWaitMs));
        QCOMPARE(w->store()->runs().size(), std::size_t(2));
        const RunRecord* r1 = w->store()->runs()[0].get();
        const RunRecord* r2 = w->store()->runs()[1].get();
        QCOMPARE(r2->state, RunState::Completed);
        const int loss = r1->column("train_loss");
        QCOMPARE(r2->data[loss][0], r1->data[loss][0]);  // identical initial weights
        QVERIFY(r2->data[loss].back() != r1->data[loss].back());
    }

    void stepWhenIdleStartsPaused() {
        auto w = makeWindow();
        w->form()->setConfig(tinyConfig(100000000));
        w->commands()->step();
        QVERIFY(w->controller()->paused());
        const RunRecord* r = onlyRun(*w->store());
        // Iteration 0, then the one stepped iteration: a step while paused is always recorded,
        // whatever log_every is (here 100).
        QTRY_COMPARE_WITH_TIMEOUT(r->size(), std::size_t(2), kRunWaitMs);
        QCOMPARE(r->lastIteration(), 1L);
        w->commands()->step();
        QTRY_COMPARE_WITH_TIMEOUT(r->size(), std::size_t(3), kRunWaitMs);
        QCOMPARE(r->lastIteration(), 2L);
        w->commands()->stopRuns();
        QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->anyActive(), kRunWaitMs);
    }

    void presetLoadsFormAndStartsComparison() {
        auto w = makeWindow();
        QVERIFY(w->action(QStringLiteral("preset.a-spectral-vs-random")));
        QVERIFY(w->commands()->loadPreset(QStringLiteral("a-spectral-vs-random"), false));
        QCOMPARE(w->form()->config().getInt("data.n"), 128);
        QCOMPARE(w->form()->config().getString("init"), std::string("spectral"));
        QVERIFY(w->store()->runs().empty());
        // Small data (16 tokens, 4 prompts): thirty runs start at once, each on its own thread.
        QVERIFY(w->commands()->loadPreset(QStringLiteral("a-spectral-vs-random"), true,
                              {"data.n=16", "data.prompts=4"}));
        // Three runs, each with the preset's ten seeds, seed by seed.
        QCOMPARE(w->store()->runs().size(), std::size_t(30));
        QVERIFY(w->store()->runs()[0]->name.startsWith(QStringLiteral("alg1-spectral")));
        QVERIFY(w->store()->runs()[2]->name.startsWith(QStringLiteral("sgd-random")));
        QTRY_VERIFY_WITH_TIMEOUT(w->store()->runs()[1]->size() >= 2, kRunWaitMs);
        w->commands()->stopRuns();
        QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->anyActive(), kRunWaitMs);
        QVERIFY(!w->commands()->loadPreset(QStringLiteral("no-such-preset"), true));
    }

    void twoRunsOverlayOnTheCharts() {
        auto w = makeWindow();
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        w->form()->setConfig(tinyConfig(60));
        w->commands()->startFromForm();
        ade::Config second = tinyConfig(60);
        second.setText("lr", "0.01");
        w->form()->setConfig(second);
        w->commands()->startFromForm();
        QVERIFY(finished.wait(kRunWaitMs));
        QCOMPARE(w->store()->runs().size(), std::size_t(2));
        for (const auto& r : w->store()->runs())
            QCOMPARE(r->state, RunState::Completed);
        ChartPanel* loss = w->charts()->panel(QStringLiteral("loss"));
        QVERIFY(loss);
        const QStringList names = loss->seriesNames();
        // The second is named after what it changed (issue 30, item 11).
        const QStringList second_ = names.filter(QStringLiteral("run 1 · lr = 0.01 · "));
        QVERIFY2(second_.size() >= 2, qPrintable(names.join(',')));
        QVERIFY2(names.size() - second_.size() >= 2, qPrintable(names.join(',')));
        QVERIFY(loss->drawnPoints() > 0);
        QVERIFY(w->charts()->panel(QStringLiteral("norms"))->drawnPoints() > 0);
        QVERIFY(w->charts()->panel(QStringLiteral("manifold"))->drawnPoints() > 0);
        // Hiding one run removes its curves from the charts.
        w->store()->setVisible(w->store()->runs()[0]->id, false);
        for (const QString& name : loss->seriesNames())  // one run left: named by metric only
            QVERIFY2(!name.startsWith(QStringLiteral("run 1 · ")) ||
                         name.startsWith(QStringLiteral("run 1 · lr = 0.01 · ")),
                     qPrintable(loss->seriesNames().join(',')));
        QVERIFY(!loss->seriesNames().isEmpty());
        // Edit and rerun copies the run's config into the form.
        w->commands()->editRun(w->store()->runs()[0]->id);
        QCOMPARE(w->form()->config().getReal("lr"), 0.05);
        w->commands()->deleteRun(w->store()->runs()[0]->id);
        QCOMPARE(w->store()->runs().size(), std::size_t(1));
    }

    void smoothingAndLogAxesKeepData() {
        auto w = makeWindow();
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        w->form()->setConfig(tinyConfig(40));
        w->commands()->startFromForm();
        QVERIFY(finished.wait(kRunWaitMs));
        ChartPanel* loss = w->charts()->panel(QStringLiteral("loss"));
        const int raw = loss->drawnPoints();
        w->charts()->setSmoothing(0.6);
        QVERIFY(loss->drawnPoints() > raw);  // smoothed curve plus the faint raw one
        w->charts()->setLogX(true);
        w->charts()->setLogY(false);
        QVERIFY(loss->drawnPoints() > 0);
        QVERIFY(loss->options().logX && !loss->options().logY);
    }

    void wheelZoomsAndFitRestores() {
        auto w = makeWindow();
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        w->form()->setConfig(tinyConfig(50));
        w->commands()->startFromForm();
        QVERIFY(finished.wait(kRunWaitMs));
        ChartPanel* loss = w->charts()->panel(QStringLiteral("loss"));
        auto* view = loss->findChild<QChartView*>();
        QVERIFY(view);
        const int all = loss->drawnPoints();
        QSignalSpy interacted(loss, &ChartPanel::interacted);
        const QPointF c = view->viewport()->rect().center();
        for (int i = 0; i < 4; ++i) {
            QWheelEvent wheel(c, view->viewport()->mapToGlobal(c), QPoint(), QPoint(0, 120),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(view->viewport(), &wheel);
        }
        QVERIFY(interacted.count() >= 1);
        QVERIFY(loss->drawnPoints() < all);  // zoomed in: fewer records in the visible range
        w->charts()->fitAll();
        QCOMPARE(loss->drawnPoints(), all);
    }

    // Issue 30, item 14: a hovered toolbar action's status tip ran into "iteration 2000" at
    // 1024x768; it is elided to the room left of the status bar's labels.
    void statusTipsFitBesideTheIteration() {
        auto w = makeWindow();
        w->resize(1024, 768);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QString tip;
        for (int i = 0; i < 6; ++i)
            tip += QStringLiteral("Play / Pause: pause or resume the active runs; ");
        QStatusTipEvent event(tip);
        QApplication::sendEvent(w->findChild<QToolBar*>(QStringLiteral("runToolBar")), &event);
        const QString shown = w->statusBar()->currentMessage();
        QVERIFY2(shown.endsWith(QChar(0x2026)) && shown.size() < tip.size(), qPrintable(shown));
        auto* iteration = w->statusBar()->findChild<QLabel*>(QStringLiteral("iterationLabel"));
        QVERIFY(iteration && iteration->isVisible());
        QVERIFY2(w->statusBar()->fontMetrics().horizontalAdvance(shown) < iteration->x(),
                 qPrintable(QStringLiteral("%1 px of text, the label at %2")
                                .arg(w->statusBar()->fontMetrics().horizontalAdvance(shown))
                                .arg(iteration->x())));
        QStatusTipEvent leave(QString{});
        QApplication::sendEvent(w->findChild<QToolBar*>(QStringLiteral("runToolBar")), &leave);
        QVERIFY(w->statusBar()->currentMessage().isEmpty());
    }

    void closingMidRunIsClean() {
        auto w = makeWindow();
        w->form()->setConfig(tinyConfig(100000000));
        w->commands()->startFromForm();
        QTRY_VERIFY_WITH_TIMEOUT(onlyRun(*w->store())->size() >= 2, kRunWaitMs);
        QVERIFY(w->close());  // returns with the 1e8-iteration run stopped, not finished
        QVERIFY(!w->controller()->anyActive());
        QCOMPARE(onlyRun(*w->store())->state, RunState::Stopped);
        w.reset();  // destroying after close must not touch freed widgets
    }

    // A live run changes the status line's iteration, rate and points, the time-travel label
    // and the run list at every frame. None of it may lay the window out again: a layout of the
    // window re-measures every word-wrapped label in it (a third of the GUI thread's time with
    // nine streaming runs, before the labels kept a steady size).
    void streamingRunsDoNotLayOutTheWindow() {
        auto w = makeWindow();
        w->resize(1024, 768);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->form()->setConfig(tinyConfig(100000000));
        w->commands()->startFromForm();
        QTRY_VERIFY_WITH_TIMEOUT(onlyRun(*w->store()) && onlyRun(*w->store())->size() >= 3,
                                 kRunWaitMs);
        auto* iteration = w->statusBar()->findChild<QLabel*>(QStringLiteral("iterationLabel"));
        QVERIFY(iteration);
        // Settled: the first records brought the charts, the legend and the table's columns.
        QSignalSpy drained(w->controller(), &RunController::drained);
        QTRY_VERIFY_WITH_TIMEOUT(drained.count() >= 5, kRunWaitMs);
        LayoutRequests requests;
        w->installEventFilter(&requests);
        QStringList shown;
        drained.clear();
        while (shown.size() < 40) {  // forty frames that changed the iteration shown
            QVERIFY(drained.wait(kRunWaitMs));
            if (shown.isEmpty() || shown.back() != iteration->text()) shown << iteration->text();
        }
        w->removeEventFilter(&requests);
        // A label grows when its number gets another digit (four labels, each growing with the
        // iteration at most one digit more than it did): not at every frame, as each frame's new
        // text did before. How many digits the iteration gained depends on how fast the solver
        // ran on this machine, so the bound is read from what was shown.
        auto digits = [](const QString& text) {
            const QRegularExpression number(QStringLiteral("(\\d+)"));
            const auto m = number.match(text);
            return m.hasMatch() ? static_cast<int>(m.captured(1).size()) : 0;
        };
        const int gained = std::max(0, digits(shown.back()) - digits(shown.front()));
        const int allowed = 4 * (gained + 1);
        QVERIFY2(requests.count <= allowed,
                 qPrintable(QStringLiteral("%1 layouts of the window in %2 frames (%3 … %4; at most %5)")
                                .arg(requests.count)
                                .arg(drained.count())
                                .arg(shown.front(), shown.back())
                                .arg(allowed)));
        w->controller()->stopAndWait();
    }

    void screenshotIsProduced() {
        QTemporaryDir dir;
        auto w = makeWindow();
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        w->form()->setConfig(tinyConfig(30));
        w->commands()->startFromForm();
        QVERIFY(finished.wait(kRunWaitMs));
        const QString file = dir.filePath(QStringLiteral("shot.png"));
        QVERIFY(w->autopilot()->saveScreenshot(file));
        QImage img(file);
        QVERIFY(!img.isNull());
        // The whole window, which fits its screen (the offscreen platform's is 800x800).
        QVERIFY2(img.size() == w->size() && img.width() >= 600 && img.height() >= 500,
                 qPrintable(QStringLiteral("%1x%2").arg(img.width()).arg(img.height())));
        QVERIFY(img.pixel(10, 10) != img.pixel(img.width() / 2, img.height() / 2) ||
                img.pixel(10, 10) != img.pixel(img.width() - 10, img.height() - 10));
        const QString stats = dir.filePath(QStringLiteral("stats.json"));
        QVERIFY(w->autopilot()->writeStats(stats));
        QFile f(stats);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(f.readAll().toStdString());
        QVERIFY(j.contains("frame_ms") && j.contains("solver_iterations_per_second"));
        QCOMPARE(j["logged_records"].get<int>(), 31);
        // What the logged points cost in memory: resident figures from /proc, a high-water mark
        // no lower than what is resident now.
        QVERIFY(j.contains("memory"));
        QVERIFY(j["memory"]["peak_resident_mib"].get<double>() >=
                j["memory"]["end_resident_mib"].get<double>());
        QVERIFY(j["memory"]["end_resident_mib"].get<double>() > 1.0);
        QVERIFY(j["memory"]["bytes_per_logged_point"].get<double>() >= 0.0);
    }

    // processMemory reads /proc: 64 MiB written raise both the resident memory and its peak.
    void processMemoryCountsWhatIsTouched() {
        const ProcessMemory before = processMemory();
        QVERIFY(before.residentKiB > 0 && before.peakResidentKiB >= before.residentKiB);
        std::vector<char> block(std::size_t(64) << 20);
        for (std::size_t i = 0; i < block.size(); i += 4096)
            block[i] = char(i);
        const ProcessMemory after = processMemory();
        QVERIFY2(after.residentKiB >= before.residentKiB + 60 * 1024,
                 qPrintable(QStringLiteral("%1 -> %2 KiB").arg(before.residentKiB).arg(after.residentKiB)));
        QVERIFY(after.peakResidentKiB >= after.residentKiB);
        QVERIFY(block[4096] == char(4096));
    }

    void settingsRememberFormAndCharts() {
        QStandardPaths::setTestModeEnabled(true);  // QSettings under ~/.qttest, not the user's
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-test"));
        QCoreApplication::setApplicationName(QStringLiteral("ui_window"));
        QSettings().clear();
        LaunchOptions o;
        o.persistSettings = true;
        {
            MainWindow w(o);
            ade::Config c = tinyConfig(77);
            w.form()->setConfig(c);
            w.charts()->setSmoothing(0.3);
            w.charts()->setLogX(true);
            QVERIFY(w.close());
        }
        MainWindow again(o);
        QCOMPARE(again.form()->config().getInt("iterations"), 77);
        QCOMPARE(again.form()->config().getInt("data.n"), 8);
        QCOMPARE(again.charts()->smoothing(), 0.3);
        QVERIFY(again.charts()->logX());
        QSettings().clear();
    }

    void sweepOfTwoValuesDrawsBothWithoutAFit() {
        auto w = makeWindow();
        ade::Config c = tinyConfig(20);
        w->form()->setConfig(c);
        SweepView* s = w->sweepView();
        s->form()->setAxis(0, "data.n", SweepForm::List, QStringLiteral("8, 16"));
        s->findChild<QSpinBox*>(QStringLiteral("sweepSeeds"))->setValue(1);
        QSignalSpy done(s, &SweepView::finished);
        QVERIFY(s->start());
        QVERIFY(done.wait(kRunWaitMs));
        QCOMPARE(s->results().configs.size(), std::size_t(2));
        QCOMPARE(s->linePlot()->xCount(), 2);
        QVERIFY(!s->linePlot()->fitted());  // two points: no slope "fitted" with R² = 1
        QCOMPARE(s->linePlot()->referenceSlopes(), 0);
    }
};

QTEST_MAIN(TestWindow)
#include "tst_window.moc"
