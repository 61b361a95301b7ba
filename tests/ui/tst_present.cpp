// Screens and presentation (issue 13, items 16-18), on a virtual 1024x768 screen (the offscreen
// platform's screen is set from a configuration file before the application starts): the window
// fits the screen, presentation mode is a mode (panels hidden, charts filling the screen, the
// projector palette, the layout restored), the empty charts say what to press, Help lists the
// keys, and Start on a loaded preset starts its whole comparison while Play runs one.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <QFontMetricsF>

#include <array>
#include <cmath>
#include <map>
#include <set>

#include "plan/Preset.h"

#include "base/ActionTable.h"
#include "charts/ChartArea.h"
#include "ColourDistance.h"
#include "Configs.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "TestWindow.h"
#include "charts/ChartPanel.h"
#include "charts/LegendBar.h"
#include "base/Palette.h"

using namespace ade::ui;
using adetest::makeWindow;

namespace {

const char* kPreset = "a-spectral-vs-random";  // three runs: Algorithm 1 twice, SGD
// The runs' size does not matter here: 20 iterations on a small data set (16 tokens, 4 prompts),
// so that the runs take milliseconds, not seconds, under the sanitizers.
const std::vector<std::string> kSmall = {"iterations=20", "data.n=16", "data.prompts=4"};

using adetest::deltaE;

QRect inWindow(const QWidget* w, const QWidget* window) {
    return QRect(w->mapTo(window, QPoint(0, 0)), w->size());
}

std::vector<ChartPanel*> visiblePanels(const MainWindow& w) {
    std::vector<ChartPanel*> out;
    for (ChartPanel* p : w.charts()->panels())
        if (p->isVisible()) out.push_back(p);
    return out;
}

}  // namespace

