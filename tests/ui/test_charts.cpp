// Decimation, smoothing and the run store: the data path from records to drawn points.
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

#include "ChartArea.h"
#include "RunStore.h"
#include "charts/ChartPanel.h"
#include "charts/SymLog.h"
#include "charts/Decimate.h"

using namespace ade::ui;

class TestCharts : public QObject {
    Q_OBJECT
  private slots:
    void decimateKeepsExtremesAndBoundsPoints() {
        std::vector<double> x(100000), y(100000);
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = static_cast<double>(i);
            y[i] = std::sin(i * 0.01);
        }
        y[54321] = 50.0;  // a single spike must survive
        y[77777] = -50.0;
        DecimateRequest r;
        r.x0 = 0;
        r.x1 = 99999;
        r.pixels = 500;
        const auto pts = decimate(x, y, r);
        QVERIFY(pts.size() <= 2 * 500 + 4);
        QVERIFY(pts.size() >= 500);
        double hi = -1e9, lo = 1e9;
        for (const auto& p : pts)
            hi = std::max(hi, p.y()), lo = std::min(lo, p.y());
        QCOMPARE(hi, 50.0);
        QCOMPARE(lo, -50.0);
        for (int i = 1; i < pts.size(); ++i)
            QVERIFY(pts[i].x() >= pts[i - 1].x());
    }
    void decimateClampsForLogAndSkipsNonFinite() {
        const std::vector<double> x = {0, 1, 2, 3, 4};
        const std::vector<double> y = {1.0, 0.0, -2.0, NAN, 1e-3};
        DecimateRequest r;
        r.x0 = 0;
        r.x1 = 4;
        r.logY = true;
        r.yFloor = 1e-6;
        const auto pts = decimate(x, y, r);
        QCOMPARE(pts.size(), 4);  // NaN dropped
        for (const auto& p : pts)
            QVERIFY(p.y() >= 1e-6);
        r.logX = true;  // x = 0 cannot be drawn on a log axis
        QCOMPARE(decimate(x, y, r).front().x(), 1.0);
    }
    void emaIsIncrementalAndDebiased() {
        std::vector<double> y = {2, 2, 2, 4, 4};
        std::vector<double> whole, parts;
        EmaState a, b;
        extendEma(y, 0.6, whole, a);
        std::vector<double> head(y.begin(), y.begin() + 3);
        extendEma(head, 0.6, parts, b);
        extendEma(y, 0.6, parts, b);
        QCOMPARE(whole.size(), y.size());
        for (std::size_t i = 0; i < y.size(); ++i)
            QCOMPARE(parts[i], whole[i]);
        QCOMPARE(whole[0], 2.0);  // debiased: no pull towards zero
        QVERIFY(whole[4] > 2.0 && whole[4] < 4.0);
    }
    void storeAppendsColumnMajorAndExportsHistory() {
        RunStore store;
        QSignalSpy added(&store, &RunStore::runAdded);
        const int id = store.addRun(QStringLiteral("r"), ade::Config());
        QCOMPARE(added.count(), 1);
        store.setColumns(id, {"iteration", "time_s", "train_loss"});
        store.appendRows(id, {{0, 0.0, 1.0}, {1, 0.1, 0.5}});
        const RunRecord* r = store.run(id);
        QCOMPARE(r->size(), std::size_t(2));
        QCOMPARE(r->last("train_loss"), 0.5);
        const auto h = r->history();
        QCOMPARE(h.rows.size(), std::size_t(2));
        QCOMPARE(h.rows[1][2], 0.5);
        QCOMPARE(store.addRun(QStringLiteral("r"), ade::Config()), id + 1);
        QCOMPARE(store.run(id + 1)->name, QStringLiteral("r (2)"));
    }
    void chartPanelDrawsStoreData() {
        RunStore store;
        const int id = store.addRun(QStringLiteral("r"), ade::Config());
        store.setColumns(id, {"iteration", "time_s", "train_loss", "excess_risk", "norm_A"});
        std::vector<std::vector<double>> rows;
        for (int i = 0; i < 5000; ++i)
            rows.push_back({double(i), 0.0, 1.0 / (i + 1), 0.0 /* clamped on log */, 1.0});
        store.appendRows(id, rows);
        std::unique_ptr<ChartPanel> loss(createChartPanel(chartSpec(std::string("loss"))));
        loss->resize(600, 400);
        loss->refresh(store);
        // Series read as phrases from the metric descriptions, not column names.
        QCOMPARE(loss->seriesNames(),
                 QStringList({"excess risk E(θ) (n → ∞)", "train loss L_n(θ)"}));
        QVERIFY(loss->drawnPoints() > 0);
        QVERIFY(loss->drawnPoints() < 2 * 5000);  // decimated
        loss->setSeriesHidden(QStringLiteral("train loss L_n(θ)"), true);
        QVERIFY(loss->drawnPoints() > 0);
    }

    // The chart grid follows the experiments' descriptions: the form's experiment's default
    // charts, another experiment's arrive with its runs, View > Charts adds and removes.
    void chartAreaFollowsTheDescriptions() {
        RunStore store;
        ChartArea area(&store);
        area.resize(1000, 700);
        auto ids = [&] {
            QStringList out;
            for (ChartPanel* p : area.panels())
                out << p->spec().id;
            return out;
        };
        area.setExperiment("a");
        QCOMPARE(ids(), QStringList({"loss", "manifold", "imbalance", "norms"}));
        QCOMPARE(area.panel("loss")->spec().title, QStringLiteral("Loss and excess risk"));
        QCOMPARE(area.panel("norms")->options().logY, false);  // weight norms: linear
        QCOMPARE(area.panel("loss")->options().logY, true);
        area.setExperiment("b");
        QCOMPARE(ids(), QStringList({"loss", "norms", "manifold", "gap"}));
        QCOMPARE(area.panel("loss")->spec().title, QStringLiteral("Loss"));  // B's version
        QCOMPARE(area.panel("gap")->options().logY, false);  // signed: never log
        // A run of another experiment brings its charts; a chart both have keeps the form's
        // experiment's choice (B hides the imbalance chart by default, A shows it). A column
        // no description knows gets a chart of its own.
        ade::Config a;
        a.setText("experiment", "a");
        const int id = store.addRun(QStringLiteral("a run"), a);
        store.setColumns(id, {"iteration", "time_s", "train_loss", "imbalance", "future_metric"});
        area.refresh(true);
        QCOMPARE(ids().join(","), QStringLiteral("loss,norms,manifold,gap,column:future_metric"));
        QCOMPARE(area.panel("column:future_metric")->options().logY, false);
        // View > Charts lists every chart, shown or not; unticking one removes it.
        QMenu* menu = area.chartsMenu();
        QMetaObject::invokeMethod(menu, "aboutToShow");
        QStringList offered;
        for (QAction* act : menu->actions())
            if (act->isCheckable()) offered << act->objectName();
        QVERIFY(offered.contains("showChart.villani"));
        QVERIFY(offered.contains("showChart.step"));
        area.setChartShown("gap", false);
        QVERIFY(!ids().contains("gap"));
        area.setChartShown("villani", true);
        QVERIFY(ids().contains("villani"));
        area.restoreDefaultCharts();
        QVERIFY(ids().contains("gap") && !ids().contains("villani"));
        for (const QString& id : ids())
            QVERIFY(id != "other");  // no grab-bag chart
    }

    // A signed quantity over many decades reads on a symmetric-log axis labelled in its values.
    void symLogAxisShowsBothSignsOverDecades() {
        QCOMPARE(symLog(0.0), 0.0);
        QCOMPARE(symLog(-9.0), -1.0);
        QVERIFY(std::abs(symLog(1e6) - 6.0) < 1e-6);
        RunStore store;
        ade::Config b;
        b.setText("experiment", "b");
        const int id = store.addRun(QStringLiteral("r"), b);
        store.setColumns(id, {"iteration", "time_s", "villani"});
        std::vector<std::vector<double>> rows;
        for (int i = 0; i < 400; ++i)
            rows.push_back({double(i), 0.0, (i % 2 ? -1.0 : 1.0) * std::pow(10.0, (i % 9) - 2)});
        store.appendRows(id, rows);
        std::unique_ptr<ChartPanel> p(createChartPanel(chartSpec(std::string("villani"))));
        p->resize(600, 400);
        ChartOptions o = p->options();
        o.logY = false;
        o.symLogY = true;
        p->setOptions(o);
        p->refresh(store, true);
        QVERIFY(p->drawnPoints() > 0);
        QChart* chart = p->findChild<QChartView*>()->chart();
        auto* axis = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(axis);
        const QStringList labels = axis->categoriesLabels();
        QVERIFY2(labels.contains("0") && labels.contains(QStringLiteral("−10⁶")) &&
                     labels.contains(QStringLiteral("10⁶")),
                 qPrintable(labels.join(' ')));
        QVERIFY(axis->min() < -6 && axis->max() > 6);  // both signs, six decades each way
        double lo = 0, hi = 0;
        for (QAbstractSeries* s : chart->series())
            for (const QPointF& pt : static_cast<QLineSeries*>(s)->points()) {
                lo = std::min(lo, pt.y());
                hi = std::max(hi, pt.y());
            }
        QVERIFY(lo < -5.9 && lo > -6.1 && hi > 5.9 && hi < 6.1);  // drawn transformed
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
