// Comparing runs like TensorBoard / W&B (issue 13): the sortable run table (final, best and
// floor of a chosen metric beside the parameters that differ), the config diff of two runs
// and the wall-time x axis. QTest drives the widgets; runs are filled by hand, not trained.
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QHeaderView>
#include <QLineSeries>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QRegularExpression>
#include <QTest>
#include <QTimer>
#include <QValueAxis>

#include <cmath>
#include <functional>
#include <memory>

#include "charts/ChartArea.h"
#include "runlist/ConfigDiffDialog.h"
#include "about/AboutPanel.h"
#include "base/ActionTable.h"
#include "sweep/SweepTab.h"
#include "window/Autopilot.h"
#include "window/MainWindow.h"
#include "window/PresentationMode.h"
#include "window/RunCommands.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "ChartCurves.h"
#include "Waits.h"
#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"

using namespace ade::ui;

namespace {

ade::Config config(const std::vector<std::pair<std::string, std::string>>& kv) {
    ade::Config c;
    for (const auto& [k, v] : kv)
        if (auto e = c.setText(k, v)) qFatal("%s = %s: %s", k.c_str(), v.c_str(), e->message.c_str());
    return c;
}

// A run of `n` records: train loss f(i), test loss 2 f(i), `dt` seconds per record.
int addRun(RunStore& s, const QString& name, const ade::Config& c,
           const std::function<double(int)>& f, int n = 20, double dt = 0.01) {
    const int id = s.addRun(name, c);
    s.setColumns(id, {"iteration", "time_s", "train_loss", "test_loss"});
    std::vector<std::vector<double>> rows;
    for (int i = 0; i < n; ++i)
        rows.push_back({double(i), i * dt, f(i), 2 * f(i)});
    s.appendRows(id, rows);
    s.setState(id, RunState::Completed);
    return id;
}

QStringList column(const RunListWidget* list, int col) {
    QStringList out;
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        out << list->topLevelItem(i)->text(col);
    return out;
}

void clickHeader(RunListWidget* list, int col) {
    QHeaderView* h = list->header();
    const QPoint at(h->sectionViewportPosition(col) + h->sectionSize(col) / 2, h->height() / 2);
    QTest::mouseClick(h->viewport(), Qt::LeftButton, {}, at);
}

QString label(const char* column) {
    return QString::fromStdString(ade::describeColumn("a", column).label);
}

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT
  private slots:
    // An empty list already names its columns (QTreeWidget's own labels are "1", "2", …).
    void emptyListNamesItsColumns() {
        RunStore store;
        RunListWidget list(&store);
        QCOMPARE(list.headerItem()->text(RunListWidget::ColName), QStringLiteral("Run"));
        QCOMPARE(list.headerItem()->text(RunListWidget::ColFinal), QStringLiteral("final"));
        QCOMPARE(list.headerItem()->text(list.paramsColumn()), QStringLiteral("Key parameters"));
    }

    // The chooser lists the runs' metrics by label; final, best and floor follow it.
    void tableShowsFinalBestFloorOfTheChosenMetric() {
        RunStore store;
        auto* list = new RunListWidget(&store);
        std::unique_ptr<QWidget> panel(list->panel());
        panel->resize(1200, 300);
        panel->show();
        // 20 records falling 20..2 then a jump: final 7, best 2, floor = mean of the last 2.
        const int id = addRun(store, "r", ade::Config(), [](int i) { return i < 19 ? 20.0 - i : 7.0; });
        QComboBox* combo = list->metricCombo();
        QVERIFY(combo->isVisibleTo(panel.get()));
        QStringList items;
        for (int i = 0; i < combo->count(); ++i)
            items << combo->itemText(i);
        QVERIFY2(items.contains(label("train_loss")) && items.contains(label("test_loss")),
                 qPrintable(items.join(" | ")));
        QVERIFY(!items.contains(label("time_s")) && !items.contains(QStringLiteral("iteration")));
        list->setMetric("train_loss");
        QTreeWidgetItem* item = list->itemForRun(id);
        QCOMPARE(item->text(RunListWidget::ColFinal), QStringLiteral("7"));
        QCOMPARE(item->text(RunListWidget::ColBest), QStringLiteral("2"));
        QCOMPARE(item->text(RunListWidget::ColFloor), QStringLiteral("4.5"));  // (2 + 7) / 2
        combo->setCurrentIndex(combo->findText(label("test_loss")));
        QCOMPARE(list->metric(), std::string("test_loss"));
        QCOMPARE(item->text(RunListWidget::ColFinal), QStringLiteral("14"));
        QCOMPARE(item->text(RunListWidget::ColBest), QStringLiteral("4"));
        QCOMPARE(item->text(RunListWidget::ColFloor), QStringLiteral("9"));
    }