class TestPresent : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QScreen* s = QGuiApplication::primaryScreen();
        QVERIFY(s);
        QCOMPARE(s->geometry().size(), QSize(1024, 768));
    }

    // 16. At 1024x768 the window fits the screen: nothing off-screen, the About panel a tab
    // beside the parameters rather than a 60-px strip, its words never broken.
    void windowFitsA1024x768Screen() {
        auto w = makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        const QRect avail = w->screen()->availableGeometry();
        QTRY_VERIFY2_WITH_TIMEOUT(avail.contains(w->frameGeometry()),
                                  qPrintable(QStringLiteral("window %1,%2 %3x%4")
                                                 .arg(w->frameGeometry().x())
                                                 .arg(w->frameGeometry().y())
                                                 .arg(w->frameGeometry().width())
                                                 .arg(w->frameGeometry().height())),
                                  kRunWaitMs);
        const QSize least = w->minimumSizeHint();
        QVERIFY2(least.width() <= avail.width() && least.height() <= avail.height(),
                 qPrintable(QStringLiteral("%1x%2").arg(least.width()).arg(least.height())));
        auto* form = w->findChild<QDockWidget*>(QStringLiteral("parametersDock"));
        auto* about = w->findChild<QDockWidget*>(QStringLiteral("aboutDock"));
        auto* runs = w->findChild<QDockWidget*>(QStringLiteral("runsDock"));
        QVERIFY(form && about && runs);
        QVERIFY(w->tabifiedDockWidgets(form).contains(about));
        // The Fit button, the run list and the status bar are inside the window.
        const QRect inside = w->rect();
        auto* fit = w->findChild<QPushButton*>(QStringLiteral("fit"));
        QVERIFY(fit && fit->isVisible() && inside.contains(inWindow(fit, w.get())));
        QVERIFY(runs->isVisible() && inside.contains(inWindow(runs, w.get())));
        QVERIFY(inside.contains(inWindow(w->statusBar(), w.get())));
        // The About tab, raised: wide enough to read, wrapped at word boundaries only.
        about->raise();
        auto* text = w->findChild<QTextBrowser*>(QStringLiteral("about"));
        QTRY_VERIFY_WITH_TIMEOUT(text->isVisible(), kRunWaitMs);
        QVERIFY2(text->width() >= 240, qPrintable(QString::number(text->width())));
        QCOMPARE(text->wordWrapMode(), QTextOption::WordWrap);
        // Every chart of the grid keeps a usable size.
        for (ChartPanel* p : visiblePanels(*w))
            QVERIFY2(p->width() >= 240 && p->height() >= 180,
                     qPrintable(QStringLiteral("%1: %2x%3")
                                    .arg(p->title())
                                    .arg(p->width())
                                    .arg(p->height())));
    }

    // 17. Presentation mode: panels and tab bar hidden, full screen, 2x2 grid or one chart
    // (keys 1-4, 0), large type; leaving restores the layout exactly.
    void presentationModeIsAMode() {
        auto w = makeWindow();
        QVERIFY(QTest::qWaitForWindowActive(w.get()));
        QTest::qWait(50);  // docks settle
        auto* tabs = w->findChild<QTabWidget*>(QStringLiteral("tabs"));
        tabs->setCurrentIndex(1);  // the sweep view: presentation shows the charts, then back
        const QByteArray state = w->saveState();
        const QRect geometry = w->geometry();
        std::map<QString, bool> docks;
        for (QDockWidget* d : w->findChildren<QDockWidget*>())
            docks[d->objectName()] = d->isVisible();
        LegendBar* legend = w->charts()->legend();  // the grid's one legend
        QVERIFY(legend);
        const double normalFont = legend->font().pointSizeF();

        QTest::keyClick(w.get(), Qt::Key_F11);
        QVERIFY(w->presentation());
        QVERIFY(w->action(QStringLiteral("presentation"))->isChecked());
        for (QDockWidget* d : w->findChildren<QDockWidget*>())
            QVERIFY2(!d->isVisible(), qPrintable(d->objectName()));
        QVERIFY(!tabs->tabBar()->isVisible());
        QCOMPARE(tabs->currentWidget(), static_cast<QWidget*>(w->charts()));
        QVERIFY(!w->findChild<QCheckBox*>(QStringLiteral("logY"))->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(w->geometry(), w->screen()->geometry(),
                                  kRunWaitMs);  // full screen
        // Four charts as a 2x2 grid filling the screen, in large type.
        QTRY_VERIFY_WITH_TIMEOUT(
            visiblePanels(*w).size() == std::min<std::size_t>(4, w->charts()->panels().size()),
            kRunWaitMs);
        QCOMPARE(visiblePanels(*w).size(), std::size_t(4));
        for (ChartPanel* p : visiblePanels(*w)) {
            QVERIFY(p->options().presentation);
            QVERIFY2(p->width() >= 450 && p->height() >= 270,
                     qPrintable(QStringLiteral("%1x%2").arg(p->width()).arg(p->height())));
        }
        QVERIFY(legend->font().pointSizeF() >= 1.5 * normalFont);
        // Key 2: the second chart alone; 0: the grid again.
        QTest::keyClick(w.get(), Qt::Key_2);
        QTRY_COMPARE_WITH_TIMEOUT(visiblePanels(*w).size(), std::size_t(1), kRunWaitMs);
        QCOMPARE(visiblePanels(*w).front(), w->charts()->panels()[1]);
        QTRY_VERIFY_WITH_TIMEOUT(visiblePanels(*w).front()->width() >= 1000, kRunWaitMs);
        QVERIFY(visiblePanels(*w).front()->height() >= 560);
        QTest::keyClick(w.get(), Qt::Key_0);
        QTRY_COMPARE_WITH_TIMEOUT(visiblePanels(*w).size(), std::size_t(4), kRunWaitMs);

        QTest::keyClick(w.get(), Qt::Key_F11);
        QVERIFY(!w->presentation());
        QTRY_COMPARE_WITH_TIMEOUT(w->geometry(), geometry, kRunWaitMs);
        QCOMPARE(tabs->currentIndex(), 1);
        QVERIFY(tabs->tabBar()->isVisible());
        for (QDockWidget* d : w->findChildren<QDockWidget*>())
            QCOMPARE(d->isVisible(), docks[d->objectName()]);
        QTRY_COMPARE_WITH_TIMEOUT(w->saveState(), state, kRunWaitMs);
        QVERIFY(w->findChild<QCheckBox*>(QStringLiteral("logY"))->isVisible() ||
                !w->charts()->isVisible());
        QCOMPARE(legend->font().pointSizeF(), normalFont);
        // Outside presentation mode the digits are no shortcuts (they are typed into fields).
        QVERIFY(!w->action(QStringLiteral("presentChart1"))->isEnabled());
    }

    // 17. The projector palette: every series colour (the 8 and their shades) at least 4.5:1
    // against the white plot, all distinct and apart.
    void projectorPaletteHasContrast() {
        const int n = 3 * paletteSize();
        QStringList ratios;
        QSet<QRgb> seen;
        for (int i = 0; i < n; ++i) {
            const QColor c = projectorColor(i);
            const double ratio = contrastRatio(c, Qt::white);
            ratios << QStringLiteral("%1 %2").arg(c.name()).arg(ratio, 0, 'f', 2);
            QVERIFY2(ratio >= 4.5, qPrintable(ratios.back()));
            QVERIFY2(!seen.contains(c.rgb()), qPrintable(c.name()));
            seen.insert(c.rgb());
            QCOMPARE(seriesColor(i, true), c);
            QCOMPARE(seriesColor(i, false), paletteColor(i));
        }
        qInfo("projector palette contrast against white: %s", qPrintable(ratios.join(", ")));
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                const double d = deltaE(projectorColor(i), projectorColor(j));
                const double least = i < paletteSize() && j < paletteSize() ? 30 : 7;
                QVERIFY2(d >= least, qPrintable(QStringLiteral("%1 %2: %3")
                                                    .arg(projectorColor(i).name(),
                                                         projectorColor(j).name())
                                                    .arg(d)));
            }
    }

    // 18. Empty charts say what to press; the hint goes with the first run, comes back when
    // the last is deleted.
    void emptyChartsShowAHint() {
        auto w = makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        auto* hint = w->charts()->findChild<QLabel*>(QStringLiteral("emptyHint"));
        QVERIFY(hint);
        QVERIFY(w->charts()->emptyHintShown());
        QTRY_VERIFY_WITH_TIMEOUT(hint->isVisible(), kRunWaitMs);
        QVERIFY2(hint->text().contains(QStringLiteral("Start")), qPrintable(hint->text()));
        QVERIFY(hint->text().contains(QStringLiteral("Play")));
        QVERIFY(w->commands()->loadPreset(QLatin1String(kPreset), false, kSmall));
        QVERIFY2(hint->text().contains(QLatin1String(kPreset)), qPrintable(hint->text()));
        QVERIFY2(hint->text().contains(QRegularExpression(QStringLiteral("\\b\\d+ runs"))),
                 qPrintable(hint->text()));
        // Drawn over the charts, inside the grid.
        const QRect area(QPoint(0, 0), w->charts()->size());
        QVERIFY(area.contains(QRect(hint->mapTo(w->charts(), QPoint(0, 0)), hint->size())));
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        w->form()->setConfig(adetest::tinyA(10));
        w->commands()->setSeeds(1);  // one run, so that deleting it empties the charts
        w->commands()->startFromForm();
        QTRY_VERIFY_WITH_TIMEOUT(!hint->isVisible(), kRunWaitMs);
        QVERIFY(!w->charts()->emptyHintShown());
        QVERIFY(finished.wait(kRunWaitMs));
        w->commands()->deleteRun(w->store()->runs().front()->id);
        QTRY_VERIFY_WITH_TIMEOUT(hint->isVisible(), kRunWaitMs);
    }

    // 18. Start on an idle window with a preset loaded: the whole comparison; Play: one run
    // of the form; Start after the form changed: one run of the form.
    void startRunsThePresetsComparisonAndPlayOneRun() {
        auto w = makeWindow();
        QVERIFY(w->commands()->loadPreset(QLatin1String(kPreset), false, kSmall));
        w->commands()->setSeeds(1);  // one seed per run here (seeds: ui_seeds)
        QVERIFY(w->commands()->startStartsComparison());
        QVERIFY2(w->action(QStringLiteral("start"))->toolTip().contains(QLatin1String(kPreset)),
                 qPrintable(w->action(QStringLiteral("start"))->toolTip()));
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        w->action(QStringLiteral("start"))->trigger();
        QCOMPARE(w->store()->runs().size(), std::size_t(3));
        QCOMPARE(w->store()->runs()[0]->name, QStringLiteral("alg1-spectral"));
        QCOMPARE(w->store()->runs()[2]->name, QStringLiteral("sgd-random"));
        QVERIFY(finished.wait(kRunWaitMs));
        // Again: the comparison again (the earlier runs stay in the list, hidden).
        w->action(QStringLiteral("start"))->trigger();
        QCOMPARE(w->store()->runs().size(), std::size_t(6));
        QVERIFY(!w->store()->runs()[0]->visible);
        QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->anyActive(), kRunWaitMs);
        // The form changed: Start is one run of the form.
        ade::Config c = w->form()->config();
        c.setJson("seed", 7);
        w->form()->setConfig(c);
        QVERIFY(!w->commands()->startStartsComparison());
        w->action(QStringLiteral("start"))->trigger();
        QCOMPARE(w->store()->runs().size(), std::size_t(7));
        QCOMPARE(w->store()->runs().back()->config.getInt("seed"), 7);
        QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->anyActive(), kRunWaitMs);

        // Play on an idle window with the preset loaded: one run, the form's.
        auto v = makeWindow();
        QVERIFY(v->commands()->loadPreset(QLatin1String(kPreset), false, kSmall));
        v->commands()->setSeeds(1);
        v->action(QStringLiteral("pause"))->trigger();
        QCOMPARE(v->store()->runs().size(), std::size_t(1));
        QVERIFY(v->store()->runs().front()->config.toJson() == v->form()->config().toJson());
        QTRY_VERIFY_WITH_TIMEOUT(!v->controller()->anyActive(), kRunWaitMs);
    }

    // Issue 30, item 1: twelve groups of three seeds at 1024x768, in the window and in
    // presentation mode: every plot keeps its minimum height, its linear ticks are round and
    // fit, the grid's one legend names each group once (and the band once), within a quarter
    // of the charts' height, and twelve groups get twelve colours.
    void twelveGroupsStayReadable() {
        // (No raw strings: moc's tokenizer drops the class after one that holds quotes.)
        std::string runs;
        for (int i = 0; i < 12; ++i)
            runs += std::string(i ? "," : "") + "{\"name\": \"group-" + std::to_string(i) +
                    "\", \"config\": {\"lr\": " + std::to_string(0.01 + 0.002 * i) + "}}";
        const std::string text = "{\"name\": \"twelve\", \"config\": {\"experiment\": \"a\", "
                                 "\"optimizer\": \"sgd\", \"init\": \"random\"}, \"seeds\": 3, "
                                 "\"runs\": [" + runs + "]}";
        ade::PlanError error;
        const auto plan = ade::parsePlan(text, "twelve", kSmall, &error);
        QVERIFY2(plan, error.message.c_str());
        auto w = makeWindow();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        QVERIFY(w->commands()->loadPlan(*plan, QStringLiteral("twelve"), true));
        QCOMPARE(w->store()->runs().size(), std::size_t(36));
        QVERIFY(finished.wait(kRunWaitMs));
        std::set<QRgb> colours;
        for (const auto& r : w->store()->runs())
            colours.insert(paletteColor(r->colorIndex).rgb());
        QCOMPARE(colours.size(), std::size_t(12));
        for (bool present : {false, true}) {
            if (present) QTest::keyClick(w.get(), Qt::Key_F11);
            QCOMPARE(w->presentation(), present);
            w->charts()->refresh(true);
            QTRY_VERIFY_WITH_TIMEOUT(!visiblePanels(*w).empty(), kRunWaitMs);
            // The plots: at least nine lines of their tick labels' font high, each.
            for (ChartPanel* p : visiblePanels(*w)) {
                const double least = 4.5 * QFontMetricsF(p->font()).height() * (present ? 1.5 : 0.9);
                QTRY_VERIFY2_WITH_TIMEOUT(p->plotArea().height() >= least,
                                          qPrintable(QStringLiteral("%1: plot %2 px high, want %3")
                                                         .arg(p->title())
                                                         .arg(p->plotArea().height())
                                                         .arg(least)),
                                          kRunWaitMs);
                for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
                    for (const QString& t : p->tickTexts(o)) {
                        QVERIFY2(!t.contains(QStringLiteral("e-1")) && !t.contains(QChar(0x2026)),
                                 qPrintable(p->title() + QStringLiteral(": ") + t));
                    }
                QVERIFY2(!p->tickTexts(Qt::Horizontal).isEmpty(), qPrintable(p->title()));
            }
            // One legend: each group once (r: keys), the band's meaning once, no per-chart legend.
            const auto& entries = w->charts()->legend()->entries();
            std::map<QString, int> runKeys;
            int notes = 0;
            for (const LegendEntry& e : entries) {
                if (e.key.startsWith(QStringLiteral("r:"))) ++runKeys[e.key];
                if (e.key.startsWith(QStringLiteral("note:"))) ++notes;
            }
            QCOMPARE(runKeys.size(), std::size_t(12));
            for (const auto& [key, n] : runKeys)
                QCOMPARE(n, 1);
            QCOMPARE(notes, 1);
            for (ChartPanel* p : visiblePanels(*w)) {
                auto* own = p->findChild<LegendBar*>();
                QVERIFY(!own || !own->isVisible());
            }
            auto* legendScroll = w->charts()->findChild<QWidget*>(QStringLiteral("chartLegendScroll"));
            QVERIFY(legendScroll && legendScroll->isVisible());
            QVERIFY2(legendScroll->height() <= std::max(w->charts()->height() / 4, 60),
                     qPrintable(QStringLiteral("legend %1 of %2").arg(legendScroll->height()).arg(w->charts()->height())));
        }
        QTest::keyClick(w.get(), Qt::Key_F11);
    }

    // 18. Help: Quick start and the keyboard shortcuts, listed from the actions.
    void helpHasQuickStartAndShortcuts() {
        auto w = makeWindow();
        QVERIFY(w->action(QStringLiteral("quickStart")));
        w->action(QStringLiteral("quickStart"))->trigger();
        auto* quick = w->findChild<QDialog*>(QStringLiteral("quickStartDialog"));
        QTRY_VERIFY_WITH_TIMEOUT(quick && quick->isVisible(), kRunWaitMs);
        const QString text = quick->findChild<QTextBrowser*>()->toPlainText();
        QVERIFY(text.contains(QStringLiteral("Start")) && text.contains(QStringLiteral("Play")));
        QVERIFY(text.contains(QStringLiteral("F11")));
        quick->close();

        // Every key comes from a room's action table (base/ActionTable.h), and no key is
        // bound to two actions that are enabled at once.
        const auto list = tableShortcuts(w.get());
        int withKeys = 0;
        std::map<QString, QString> enabledKeys;
        for (const QAction* a : w->findChildren<QAction*>()) {
            if (a->shortcuts().isEmpty()) continue;
            ++withKeys;
            QVERIFY2(fromActionTable(a), qPrintable(a->objectName()));
            if (!a->isEnabled()) continue;
            for (const QKeySequence& k : a->shortcuts()) {
                const QString key = k.toString(QKeySequence::NativeText);
                QVERIFY2(!enabledKeys.count(key),
                         qPrintable(key + QStringLiteral(": ") + enabledKeys[key] +
                                    QStringLiteral(" and ") + a->objectName()));
                enabledKeys[key] = a->objectName();
            }
        }
        QCOMPARE(static_cast<int>(list.size()), withKeys);
        w->action(QStringLiteral("shortcuts"))->trigger();
        auto* table = w->findChild<QTableWidget*>(QStringLiteral("shortcutsTable"));
        QTRY_VERIFY_WITH_TIMEOUT(table && table->isVisible(), kRunWaitMs);
        QCOMPARE(table->rowCount(), withKeys);
        QStringList rows;
        for (int i = 0; i < table->rowCount(); ++i)
            rows << table->item(i, 0)->text() + QStringLiteral(" = ") + table->item(i, 1)->text();
        const QString start = QKeySequence(Qt::CTRL | Qt::Key_Return).toString(QKeySequence::NativeText);
        for (const QString& want : {QStringLiteral("Start = ") + start,
                                    QStringLiteral("Play = Space"),
                                    QStringLiteral("Presentation mode = F11"),
                                    QStringLiteral("Fit charts = F"),
                                    QStringLiteral("Next step = PgDown"),
                                    QStringLiteral("Live = L"),
                                    QStringLiteral("Copy run as config = ") +
                                        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)
                                            .toString(QKeySequence::NativeText),
                                    QStringLiteral("Export charts… = ") +
                                        QKeySequence(Qt::CTRL | Qt::Key_E)
                                            .toString(QKeySequence::NativeText)})
            QVERIFY2(rows.contains(want), qPrintable(rows.join(QStringLiteral("; "))));
    }
};

// The offscreen platform with one 1024x768 screen (a lecture hall projector's).
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
    TestPresent t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_present.moc"
