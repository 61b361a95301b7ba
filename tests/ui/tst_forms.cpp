// Run controls that cannot surprise a class (issue 13): Space, Reset / Re-seed, Continue, the
// question on closing, opening a session, run colours and the run list. QTest drives the
// widgets; the parameter panel's own tests are in tst_form_panel.cpp.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

#include <array>
#include <cmath>

#include "ColourDistance.h"
#include "about/AboutPanel.h"
#include "base/ActionTable.h"
#include "sweep/SweepTab.h"
#include "window/Autopilot.h"
#include "window/MainWindow.h"
#include "window/PresentationMode.h"
#include "window/RunCommands.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "sessions/SessionManager.h"
#include "Configs.h"
#include "Waits.h"
#include "base/Palette.h"
#include "config/ParamSpec.h"
#include "output/Session.h"

using namespace ade::ui;

namespace {

// The shared test configs (tests/common/Configs.h).
ade::Config config(const adetest::KeyValues& kv) {
    return adetest::configFrom(kv);
}
using adetest::tinyA;

ade::Config tinyC(long iterations) {
    return config({{"experiment", "c"},
                   {"iterations", std::to_string(iterations)},
                   {"data.d", "4"},
                   {"data.n", "16"},
                   {"data.test_n", "8"},
                   {"lora.hidden", "4"},
                   {"lora.out", "2"},
                   {"lora.rank", "1"},
                   {"villani.probes", "0"},
                   {"init", "random"},
                   {"optimizer", "gd"},
                   {"lr", "0.05"},
                   {"log_every", "1"}});
}

std::unique_ptr<MainWindow> makeWindow(QSize size = QSize(1024, 768)) {
    LaunchOptions o;
    o.persistSettings = false;
    auto w = std::make_unique<MainWindow>(o);
    w->resize(size);
    w->show();
    w->activateWindow();
    if (!QTest::qWaitForWindowActive(w.get())) qWarning("the window did not become active");
    return w;
}

using adetest::deltaE;

bool waitIdle(MainWindow& w, int ms = 30000) {
    if (!w.controller()->anyActive()) return true;
    QSignalSpy done(w.controller(), &RunController::allFinished);
    return done.wait(ms) || !w.controller()->anyActive();
}

// Presses a button of the next modal message box (the question on closing).
void answerNextMessageBox(QMessageBox::StandardButton button) {
    QTimer::singleShot(0, [button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return answerNextMessageBox(button);  // not shown yet: try again
        box->button(button)->click();
    });
}

}  // namespace

