// The parameter panel cannot surprise a class (issues 13 and 30): the wheel over fields and
// over the scrolling panel, why Start is disabled, refused input and fields that do not move,
// the time estimate, knobs that do not apply. QTest drives the widgets.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTextDocument>
#include <QWheelEvent>

#include "window/Autopilot.h"
#include "window/MainWindow.h"
#include "window/RunCommands.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "Configs.h"
#include "Waits.h"
#include "config/ParamSpec.h"

using namespace ade::ui;

namespace {

// The shared test configs (tests/common/Configs.h).
ade::Config config(const adetest::KeyValues& kv) {
    return adetest::configFrom(kv);
}
using adetest::tinyA;

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

void wheel(QWidget* target, int notches) {
    const QPointF c = target->rect().center();
    QWheelEvent e(c, target->mapToGlobal(c), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &e);
}

// One notch of a mouse wheel with the pointer at a point of the screen, delivered as Qt
// delivers one from the window system: to the widget under the pointer, then to its parents
// until one handles and accepts it. Returns the widget under the pointer.
QWidget* wheelAtPointer(QWidget* window, QPoint global, int notches) {
    QWidget* under = window->childAt(window->mapFromGlobal(global));
    for (QWidget* w = under; w; w = w->parentWidget()) {
        QWheelEvent e(w->mapFromGlobal(QPointF(global)), QPointF(global), QPoint(),
                      QPoint(0, 120 * notches), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                      false);
        e.ignore();
        if (QApplication::sendEvent(w, &e) && e.isAccepted()) break;
        if (w->isWindow()) break;
    }
    return under;
}

void type(QLineEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClicks(edit, text);
}

bool waitIdle(MainWindow& w, int ms = 30000) {
    if (!w.controller()->anyActive()) return true;
    QSignalSpy done(w.controller(), &RunController::allFinished);
    return done.wait(ms) || !w.controller()->anyActive();
}

}  // namespace

class TestFormPanel : public QObject {
    Q_OBJECT
  private slots:
    // 1. The wheel changes a field only when the user clicked into it; otherwise it scrolls the
    // panel.
    void wheelChangesOnlyTheClickedField() {
        auto w = makeWindow();
        ParamForm* f = w->form();
        QScrollBar* bar = f->scrollArea()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);  // the form is longer than the panel at 1024x768
        auto* opt = qobject_cast<QComboBox*>(f->editor(QStringLiteral("optimizer")));
        auto* batch = qobject_cast<QLineEdit*>(f->editor(QStringLiteral("batch")));
        auto* init = qobject_cast<QComboBox*>(f->editor(QStringLiteral("init")));
        QVERIFY(opt && batch && init);
        const std::string before = f->config().toJson().dump();
        bar->setValue(bar->maximum() / 2);
        const int scrolled = bar->value();
        for (QWidget* ed : {static_cast<QWidget*>(opt), static_cast<QWidget*>(batch),
                            static_cast<QWidget*>(init)}) {
            QVERIFY(!ed->hasFocus());
            wheel(ed, -1);
            wheel(ed, -2);
        }
        QCOMPARE(f->config().toJson().dump(), before);  // nothing changed...
        QVERIFY(bar->value() > scrolled);               // ...the panel scrolled instead
        QVERIFY(f->isValid());
        // A field the user clicked into takes the wheel: the optimiser's next choice.
        f->scrollArea()->ensureWidgetVisible(opt);
        QTest::mouseClick(opt, Qt::LeftButton);  // opens the popup, gives the focus
        opt->hidePopup();
        QTRY_VERIFY_WITH_TIMEOUT(opt->hasFocus(), kRunWaitMs);
        wheel(opt, -1);
        QCOMPARE(f->config().getString("optimizer"), std::string("sgd"));
        // Focus without a click (Tab, "Show") does not let the wheel change a value.
        const std::string sgd = f->config().toJson().dump();
        QVERIFY(batch->isEnabled());  // sgd uses the batch
        batch->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY_WITH_TIMEOUT(batch->hasFocus(), kRunWaitMs);
        wheel(batch, 1);
        QCOMPARE(f->config().toJson().dump(), sgd);
        // Clicked into, it does: Batch 8 -> 9.
        f->scrollArea()->ensureWidgetVisible(batch);
        QTest::mouseClick(batch, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(batch->hasFocus(), kRunWaitMs);
        wheel(batch, 1);
        QCOMPARE(f->config().getInt("batch"), 9);
        QCOMPARE(batch->text(), QStringLiteral("9"));
    }