    // The chooser follows the runs' experiment: A's headline metric for A's runs, B's (test
    // loss) once B's runs come (A's excess risk would leave every B cell "—"); a choice the new
    // runs also have is kept.
    void metricFollowsTheExperimentOfNewRuns() {
        RunStore store;
        RunListWidget list(&store);
        auto addWith = [&store](const char* experiment, std::vector<std::string> columns) {
            ade::Config c;
            QVERIFY(!c.setText("experiment", experiment));
            const int id = store.addRun(QString::fromLatin1(experiment), c);
            store.setColumns(id, columns);
            store.appendRows(id, {std::vector<double>(columns.size(), 1.0)});
        };
        // New records reach the chooser on the list's 200-ms progress timer: wait for them.
        addWith("a", {"iteration", "time_s", "train_loss", "test_loss", "excess_risk"});
        QTRY_COMPARE_WITH_TIMEOUT(list.metric(), std::string("excess_risk"), kRunWaitMs);
        addWith("b", {"iteration", "time_s", "train_loss", "test_loss", "norm_sq"});
        QTRY_COMPARE_WITH_TIMEOUT(list.metric(), std::string("test_loss"), kRunWaitMs);
        list.setMetric("train_loss");
        addWith("b", {"iteration", "time_s", "train_loss", "test_loss", "norm_sq", "imbalance"});
        QTRY_COMPARE_WITH_TIMEOUT(list.metricCombo()->count(), 5, kRunWaitMs);
        QCOMPARE(list.metric(), std::string("train_loss"));  // B's runs have it: kept
    }

