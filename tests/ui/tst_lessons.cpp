// Lessons played in the window (ui/lessons/LessonPlayer), on a virtual 1024x768 screen: the Lessons menu,
// presentation mode with the caption, the highlighted chart alone and the highlighted run thick,
// the runs paused at the step's iteration, Next / Back by Page Down / Page Up and the arrows
// (not while a field has the focus), steps that share their runs, a rerun that keeps the step,
// Esc leaving the lesson, and a bad lesson refused with its step named.
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include "charts/ChartArea.h"
#include "lessons/LessonPanel.h"
#include "lessons/LessonPlayer.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "TestWindow.h"
#include "charts/ChartPanel.h"

using namespace ade::ui;
using adetest::makeWindow;

namespace {

// Small and fast: Experiment A at n = 16, every iteration recorded, long enough to pause.
const char* const kLesson = R"({
  "name": "test-lesson", "title": "A test lesson",
  "steps": [
    {"title": "Two optimisers", "caption": "GD against Adam from one start: look at the distance to the minimisers.",
     "config": {"config": {"experiment": "a", "seed": 4, "iterations": 200000, "log_every": 1,
                           "data": {"d": 2, "k": 2, "n": 16, "prompts": 8}},
                "runs": [{"name": "gd", "config": {"optimizer": "gd", "lr": 0.1}},
                         {"name": "adam", "config": {"optimizer": "adam", "lr": 0.01}}]},
     "highlight": {"chart": "manifold", "run": "adam"},
     "pause": {"iteration": 40}},
    {"title": "The same runs, another chart", "caption": "The imbalance of the same two runs.",
     "config": {"config": {"experiment": "a", "seed": 4, "iterations": 200000, "log_every": 1,
                           "data": {"d": 2, "k": 2, "n": 16, "prompts": 8}},
                "runs": [{"name": "gd", "config": {"optimizer": "gd", "lr": 0.1}},
                         {"name": "adam", "config": {"optimizer": "adam", "lr": 0.01}}]},
     "highlight": {"chart": "imbalance"}},
    {"title": "A preset", "caption": "The ablation, shortened.", "preset": "a-ablation",
     "set": {"iterations": 30, "data.n": 16, "data.prompts": 4}}
  ]})";

QString writeLesson(const QTemporaryDir& dir, const char* name, const char* text) {
    const QString file = dir.filePath(QString::fromUtf8(name));
    std::ofstream(file.toStdString()) << text;
    return file;
}

std::vector<ChartPanel*> visiblePanels(const MainWindow& w) {
    std::vector<ChartPanel*> out;
    for (ChartPanel* p : w.charts()->panels())
        if (p->isVisible()) out.push_back(p);
    return out;
}

void press(MainWindow* w, Qt::Key key) {
    QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : w, key);
}

}  // namespace