class TestForms : public QObject {
    Q_OBJECT
  private slots:
    // 2. Space: play / pause, never a duplicate of finished runs, never typed into a number.
    void spaceIsPlayPauseAndNeverDuplicates() {
        auto w = makeWindow();
        w->form()->setConfig(tinyA(100000000));
        auto* logEvery = qobject_cast<QLineEdit*>(w->form()->editor(QStringLiteral("log_every")));
        logEvery->setFocus();
        QTRY_VERIFY_WITH_TIMEOUT(logEvery->hasFocus(), kRunWaitMs);
        QTest::keyClick(logEvery, Qt::Key_Space);  // play, from inside a number field
        QCOMPARE(logEvery->text(), QStringLiteral("1"));
        QCOMPARE(w->store()->runs().size(), std::size_t(1));
        QVERIFY(w->controller()->anyActive() && !w->controller()->paused());
        QTest::keyClick(logEvery, Qt::Key_Space);  // pause
        QVERIFY(w->controller()->paused());
        QTest::keyClick(w.get(), Qt::Key_Space);  // resume
        QVERIFY(!w->controller()->paused());
        w->commands()->stopRuns();
        QVERIFY(waitIdle(*w));
        // The run ended: Space (meant as "pause") must not start the same settings again.
        QTest::keyClick(w.get(), Qt::Key_Space);
        QVERIFY(!w->controller()->anyActive());
        QCOMPARE(w->store()->runs().size(), std::size_t(1));
        // Nor after a Re-seed: the form's settings are still those of run 1.
        QTest::keyClick(w.get(), Qt::Key_R, Qt::ShiftModifier);
        QCOMPARE(w->store()->runs().size(), std::size_t(2));
        w->commands()->stopRuns();
        QVERIFY(waitIdle(*w));
        QTest::keyClick(w.get(), Qt::Key_Space);
        QVERIFY(!w->controller()->anyActive());
        QCOMPARE(w->store()->runs().size(), std::size_t(2));
        // New settings: Space plays them.
        ade::Config other = tinyA(100000000);
        other.setText("lr", "0.02");
        w->form()->setConfig(other);
        QTest::keyClick(w.get(), Qt::Key_Space);
        QCOMPARE(w->store()->runs().size(), std::size_t(3));
        w->commands()->stopRuns();
        QVERIFY(waitIdle(*w));
        // Free text takes a typed space.
        ade::Config same = tinyA(10);
        same.setText("init", "same");
        w->form()->setConfig(same);
        auto* from = qobject_cast<QLineEdit*>(w->form()->editor(QStringLiteral("init_from")));
        from->setFocus();
        QTRY_VERIFY_WITH_TIMEOUT(from->hasFocus(), kRunWaitMs);
        QTest::keyClicks(from, QStringLiteral("run 1"));
        QCOMPARE(from->text(), QStringLiteral("run 1"));
        QCOMPARE(w->store()->runs().size(), std::size_t(3));
    }

    // 6. Reset keeps each run's name, colour and place; Re-seed adds runs beside the old ones
    // with each run's own config and a new seed, and leaves the form alone.
    void resetAndReseedAreUnsurprising() {
        auto w = makeWindow();
        w->form()->setConfig(tinyA(100000000));
        w->commands()->startFromForm();
        RunStore* s = w->store();
        const RunRecord* r = s->runs().front().get();
        const int id = r->id, colour = r->colorIndex;
        const QString name = r->name;
        QTRY_VERIFY_WITH_TIMEOUT(r->size() >= 3, kRunWaitMs);
        const double firstLoss = r->data[2][0];
        QTest::keyClick(w.get(), Qt::Key_R);
        QCOMPARE(s->runs().size(), std::size_t(1));
        const RunRecord* again = s->runs().front().get();
        QVERIFY(again->id != id);
        QCOMPARE(again->colorIndex, colour);
        QCOMPARE(again->name, name);
        QTRY_VERIFY_WITH_TIMEOUT(again->size() >= 1, kRunWaitMs);
        QCOMPARE(again->data[2][0], firstLoss);  // same data and initial weights
        // Re-seed: the form changed meanwhile; the run keeps its own config.
        ade::Config edited = tinyA(100000000);
        edited.setText("lr", "0.01");
        w->form()->setConfig(edited);
        const std::string formBefore = w->form()->config().toJson().dump();
        QTest::keyClick(w.get(), Qt::Key_R, Qt::ShiftModifier);
        QCOMPARE(w->form()->config().toJson().dump(), formBefore);
        QCOMPARE(s->runs().size(), std::size_t(2));
        const RunRecord* old = s->runs()[0].get();
        const RunRecord* seeded = s->runs()[1].get();
        QVERIFY(old->visible && seeded->visible);
        QVERIFY(seeded->colorIndex != old->colorIndex);
        QCOMPARE(seeded->config.getReal("lr"), 0.05);
        QVERIFY(seeded->config.getInt("seed") != old->config.getInt("seed"));
        QVERIFY(seeded->name.startsWith(name + QStringLiteral(" · seed ")));
        QVERIFY(w->action(QStringLiteral("reseed"))->toolTip().contains(QStringLiteral("beside")));
        w->commands()->stopRuns();
        QVERIFY(waitIdle(*w));
    }

