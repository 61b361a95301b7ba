// Decimation, smoothing and the run store: the data path from records to drawn points.
#include <QSignalSpy>
#include <QTest>

#include <cmath>

#include "RunStore.h"
#include "charts/ChartPanel.h"
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
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