class TestLessons : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), QSize(1024, 768));
    }

    void theMenuListsTheShippedLessons() {
        auto w = makeWindow();
        auto* menu = w->findChild<QMenu*>(QStringLiteral("lessonsMenu"));
        QVERIFY(menu);
        QStringList names;
        for (QAction* a : menu->actions())
            names << a->objectName();
        for (const char* n : {"lesson.spectral-start", "lesson.norms-under-noise",
                              "lesson.data-compute-law", "openLesson"})
            QVERIFY2(names.contains(QString::fromUtf8(n)), n);
        QCOMPARE(w->action(QStringLiteral("lesson.spectral-start"))->text(),
                 QStringLiteral("Why a spectral start"));
        // The step keys do nothing while no lesson plays (Page Down stays the table's).
        QVERIFY(!w->action(QStringLiteral("lessonNextStep"))->isEnabled());
    }

    void playsStepsPausesAndLeaves() {
        QTemporaryDir dir;
        const QString file = writeLesson(dir, "test-lesson.json", kLesson);
        auto w = makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        LessonPlayer* player = w->lessons();
        QSignalSpy steps(player, &LessonPlayer::stepShown);
        QString error;
        QVERIFY2(player->playFile(file, &error), qPrintable(error));
        QVERIFY(player->playing());
        QCOMPARE(steps.count(), 1);

        // Step 1: presentation mode, the caption, the chart alone, the run thick.
        QVERIFY(w->presentation());
        LessonPanel* panel = player->captionPanel();
        QVERIFY(panel->isVisible());
        QCOMPARE(panel->position(), QStringLiteral("A test lesson · step 1 of 3"));
        QCOMPARE(panel->title(), QStringLiteral("Two optimisers"));
        QVERIFY(panel->caption().startsWith(QStringLiteral("GD against Adam")));
        QTRY_COMPARE_WITH_TIMEOUT(visiblePanels(*w).size(), std::size_t(1), kRunWaitMs);
        QCOMPARE(visiblePanels(*w).front()->spec().id, QStringLiteral("manifold"));
        const std::vector<int> batch = w->workspace()->batchIds();
        QCOMPARE(batch.size(), std::size_t(2));
        QCOMPARE(w->charts()->emphasisedRuns(), std::vector<int>{batch[1]});  // adam
        // The caption sits under the charts, inside the screen, its text at least 1.5x the
        // window's type.
        const QRect screen = w->screen()->geometry();
        QTRY_VERIFY_WITH_TIMEOUT(
            screen.contains(QRect(panel->mapToGlobal(QPoint(0, 0)), panel->size())), kRunWaitMs);
        auto* caption = panel->findChild<QWidget*>(QStringLiteral("lessonCaption"));
        QVERIFY(caption->font().pointSizeF() >= 1.5 * w->font().pointSizeF() - 0.01);

        // The runs pause at iteration 40, each exactly there, and stay.
        RunController* c = w->controller();
        QTRY_VERIFY_WITH_TIMEOUT(c->paused(), kRunWaitMs);
        for (int id : batch) {
            QCOMPARE(w->store()->run(id)->lastIteration(), 40L);
            QCOMPARE(w->store()->run(id)->state, RunState::Paused);
        }
        QTRY_VERIFY_WITH_TIMEOUT(panel->status().contains(QStringLiteral("Paused at iteration 40")), kRunWaitMs);
        QTest::qWait(150);
        for (int id : batch)
            QCOMPARE(w->store()->run(id)->lastIteration(), 40L);

        // Page Down: step 2 carries on with the same runs, resumed, another chart alone.
        press(w.get(), Qt::Key_PageDown);
        QCOMPARE(player->stepIndex(), 1);
        QCOMPARE(panel->position(), QStringLiteral("A test lesson · step 2 of 3"));
        QCOMPARE(w->workspace()->batchIds(), batch);
        QVERIFY(!c->paused());
        QTRY_VERIFY_WITH_TIMEOUT(w->store()->run(batch[0])->lastIteration() > 40, kRunWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(visiblePanels(*w).size(), std::size_t(1), kRunWaitMs);
        QCOMPARE(visiblePanels(*w).front()->spec().id, QStringLiteral("imbalance"));
        QVERIFY(w->charts()->emphasisedRuns().empty());

        // Page Up and the arrows (no field has the focus).
        press(w.get(), Qt::Key_PageUp);
        QCOMPARE(player->stepIndex(), 0);
        press(w.get(), Qt::Key_Right);
        QCOMPARE(player->stepIndex(), 1);
        press(w.get(), Qt::Key_Left);
        QCOMPARE(player->stepIndex(), 0);
        press(w.get(), Qt::Key_Left);  // no step before the first
        QCOMPARE(player->stepIndex(), 0);
        press(w.get(), Qt::Key_Right);

        // The teacher shows the form and edits a field: the arrows move its cursor, not the
        // lesson; a changed knob and Start run a new run and the lesson stays on its step.
        auto* formDock = w->findChild<QDockWidget*>(QStringLiteral("parametersDock"));
        formDock->show();
        auto* field = w->form()->findChild<QLineEdit*>();
        QVERIFY(field);
        field->setFocus();
        QTRY_COMPARE_WITH_TIMEOUT(QApplication::focusWidget(), static_cast<QWidget*>(field),
                                  kRunWaitMs);
        QTest::keyClick(field, Qt::Key_Right);
        QTest::keyClick(field, Qt::Key_Left);
        QCOMPARE(player->stepIndex(), 1);
        const std::size_t before = w->store()->runs().size();
        ade::Config changed = w->form()->config();
        QVERIFY(!changed.setText("lr", "0.05"));
        w->form()->setConfig(changed);
        w->commands()->start();
        QCOMPARE(w->store()->runs().size(), before + 1);
        QCOMPARE(player->stepIndex(), 1);
        QVERIFY(player->playing());
        field->clearFocus();
        formDock->hide();

        // Step 3, a preset: the step before's runs stop and stay in the list.
        QVERIFY(player->next());
        QCOMPARE(player->stepIndex(), 2);
        for (int id : batch)
            QVERIFY(!isActive(w->store()->run(id)->state));
        QCOMPARE(w->workspace()->batchIds().size(), std::size_t(40));  // 4 runs × the preset's 10 seeds
        QTRY_COMPARE_WITH_TIMEOUT(visiblePanels(*w).size(), std::size_t(4),
                                  kRunWaitMs);  // no chart named: the grid
        QVERIFY(!player->next());  // the last step

        // Esc leaves the lesson and presentation mode; Esc is Stop again.
        press(w.get(), Qt::Key_Escape);
        QVERIFY(!player->playing());
        QVERIFY(!w->presentation());
        QVERIFY(!panel->isVisible());
        QCOMPARE(w->action(QStringLiteral("stop"))->shortcut(), QKeySequence(Qt::Key_Escape));
        QCOMPARE(c->pauseAtIteration(), -1L);
    }

    // Reset reruns the step's comparison and pauses again at its iteration.
    // Issue 30, item 14: a long caption at 1024x768 pushed the lesson's status line and the
    // window's bottom off the screen; it scrolls within a fifth of the window's height.
    void aLongCaptionScrollsInsideTheWindow() {
        QString lesson = QString::fromUtf8(kLesson);
        QString caption;
        for (int i = 0; i < 30; ++i)
            caption += QStringLiteral("GD and Adam start from the same weights and take different paths. ");
        lesson.replace(QStringLiteral("GD against Adam from one start: look at the distance to the minimisers."),
                       caption);
        QTemporaryDir dir;
        const QString file = writeLesson(dir, "long-caption.json", lesson.toUtf8().constData());
        auto w = makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QString error;
        QVERIFY2(w->lessons()->playFile(file, &error), qPrintable(error));
        LessonPanel* panel = w->lessons()->captionPanel();
        QVERIFY(panel->caption().size() > 1500);
        const QRect screen = w->screen()->geometry();
        auto* status = panel->findChild<QWidget*>(QStringLiteral("lessonStatus"));
        auto* scroll = panel->findChild<QScrollArea*>(QStringLiteral("lessonCaptionScroll"));
        QVERIFY(status && scroll);
        // The runs pause at iteration 40: the status line says so, on the screen.
        QTRY_VERIFY_WITH_TIMEOUT(status->isVisible(), kRunWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            screen.contains(QRect(status->mapToGlobal(QPoint(0, 0)), status->size())), kRunWaitMs);
        QVERIFY(screen.contains(QRect(panel->mapToGlobal(QPoint(0, 0)), panel->size())));
        QVERIFY2(scroll->height() <= w->height() / 5 + 1,
                 qPrintable(QStringLiteral("%1 of %2").arg(scroll->height()).arg(w->height())));
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);  // the rest by scrolling
        // The chart keeps more of the window than the caption.
        QVERIFY(!visiblePanels(*w).empty());
        QVERIFY2(visiblePanels(*w).front()->height() > w->height() / 4,
                 qPrintable(QStringLiteral("chart %1, panel %2, caption %3, window %4")
                                .arg(visiblePanels(*w).front()->height())
                                .arg(panel->height())
                                .arg(scroll->height())
                                .arg(w->height())));
        w->lessons()->leave();
    }

    void resetPausesAgain() {
        QTemporaryDir dir;
        const QString file = writeLesson(dir, "test-lesson.json", kLesson);
        auto w = makeWindow();
        QVERIFY(w->lessons()->playFile(file));
        QTRY_VERIFY_WITH_TIMEOUT(w->controller()->paused(), kRunWaitMs);
        w->commands()->resetRuns();
        QTRY_VERIFY_WITH_TIMEOUT(w->controller()->paused() &&
                                     w->store()->run(w->workspace()->batchIds()[0])->lastIteration() == 40,
                                 20000);
        for (int id : w->workspace()->batchIds())
            QCOMPARE(w->store()->run(id)->lastIteration(), 40L);
        // The highlighted run is still the thick one.
        QCOMPARE(w->charts()->emphasisedRuns(), std::vector<int>{w->workspace()->batchIds()[1]});
        w->lessons()->leave();
    }

    // A step that pauses when a claim first holds: the runs stream until the claim, checked on
    // the data so far, holds, then pause there; its line is highlighted through the hook.
    void pausesWhenTheClaimFirstHolds() {
        QTemporaryDir dir;
        const QString file = writeLesson(dir, "claim.json", R"({"title": "Claims", "steps": [
            {"title": "Faster", "caption": "The larger step leaves the smaller behind.",
             "config": {"config": {"experiment": "a", "seed": 5, "iterations": 200000,
                                   "log_every": 1, "optimizer": "gd", "step_rule": "fixed",
                                   "data": {"d": 2, "k": 2, "n": 16, "prompts": 8}},
                        "runs": [{"name": "fast", "config": {"lr": 0.3}},
                                 {"name": "slow", "config": {"lr": 0.003, "init": "same",
                                                             "init_from": "fast"}}],
                        "claims": [{"id": "fast-lower", "paper": "A", "check": "ratio",
                                    "metric": "train_loss", "run": "slow", "other": "fast",
                                    "min": 1.2, "text": "The larger step is lower."}]},
             "highlight": {"claim": "fast-lower"},
             "pause": {"claim": "fast-lower"}}]})");
        auto w = makeWindow();
        QSignalSpy highlighted(w->lessons(), &LessonPlayer::claimHighlighted);
        QString error;
        QVERIFY2(w->lessons()->playFile(file, &error), qPrintable(error));
        QCOMPARE(highlighted.count(), 1);
        QCOMPARE(highlighted.front().front().toString(), QStringLiteral("fast-lower"));
        QCOMPARE(w->lessons()->highlightedClaim(), QStringLiteral("fast-lower"));
        QTRY_VERIFY_WITH_TIMEOUT(w->controller()->paused(), kRunWaitMs);
        bool holds = false;
        const auto result = w->lessons()->evaluateClaim(QStringLiteral("fast-lower"), &holds);
        QVERIFY(result);
        QVERIFY2(holds, result->measured.c_str());
        QVERIFY(result->value >= 1.2);
        // It did not hold at the start (one start, one loss): the runs went some way first.
        for (int id : w->workspace()->batchIds())
            QVERIFY(w->store()->run(id)->lastIteration() > 0);
        QVERIFY(w->lessons()->captionPanel()->status().contains(QStringLiteral("the claim holds")));
        QVERIFY(!w->lessons()->evaluateClaim(QStringLiteral("no-such-claim")));
        w->lessons()->leave();
        QCOMPARE(highlighted.back().front().toString(), QString());
    }

    void aBadLessonIsRefusedWithItsStep() {
        QTemporaryDir dir;
        const QString file = writeLesson(dir, "bad.json", R"({"title": "Bad", "steps": [
            {"title": "Fine", "caption": "c", "preset": "a-ablation"},
            {"title": "Gone", "caption": "c", "preset": "a-gone"}]})");
        auto w = makeWindow();
        QString error;
        QVERIFY(!w->lessons()->playFile(file, &error));
        QVERIFY2(error.contains(QStringLiteral("bad: step 2 (\"Gone\"): unknown preset \"a-gone\"")),
                 qPrintable(error));
        QVERIFY(!w->lessons()->playing());
        QVERIFY(!w->presentation());
        QVERIFY(w->store()->runs().empty());  // nothing started
        QVERIFY(!w->lessons()->playFile(dir.filePath(QStringLiteral("missing.json")), &error));
        QVERIFY2(error.contains(QStringLiteral("cannot open file")), qPrintable(error));
    }

    // A shipped lesson's first step: its preset, chart and run.
    void aShippedLessonPlays() {
        auto w = makeWindow();
        QString error;
        QVERIFY2(w->lessons()->playNamed(QStringLiteral("spectral-start"), &error),
                 qPrintable(error));
        QCOMPARE(w->lessons()->captionPanel()->title(),
                 QStringLiteral("Two starts on the same data"));
        QTRY_COMPARE_WITH_TIMEOUT(visiblePanels(*w).size(), std::size_t(1), kRunWaitMs);
        QCOMPARE(visiblePanels(*w).front()->spec().id, QStringLiteral("loss"));
        QCOMPARE(w->workspace()->batchRuns().size(), std::size_t(30));  // 3 runs × the preset's 10 seeds
        QCOMPARE(w->workspace()->batchRuns()[0].label, std::string("alg1-spectral"));
        // The highlighted run is every seed of alg1-spectral (the first of each seed's three).
        std::vector<int> alg1;
        for (std::size_t k = 0; k < 10; ++k) alg1.push_back(w->workspace()->batchIds()[3 * k]);
        QCOMPARE(w->charts()->emphasisedRuns(), alg1);
        w->lessons()->leave();
        QVERIFY(!w->presentation());
    }
};

int main(int argc, char** argv) {
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    {
        QFile f(config);
        if (!f.open(QIODevice::WriteOnly)) return 1;
        f.write(R"({"screens": [{"name": "projector", "x": 0, "y": 0, "width": 1024,
                    "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    }
    qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + config).toUtf8());
    QApplication app(argc, argv);
    QTEST_SET_MAIN_SOURCE_PATH
    TestLessons t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_lessons.moc"