    // 7. Continue carries on the numbering of the run it continues.
    void continueCarriesOnTheNumbering() {
        auto w = makeWindow();
        w->form()->setConfig(tinyA(40));
        w->commands()->startFromForm();
        QVERIFY(waitIdle(*w));
        const RunRecord* first = w->store()->runs().front().get();
        QCOMPARE(first->lastIteration(), 40L);
        QString error;
        QVERIFY2(w->sessions()->continueRun(first->id, 25, &error), qPrintable(error));
        QVERIFY(waitIdle(*w));
        const RunRecord* cont = w->store()->runs().back().get();
        QCOMPARE(cont->data[0].front(), 40.0);
        QCOMPARE(cont->lastIteration(), 65L);
        QCOMPARE(cont->size(), std::size_t(26));
        QCOMPARE(cont->data[2].front(), first->data[2].back());  // from where it stopped
    }

    // 8. Closing with runs not saved asks Save / Discard / Cancel.
    void closingWithUnsavedRunsAsks() {
        QTemporaryDir tmp;
        LaunchOptions o;
        o.persistSettings = false;
        o.askBeforeClosing = true;
        MainWindow w(o);
        w.show();
        w.form()->setConfig(tinyA(20));
        w.commands()->startFromForm();
        QVERIFY(waitIdle(w));
        QVERIFY(w.sessions()->hasUnsavedRuns());
        answerNextMessageBox(QMessageBox::Cancel);
        QVERIFY(!w.close());  // stays open, runs kept
        QVERIFY(w.isVisible());
        QCOMPARE(w.store()->runs().size(), std::size_t(1));
        const QString file = tmp.filePath(QStringLiteral("s.json"));
        QVERIFY(w.sessions()->saveSession(file));
        QVERIFY(!w.sessions()->hasUnsavedRuns());
        ade::Config other = tinyA(20);
        other.setText("lr", "0.02");
        w.form()->setConfig(other);
        w.commands()->startFromForm();
        QVERIFY(waitIdle(w));
        QVERIFY(w.sessions()->hasUnsavedRuns());
        answerNextMessageBox(QMessageBox::Save);  // to the session's file
        QVERIFY(w.close());
        const auto read = ade::readSessionFile(file.toStdString());
        QVERIFY(read.session);
        QCOMPARE(read.session->runs.size(), std::size_t(2));
        // Discard closes without saving.
        MainWindow v(o);
        v.show();
        v.form()->setConfig(tinyA(20));
        v.commands()->startFromForm();
        QVERIFY(waitIdle(v));
        answerNextMessageBox(QMessageBox::Discard);
        QVERIFY(v.close());
        // Nothing to save: no question.
        MainWindow empty(o);
        empty.show();
        QVERIFY(!empty.sessions()->hasUnsavedRuns());
        QVERIFY(empty.close());
    }