    // 1b. Issue 30, item 3: the panel scrolls under a still pointer and brings the field the
    // user had clicked into under it; the rest of the notches keep scrolling the panel ("Tokens
    // n went 128 -> 125 without a word" before).
    void focusedFieldUnderAScrollingPointerKeepsItsValue() {
        auto w = makeWindow();
        ParamForm* f = w->form();
        QScrollArea* scroll = f->scrollArea();
        QScrollBar* bar = scroll->verticalScrollBar();
        auto* n = qobject_cast<QLineEdit*>(f->editor(QStringLiteral("data.n")));
        QVERIFY(n);
        bar->setValue(0);
        scroll->ensureWidgetVisible(n);
        QTest::mouseClick(n, Qt::LeftButton);  // the user clicked into Tokens n
        QTRY_VERIFY_WITH_TIMEOUT(n->hasFocus(), kRunWaitMs);
        const QString before = n->text();
        // The pointer rests a few notches above the field, in its column.
        const int step = bar->singleStep() * QApplication::wheelScrollLines();
        const QPoint fieldAt = n->mapToGlobal(n->rect().center());
        int notches = 3;
        while (notches > 1 &&
               (scroll->viewport()->mapFromGlobal(fieldAt).y() - notches * step < 4 ||
                bar->maximum() - bar->value() < notches * step))
            --notches;
        const QPoint pointer = fieldAt - QPoint(0, notches * step);
        QVERIFY(scroll->viewport()->rect().contains(scroll->viewport()->mapFromGlobal(pointer)));
        QVERIFY(bar->maximum() - bar->value() >= notches * step);
        const int scrolledFrom = bar->value();
        bool fieldWasUnder = false;
        for (int i = 0; i < notches + 2 && bar->value() < bar->maximum(); ++i) {
            QWidget* under = wheelAtPointer(w.get(), pointer, -1);
            QVERIFY(under);
            fieldWasUnder = fieldWasUnder || under == n;
        }
        QVERIFY(fieldWasUnder);  // the field did come under the pointer...
        QVERIFY(bar->value() > scrolledFrom);  // ...the panel scrolled...
        QCOMPARE(n->text(), before);  // ...and kept its value
        QCOMPARE(f->config().getInt("data.n"), before.toInt());
        QVERIFY(n->hasFocus());
        // Clicking into it again lets the wheel step it there, and only it: the notch does not
        // go on to scroll the panel as well.
        QTest::mouseClick(n, Qt::LeftButton);
        const int still = bar->value();
        QCOMPARE(wheelAtPointer(w.get(), n->mapToGlobal(n->rect().center()), -1), n);
        QCOMPARE(n->text(), QString::number(before.toInt() - 1));
        QCOMPARE(bar->value(), still);
    }

    // 3. Start disabled says why: its tooltip, the status bar, the field outlined and shown.
    void disabledStartSaysWhy() {
        auto w = makeWindow();
        auto* rank = qobject_cast<QLineEdit*>(w->form()->editor(QStringLiteral("data.rank")));
        QVERIFY(rank);
        type(rank, QStringLiteral("10"));
        QAction* start = w->action(QStringLiteral("start"));
        QVERIFY(!start->isEnabled());
        QVERIFY2(start->toolTip().contains(QStringLiteral("data.rank")), qPrintable(start->toolTip()));
        auto* state = w->findChild<QLabel*>(QStringLiteral("stateLabel"));
        QVERIFY(state->text().contains(QStringLiteral("cannot start")));
        QVERIFY(state->text().contains(QStringLiteral("rank")));
        QVERIFY(rank->property("ade.marked").toBool());
        QCOMPARE(w->form()->firstProblemKey(), QStringLiteral("data.rank"));
        // "Show" goes to the field: scrolled into view and focused.
        auto* problems = w->form()->findChild<QLabel*>(QStringLiteral("formProblems"));
        QVERIFY(problems->text().contains(QStringLiteral("href='data.rank'")));
        w->form()->scrollArea()->verticalScrollBar()->setValue(
            w->form()->scrollArea()->verticalScrollBar()->maximum());
        w->action(QStringLiteral("resetForm"))->trigger();  // also: defaults are valid again
        QVERIFY(start->isEnabled());
        QVERIFY(!rank->property("ade.marked").toBool());
        QCOMPARE(w->form()->config().getInt("data.rank"), 0);
        type(rank, QStringLiteral("10"));
        rank->clearFocus();
        emit problems->linkActivated(QStringLiteral("data.rank"));
        QTRY_VERIFY_WITH_TIMEOUT(rank->hasFocus(), kRunWaitMs);
        const QRect r(rank->mapTo(w->form()->scrollArea()->viewport(), QPoint(0, 0)), rank->size());
        QVERIFY(w->form()->scrollArea()->viewport()->rect().contains(r));
    }