    // A header click sorts numbers as numbers (9 < 10 < 100, not "10" < "100" < "9"), a run
    // without records last; selection, visibility and renaming still reach the right run.
    void headerClickSortsNumericallyAndKeepsBehaviour() {
        RunStore store;
        auto* list = new RunListWidget(&store);
        std::unique_ptr<QWidget> panel(list->panel());
        panel->resize(1200, 300);
        panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel.get()));
        const int a = addRun(store, "a", ade::Config(), [](int) { return 100.0; });
        const int b = addRun(store, "b", ade::Config(), [](int) { return 9.0; });
        const int c = addRun(store, "c", ade::Config(), [](int) { return 10.0; });
        store.addRun("empty", ade::Config());
        list->setMetric("train_loss");
        list->setCurrentItem(list->itemForRun(b));
        const QStringList storeOrder = {"a", "b", "c", "empty"};
        QCOMPARE(column(list, RunListWidget::ColName), storeOrder);

        clickHeader(list, RunListWidget::ColFinal);
        QCOMPARE(column(list, RunListWidget::ColFinal), (QStringList{"9", "10", "100", "—"}));
        clickHeader(list, RunListWidget::ColFinal);
        QCOMPARE(column(list, RunListWidget::ColFinal), (QStringList{"100", "10", "9", "—"}));
        QCOMPARE(list->selectedRunIds(), QList<int>{b});  // the selection moved with its row

        // A new run lands in sorted place.
        addRun(store, "d", ade::Config(), [](int) { return 50.0; });
        QCOMPARE(column(list, RunListWidget::ColName), (QStringList{"a", "d", "c", "b", "empty"}));

        // Visibility and renaming through the sorted rows reach the right runs.
        list->itemForRun(c)->setCheckState(RunListWidget::ColName, Qt::Unchecked);
        QVERIFY(!store.run(c)->visible);
        QVERIFY(store.run(a)->visible && store.run(b)->visible);
        list->itemForRun(a)->setText(RunListWidget::ColName, QStringLiteral("renamed"));
        QCOMPARE(store.run(a)->name, QStringLiteral("renamed"));
        QCOMPARE(list->itemForRun(a)->text(RunListWidget::ColFinal), QStringLiteral("100"));

        // Text columns sort as text; a third click returns to the runs' order.
        clickHeader(list, RunListWidget::ColName);
        QCOMPARE(column(list, RunListWidget::ColName).first(), QStringLiteral("b"));
        clickHeader(list, RunListWidget::ColName);
        clickHeader(list, RunListWidget::ColName);
        QCOMPARE(list->header()->sortIndicatorSection(), -1);
        QCOMPARE(column(list, RunListWidget::ColName),
                 (QStringList{"renamed", "b", "c", "empty", "d"}));
        QCOMPARE(list->selectedRunIds(), QList<int>{b});
    }

    // A column per key whose values differ between the runs that use it, sorted as numbers.
    void differingKeysGetColumns() {
        RunStore store;
        auto* list = new RunListWidget(&store);
        std::unique_ptr<QWidget> panel(list->panel());
        panel->resize(1400, 300);
        panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel.get()));
        addRun(store, "x", config({{"lr", "10"}}), [](int) { return 1.0; });
        QVERIFY(list->differingKeys().empty());
        addRun(store, "y", config({{"lr", "9"}}), [](int) { return 1.0; });
        addRun(store, "z", config({{"lr", "0.5"}, {"optimizer", "adam"}}), [](int) { return 1.0; });
        const int lr = list->keyColumn("lr");
        QVERIFY(lr >= RunListWidget::NFixed);
        QCOMPARE(list->headerItem()->text(lr),
                 QString::fromStdString(ade::ParamRegistry::instance().find("lr")->label));
        QVERIFY(list->keyColumn("optimizer") >= RunListWidget::NFixed);
        QCOMPARE(list->keyColumn("adam.beta1"), -1);  // only the Adam run uses it
        QCOMPARE(list->keyColumn("data.n"), -1);      // the same in every run
        QCOMPARE(list->headerItem()->text(list->paramsColumn()), QStringLiteral("Key parameters"));
        clickHeader(list, lr);
        QCOMPARE(column(list, lr), (QStringList{"0.5", "9", "10"}));
        // The sorted column follows its key when columns come and go.
        addRun(store, "w", config({{"lr", "3"}, {"seed", "7"}}), [](int) { return 1.0; });
        QCOMPARE(list->sortColumn(), list->keyColumn("lr"));
        QCOMPARE(column(list, list->keyColumn("lr")), (QStringList{"0.5", "3", "9", "10"}));
        QVERIFY(list->keyColumn("seed") >= RunListWidget::NFixed);
    }

    // Only the keys whose values differ (by the registry's labels), and the seed.
    void configDiffListsOnlyDifferingKeys() {
        const ade::Config a = config({{"lr", "0.5"}});
        const ade::Config b = config({{"lr", "0.05"}, {"optimizer", "adam"}});
        std::vector<std::string> keys;
        for (const ConfigDiffRow& r : configDiff(a, b))
            keys.push_back(r.key);
        QCOMPARE(keys, (std::vector<std::string>{"seed", "optimizer", "lr"}));
        const auto rows = configDiff(a, b);
        QCOMPARE(rows[2].label, QString::fromStdString(ade::ParamRegistry::instance().find("lr")->label));
        QCOMPARE(rows[2].a, QStringLiteral("0.5"));
        QCOMPARE(rows[2].b, QStringLiteral("0.05"));
        QCOMPARE(rows[1].a, QStringLiteral("gd"));
        QCOMPARE(rows[1].b, QStringLiteral("adam"));
        // Identical configs: the seed alone, for reference.
        QCOMPARE(configDiff(a, a).size(), std::size_t(1));
        // Adam's betas of two gd runs differ but neither run uses them: not a difference.
        QCOMPARE(configDiff(a, config({{"lr", "0.5"}, {"adam.beta1", "0.5"}})).size(), std::size_t(1));
        // Another experiment: its own keys appear, "—" where a key does not apply.
        const auto ac = configDiff(a, config({{"experiment", "c"}}));
        const auto it = std::find_if(ac.begin(), ac.end(), [](const ConfigDiffRow& r) { return r.key == "lora.rank"; });
        QVERIFY(it != ac.end());
        QCOMPARE(it->a, QStringLiteral("—"));
    }

    // Two selected runs → the context menu's "Compare configs…" → a dialog that copies as text.
    void compareConfigsFromTheContextMenu() {
        RunStore store;
        auto* list = new RunListWidget(&store);
        std::unique_ptr<QWidget> panel(list->panel());
        panel->resize(1200, 300);
        panel->show();
        QVERIFY(QTest::qWaitForWindowExposed(panel.get()));
        const int a = addRun(store, "one", config({{"lr", "0.5"}, {"seed", "3"}}), [](int) { return 1.0; });
        const int b = addRun(store, "two", config({{"lr", "0.25"}, {"seed", "4"}}), [](int) { return 1.0; });
        list->itemForRun(a)->setSelected(true);
        list->itemForRun(b)->setSelected(true);
        bool enabled = false;
        QTimer::singleShot(0, this, [&] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            QVERIFY(menu);
            for (QAction* act : menu->actions())
                if (act->text().startsWith(QStringLiteral("Compare configs"))) {
                    enabled = act->isEnabled();
                    act->trigger();
                }
            menu->close();
        });
        emit list->customContextMenuRequested(list->visualItemRect(list->itemForRun(b)).center());
        QVERIFY(enabled);
        auto* dialog = panel->findChild<ConfigDiffDialog*>();
        QVERIFY(dialog);
        QTableWidget* t = dialog->table();
        QCOMPARE(t->rowCount(), 2);  // seed and step size
        QCOMPARE(t->horizontalHeaderItem(1)->text(), QStringLiteral("one"));
        QCOMPARE(t->item(1, 1)->text(), QStringLiteral("0.5"));
        QCOMPARE(t->item(1, 2)->text(), QStringLiteral("0.25"));
        QCOMPARE(t->item(0, 1)->text(), QStringLiteral("3"));
        dialog->findChild<QPushButton*>(QStringLiteral("copyDiff"))->click();
        const QString text = QApplication::clipboard()->text();
        QCOMPARE(text, dialog->text());
        QVERIFY2(text.contains(QStringLiteral("(lr)\t0.5\t0.25")), qPrintable(text));
        QVERIFY(text.startsWith(QStringLiteral("parameter\tone\ttwo\n")));
        dialog->close();
        // With one run selected the action says why it cannot compare.
        list->clearSelection();
        list->itemForRun(a)->setSelected(true);
        QTimer::singleShot(0, this, [&] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            QVERIFY(menu);
            for (QAction* act : menu->actions())
                if (act->text().startsWith(QStringLiteral("Compare configs"))) enabled = act->isEnabled();
            menu->close();
        });
        emit list->customContextMenuRequested(list->visualItemRect(list->itemForRun(a)).center());
        QVERIFY(!enabled);
    }

    // The Run menu's "Compare configs…" of the window does the same.
    void compareConfigsFromTheRunMenu() {
        LaunchOptions o;
        o.persistSettings = false;
        MainWindow w(o);
        w.resize(1024, 768);
        w.show();
        const int a = addRun(*w.store(), "one", config({{"lr", "0.25"}}), [](int) { return 1.0; });
        const int b = addRun(*w.store(), "two", config({{"optimizer", "sgd"}}), [](int) { return 1.0; });
        w.runList()->itemForRun(a)->setSelected(true);
        w.runList()->itemForRun(b)->setSelected(true);
        QAction* act = w.findChild<QAction*>(QStringLiteral("compareConfigs"));
        QVERIFY(act);
        act->trigger();
        auto* dialog = w.findChild<ConfigDiffDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->rows().size(), std::size_t(3));  // seed, optimiser, step size
        dialog->close();
    }

    // x: wall time draws every chart against each run's seconds, axis title and crosshair too.
    void wallTimeAxis() {
        RunStore store;
        ChartArea area(&store);
        area.resize(1000, 700);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        addRun(store, "fast", ade::Config(), [](int i) { return 1.0 / (i + 1); }, 101, 0.01);
        addRun(store, "slow", ade::Config(), [](int i) { return 1.0 / (i + 1); }, 101, 0.1);
        area.refresh(true);
        ChartPanel* p = area.panel(QStringLiteral("loss"));
        QVERIFY(p);
        auto* view = p->findChild<QChartView*>();
        QChart* chart = view->chart();
        auto xAxis = [&] { return qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0)); };
        QCOMPARE(xAxis()->titleText(), QStringLiteral("iteration"));
        QCOMPARE(xAxis()->max(), 100.0);

        auto* combo = area.findChild<QComboBox*>(QStringLiteral("xAxis"));
        QVERIFY(combo);
        combo->setCurrentIndex(combo->findText(QStringLiteral("wall time")));
        QVERIFY(area.wallTimeX());
        QVERIFY(xAxis());
        QCOMPARE(xAxis()->titleText(), QStringLiteral("wall time (s)"));
        QVERIFY2(xAxis()->max() >= 10.0 && xAxis()->max() < 20.0, qPrintable(QString::number(xAxis()->max())));
        double maxX = 0;
        for (const auto& [key, l] : adetest::lineLayerOf(chart)->lines())
            for (const QPointF& pt : l.points)
                maxX = std::max(maxX, pt.x());
        QVERIFY2(maxX > 9.9 && maxX < 10.1, qPrintable(QString::number(maxX)));  // seconds

        // Hover: every run's value at one wall time, and the iteration each one reached.
        QTest::mouseMove(view->viewport(), view->mapFromScene(chart->plotArea().center()));
        QTRY_VERIFY_WITH_TIMEOUT(!p->crosshairText().isEmpty(), kRunWaitMs);
        const QString text = p->crosshairText();
        QVERIFY2(text.contains(QStringLiteral("wall time")) && text.contains(QStringLiteral("(iteration 100)")) &&
                     text.contains(QStringLiteral("slow")),
                 qPrintable(text));

        area.setWallTimeX(false);
        QCOMPARE(xAxis()->titleText(), QStringLiteral("iteration"));
        QCOMPARE(xAxis()->max(), 100.0);
    }

    // The crosshair's header names the iteration under the pointer, not the end of a short run
    // (the record nearest the pointer over all curves); a run that ended before it says so.
    void crosshairNamesThePointersIteration() {
        RunStore store;
        ChartArea area(&store);
        area.resize(1000, 700);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        addRun(store, "long", ade::Config(), [](int i) { return 1.0 / (i + 1); }, 101);
        addRun(store, "short", ade::Config(), [](int i) { return 1.0 / (i + 1); }, 21);
        area.refresh(true);
        ChartPanel* p = area.panel(QStringLiteral("loss"));
        QVERIFY(p);
        auto* view = p->findChild<QChartView*>();
        QChart* chart = view->chart();
        QLineSeries* domain = qobject_cast<QLineSeries*>(chart->series().value(0));  // the axes'
        QVERIFY(domain);
        const QPointF at = chart->mapToPosition(QPointF(60, 0.5), domain);
        QTest::mouseMove(view->viewport(), view->mapFromScene(QPointF(at.x(), chart->plotArea().center().y())));
        QTRY_VERIFY_WITH_TIMEOUT(!p->crosshairText().isEmpty(), kRunWaitMs);
        const QString text = p->crosshairText();
        const QRegularExpression header(QStringLiteral("<b>iteration (\\d+)</b>"));
        const auto m = header.match(text);
        QVERIFY2(m.hasMatch(), qPrintable(text));
        const int shown = m.captured(1).toInt();
        QVERIFY2(shown >= 55 && shown <= 65, qPrintable(text));  // under the pointer, not 20
        QVERIFY2(text.contains(QStringLiteral("(ended at iteration 20)")), qPrintable(text));
    }

    void wallTimeIsRemembered() {
        QStandardPaths::setTestModeEnabled(true);  // QSettings under ~/.qttest, not the user's
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-test"));
        QCoreApplication::setApplicationName(QStringLiteral("ui_compare"));
        QSettings().clear();
        LaunchOptions o;
        o.persistSettings = true;
        {
            MainWindow w(o);
            QVERIFY(!w.charts()->wallTimeX());
            w.charts()->setWallTimeX(true);
            QVERIFY(w.close());
        }
        {
            MainWindow again(o);
            QVERIFY(again.charts()->wallTimeX());
        }
        QSettings().clear();
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