    // 9. Opening a session: the form, About panel and status bar follow it.
    void openingASessionFollowsIt() {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("c.json"));
        {
            auto w = makeWindow();
            w->form()->setConfig(tinyC(30));
            w->commands()->startFromForm();
            QVERIFY(waitIdle(*w));
            QVERIFY(w->sessions()->saveSession(file));
        }
        auto v = makeWindow();
        QCOMPARE(v->form()->config().experiment(), std::string("a"));
        QVERIFY(v->sessions()->openSession(file));
        QCOMPARE(v->form()->config().experiment(), std::string("c"));
        QCOMPARE(v->form()->config().getInt("lora.hidden"), 4);
        const QString about = v->findChild<QTextBrowser*>(QStringLiteral("about"))->toPlainText();
        QVERIFY2(about.contains(QStringLiteral("LoRA")), qPrintable(about.left(200)));
        bool iteration = false, points = false;
        for (QLabel* l : v->statusBar()->findChildren<QLabel*>()) {
            iteration = iteration || l->text() == QStringLiteral("iteration 30");
            points = points || l->text() == QStringLiteral("31 points");
        }
        QVERIFY(iteration && points);
        QVERIFY(!v->action(QStringLiteral("reset"))->isEnabled());  // no runs of before
    }

    // 12. Every colour readable on white (WCAG contrast >= 3:1), no two runs share a colour.
    void paletteIsReadableAndRunsDoNotShareColours() {
        const int n = 3 * paletteSize();
        QSet<QRgb> seen;
        for (int i = 0; i < n; ++i) {
            const QColor c = paletteColor(i);
            const double ratio = contrastRatio(c, Qt::white);
            QVERIFY2(ratio >= 3.0, qPrintable(QStringLiteral("%1: %2").arg(c.name()).arg(ratio)));
            QVERIFY2(!seen.contains(c.rgb()), qPrintable(c.name()));
            seen.insert(c.rgb());
        }
        QCOMPARE(contrastRatio(Qt::black, Qt::white), 21.0);
        // Apart in CIE L*a*b* (Delta E 1976): the eight base colours clearly (>= 30), every
        // shade after them still visibly (>= 7).
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                const double d = deltaE(paletteColor(i), paletteColor(j));
                const double least = i < paletteSize() && j < paletteSize() ? 30 : 7;
                QVERIFY2(d >= least, qPrintable(QStringLiteral("%1 %2: %3")
                                                    .arg(paletteColor(i).name(),
                                                         paletteColor(j).name())
                                                    .arg(d)));
            }
        QCOMPARE(runPenStyle(0), Qt::SolidLine);
        QVERIFY(runPenStyle(paletteSize()) != Qt::SolidLine);
        QVERIFY(runMarker(paletteSize()) != runMarker(0));
        // Twenty runs in one store: twenty colours; a deleted run's colour is reused only then.
        RunStore s;
        std::vector<int> ids;
        for (int i = 0; i < 20; ++i)
            ids.push_back(s.addRun(QStringLiteral("r"), tinyA(1)));
        QSet<int> colours;
        for (const auto& r : s.runs())
            colours.insert(r->colorIndex);
        QCOMPARE(colours.size(), 20);
        s.removeRun(ids[3]);
        const int again = s.addRun(QStringLiteral("r"), tinyA(1));
        QCOMPARE(s.run(again)->colorIndex, 3);
        QVERIFY(!s.setColorIndex(again, 0));  // taken by the first run
    }

    // 19. Run list: the new run is scrolled to, the experiment is shown, names stay apart.
    void runListShowsExperimentAndNewRuns() {
        auto w = makeWindow();
        RunStore* s = w->store();
        RunListWidget* list = w->runList();
        int last = 0;
        for (int i = 0; i < 15; ++i)
            last = s->addRun(QStringLiteral("none"), config({{"experiment", "b"}}));
        QTreeWidgetItem* item = list->itemForRun(last);
        QVERIFY(list->viewport()->rect().intersects(list->visualItemRect(item)));
        QCOMPARE(item->text(1), QStringLiteral("B"));
        const int c = s->addRun(QStringLiteral("none"), config({{"experiment", "c"}}));
        QCOMPARE(s->run(c)->name, QStringLiteral("none (C)"));
        QCOMPARE(list->itemForRun(c)->text(1), QStringLiteral("C"));
        const int c2 = s->addRun(QStringLiteral("none"), config({{"experiment", "c"}}));
        QCOMPARE(s->run(c2)->name, QStringLiteral("none (C) (2)"));
        QCOMPARE(s->run(s->addRun(QStringLiteral("none"), config({{"experiment", "b"}})))->name,
                 QStringLiteral("none (16)"));
        QVERIFY(list->viewport()->rect().intersects(list->visualItemRect(list->itemForRun(c2))));
    }
};

QTEST_MAIN(TestForms)
#include "tst_forms.moc"