    // 4. Out-of-range input is refused with the range in plain numbers, not clipped; marking
    // moves no field; the time estimate of a measured size is shown before Start.
    void badInputIsRefusedNotClipped() {
        auto w = makeWindow();
        ParamForm* f = w->form();
        std::vector<int> ys;
        for (const char* k : {"seed", "iterations", "data.n", "data.prompts", "lr", "batch"})
            ys.push_back(f->editor(QLatin1String(k))->mapTo(f, QPoint(0, 0)).y());
        auto* n = qobject_cast<QLineEdit*>(f->editor(QStringLiteral("data.n")));
        type(n, QStringLiteral("-5"));
        QCOMPARE(n->text(), QStringLiteral("-5"));          // kept as typed...
        QCOMPARE(f->config().getInt("data.n"), 64);         // ...not taken...
        QVERIFY(!f->isValid());                             // ...and refused
        QVERIFY(f->errors().join(' ').contains(QStringLiteral("[1, 1048576]")));
        auto* it = qobject_cast<QLineEdit*>(f->editor(QStringLiteral("iterations")));
        type(it, QStringLiteral("99999999999"));
        QCOMPARE(it->text(), QStringLiteral("99999999999"));  // not clipped to 1e9: refused
        QVERIFY(f->errors().join(' ').contains(QStringLiteral("'99999999999'")));
        QVERIFY(f->errors().join(' ').contains(QStringLiteral("[0, 1000000000]")));
        QVERIFY(!w->action(QStringLiteral("start"))->isEnabled());
        std::vector<int> after;
        for (const char* k : {"seed", "iterations", "data.n", "data.prompts", "lr", "batch"})
            after.push_back(f->editor(QLatin1String(k))->mapTo(f, QPoint(0, 0)).y());
        QVERIFY(ys == after);  // no field moved
        const QString seedTip = f->editor(QStringLiteral("seed"))->toolTip();
        QVERIFY2(seedTip.contains(QStringLiteral("[0, 9223372036854775807]")), qPrintable(seedTip));
        QVERIFY(!seedTip.contains(QStringLiteral("e+")));
        const auto* spec = ade::ParamRegistry::instance().find("adam.beta2");
        QCOMPARE(spec->allowedText(), std::string("a finite number in [0, 0.99999999]"));

        // Time estimate: unknown until this size has run, then from the measured rate.
        f->setConfig(tinyA(300));
        auto* estimate = f->findChild<QLabel*>(QStringLiteral("timeEstimate"));
        QVERIFY(estimate->text().contains(QStringLiteral("not measured")));
        w->commands()->startFromForm();
        QVERIFY(waitIdle(*w));
        ade::Config longer = tinyA(3000000);
        longer.setText("seed", "7");  // another seed, length and conditioning: the same cost
        longer.setText("data.kappa_sigma", "30");  // per iteration (ParamSpec::costNeutral)
        f->setConfig(longer);
        QVERIFY2(estimate->text().contains(QStringLiteral("about")), qPrintable(estimate->text()));
        QVERIFY(estimate->text().contains(QStringLiteral("3000000 iterations")));
        QVERIFY(estimate->toolTip().contains(QStringLiteral("run 1")));
        ade::Config bigger = longer;
        bigger.setText("data.n", "16");  // another size: not measured
        f->setConfig(bigger);
        QVERIFY(estimate->text().contains(QStringLiteral("not measured")));
        // "measure": about a second of training on a worker thread gives the estimate.
        QVERIFY(estimate->text().contains(QStringLiteral("href='measure'")));
        emit estimate->linkActivated(QStringLiteral("measure"));
        QVERIFY(estimate->text().contains(QStringLiteral("measuring")));
        QTRY_VERIFY_WITH_TIMEOUT(estimate->toolTip().contains(QStringLiteral("one-second")), 30000);
        QVERIFY(estimate->text().contains(QStringLiteral("3000000 iterations")));
        QCOMPARE(w->store()->runs().size(), std::size_t(1));  // a measurement is not a run
    }

    // 4b. Issue 30, item 14: at 1024x768 the header's two lines fit the panel: the first
    // problem stays within its two lines (a third ran into the time line), the estimate's
    // "measure" link is never cut ("· m" before), and a refused value gives no stale estimate.
    void headerLinesFitAndTheEstimateNeverGoesStale() {
        auto w = makeWindow();
        ParamForm* f = w->form();
        auto* problems = f->findChild<QLabel*>(QStringLiteral("formProblems"));
        auto* estimate = f->findChild<QLabel*>(QStringLiteral("timeEstimate"));
        const auto plain = [](const QLabel* l) {
            QTextDocument doc;
            doc.setHtml(l->text());
            return doc.toPlainText();
        };
        const auto fitsOneLine = [&](const QLabel* l) {
            return l->fontMetrics().horizontalAdvance(plain(l)) <= l->contentsRect().width();
        };
        f->setConfig(tinyA(300));
        QVERIFY2(plain(estimate).endsWith(QStringLiteral("measure")), qPrintable(plain(estimate)));
        QVERIFY2(fitsOneLine(estimate), qPrintable(plain(estimate)));
        auto* it = qobject_cast<QLineEdit*>(f->editor(QStringLiteral("iterations")));
        type(it, QStringLiteral("99999999999"));
        QVERIFY(!f->isValid());
        QVERIFY2(problems->text().contains(QStringLiteral("href='iterations'")),
                 qPrintable(problems->text()));
        QVERIFY2(problems->heightForWidth(problems->width()) <= problems->height(),
                 qPrintable(plain(problems)));
        QVERIFY(problems->toolTip().contains(QStringLiteral("99999999999")));  // whole there
        // The estimate of the last valid value (300 iterations) would be stale: it says so.
        QVERIFY2(plain(estimate).contains(QStringLiteral("cannot estimate")),
                 qPrintable(plain(estimate)));
        QVERIFY(!plain(estimate).contains(QStringLiteral("300 iterations")));
        QVERIFY(fitsOneLine(estimate));
        type(it, QStringLiteral("400"));
        QVERIFY(f->isValid());
        QVERIFY2(plain(estimate).endsWith(QStringLiteral("measure")), qPrintable(plain(estimate)));
        QVERIFY2(estimate->toolTip().contains(QStringLiteral("400 iterations")),
                 qPrintable(estimate->toolTip()));
    }

    // 5. Knobs the settings do not use are disabled, with the reason.
    void knobsThatDoNotApplyAreDisabled() {
        auto w = makeWindow();
        ParamForm* f = w->form();
        f->setConfig(tinyA(10));  // gd, no regulariser, random start, no preconditioner
        for (const char* k : {"adam.beta1", "adam.beta2", "adam.eps", "batch", "temperature",
                              "lambda", "epsilon", "precond.damping", "init_from"}) {
            QWidget* ed = f->editor(QLatin1String(k));
            QVERIFY2(ed && !ed->isEnabled(), k);
            QVERIFY2(ed->toolTip().contains(QStringLiteral("Not used now")), k);
        }
        QVERIFY(f->editor(QStringLiteral("adam.beta1"))->toolTip().contains(QStringLiteral("optimizer = gd")));
        for (const char* k : {"lr", "init_scale", "iterations", "data.n"})
            QVERIFY2(f->editor(QLatin1String(k))->isEnabled(), k);
        auto* opt = qobject_cast<QComboBox*>(f->editor(QStringLiteral("optimizer")));
        opt->setCurrentIndex(opt->findData(QStringLiteral("adam")));
        QVERIFY(f->editor(QStringLiteral("adam.beta1"))->isEnabled());
        QVERIFY(f->editor(QStringLiteral("batch"))->isEnabled());
        QVERIFY(!f->editor(QStringLiteral("temperature"))->isEnabled());
        // A refused value in a knob that is not used does not block Start.
        auto* beta = qobject_cast<QLineEdit*>(f->editor(QStringLiteral("adam.beta1")));
        type(beta, QStringLiteral("7"));
        QVERIFY(!f->isValid());
        opt->setCurrentIndex(opt->findData(QStringLiteral("gd")));
        QVERIFY(f->isValid());
        // The rule lives in core, next to the key.
        ade::Config c = tinyA(10);
        std::string why;
        QVERIFY(!c.isRelevant("batch", &why));
        QVERIFY(why.find("optimizer = gd") != std::string::npos);
        c.setText("optimizer", "sgd");
        QVERIFY(c.isRelevant("batch"));
    }
};

QTEST_MAIN(TestFormPanel)
#include "tst_form_panel.moc"
