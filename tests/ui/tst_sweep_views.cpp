// The sweep views on results built here (ConfigResult vectors, as core's aggregateConfigs gives):
// a one-key sweep keeps λ = 0 on a linear axis with no fit, the scaling look appears only when
// asked for with >= 3 positive points, the heatmap frames the best mean (lowest or highest), the
// parallel coordinates draw one polyline per config, every view exports PNG / SVG / PDF, the
// table has one row per config and its CSV too.
#include <QDir>
#include <QPainter>
#include <QTemporaryDir>
#include <QHeaderView>
#include <QTest>

#include <cmath>

#include "ReadFile.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepLinePlot.h"
#include "sweep/SweepParallel.h"
#include "sweep/SweepTable.h"
#include "Waits.h"

using namespace ade::ui;

namespace {

ade::ConfigResult config(std::vector<std::pair<std::string, std::string>> values,
                         std::vector<double> perSeed, std::string label = "gd") {
    ade::ConfigResult c;
    c.label = std::move(label);
    c.values = std::move(values);
    c.perSeed = perSeed;
    c.seedsDone = static_cast<int>(perSeed.size());
    double m = 0;
    for (double v : perSeed)
        m += v;
    c.mean = perSeed.empty() ? NAN : m / perSeed.size();
    double s = 0;
    for (double v : perSeed)
        s += (v - c.mean) * (v - c.mean);
    c.sd = perSeed.size() > 1 ? std::sqrt(s / (perSeed.size() - 1)) : 0.0;
    for (std::size_t k = 0; k < perSeed.size(); ++k)
        c.runNames.push_back(c.label + "_seed" + std::to_string(k + 1));
    return c;
}

SweepResults oneKey(const std::string& key, const std::vector<std::string>& xs,
                    const std::vector<double>& ys, bool fit) {
    SweepResults r;
    r.keys = {key};
    r.metric = QStringLiteral("test_loss");
    r.metricLabel = QStringLiteral("test loss (floor)");
    r.fit = fit;
    for (std::size_t i = 0; i < xs.size(); ++i)
        r.configs.push_back(config({{key, xs[i]}}, {ys[i] * 0.9, ys[i] * 1.1}));
    return r;
}

// A 3 × 4 grid of lr × lambda whose means are (i + 1) * (j + 2) / 10, seed spread 10%.
SweepResults twoKeys(bool lowerIsBetter) {
    SweepResults r;
    r.keys = {"lr", "lambda"};
    r.metric = QStringLiteral("test_loss");
    r.metricLabel = QStringLiteral("test loss (floor)");
    r.lowerIsBetter = lowerIsBetter;
    const std::vector<std::string> lrs = {"0.01", "0.1", "1"};
    const std::vector<std::string> lambdas = {"0", "0.001", "0.01", "0.1"};
    for (std::size_t i = 0; i < lrs.size(); ++i)
        for (std::size_t j = 0; j < lambdas.size(); ++j) {
            const double m = (i + 1.0) * (j + 2.0) / 10.0;
            r.configs.push_back(config({{"lr", lrs[i]}, {"lambda", lambdas[j]}}, {m * 0.9, m * 1.1}));
        }
    return r;
}

}  // namespace

class TestSweepViews : public QObject {
    Q_OBJECT

  private slots:
    void lambdaZeroIsKeptOnALinearAxis() {
        SweepLinePlot plot;
        plot.resize(800, 500);
        // Even a design asking for a fit: λ = 0 has no logarithm, so no fit and no slopes.
        plot.setResults(oneKey("lambda", {"0", "0.1", "1"}, {0.3, 0.2, 0.5}, true));
        QCOMPARE(plot.xCount(), 3);
        QCOMPARE(plot.drawnCount(), 3);
        QVERIFY(!plot.logX());
        QVERIFY(!plot.fitted());
        QCOMPARE(plot.referenceSlopes(), 0);
        QVERIFY2(plot.note().contains(QStringLiteral("linear")), qPrintable(plot.note()));
        QVERIFY2(plot.note().contains(QStringLiteral("no power-law fit")), qPrintable(plot.note()));
        // The same sweep without a fit asked for says nothing about a fit.
        plot.setResults(oneKey("lambda", {"0", "0.1", "1"}, {0.3, 0.2, 0.5}, false));
        QVERIFY(!plot.note().contains(QStringLiteral("fit")));
        QVERIFY(plot.note().contains(QStringLiteral("linear")));
        // Hovering the λ = 0 point finds its config (it is drawn, inside the plot).
        const QRectF area(0, 0, 800, 500);
        bool found = false;
        for (int x = 0; x < 800 && !found; x += 2)
            for (int y = 0; y < 500 && !found; y += 2)
                found = plot.configAt(QPointF(x, y), area) == 0;
        QVERIFY(found);
    }

    void scalingLookOnlyWithAFitAndThreePoints() {
        SweepLinePlot plot;
        // y = 3 n^-1 exactly: slope -1, R² 1.
        std::vector<std::string> ns = {"8", "16", "32", "64"};
        std::vector<double> ys;
        for (const auto& n : ns)
            ys.push_back(3.0 / std::stod(n));
        plot.setResults(oneKey("data.n", ns, ys, true));
        QVERIFY(plot.fitted());
        QVERIFY(plot.logX() && plot.logY());
        QCOMPARE(plot.referenceSlopes(), 2);
        QCOMPARE(plot.fits().size(), std::size_t(1));
        QVERIFY(std::abs(plot.fits().front().slope + 1.0) < 1e-9);
        QVERIFY(plot.fits().front().r2 > 0.999);
        // Two points: never a "fit" with R² = 1.
        plot.setResults(oneKey("data.n", {"8", "16"}, {0.3, 0.2}, true));
        QVERIFY(!plot.fitted());
        QCOMPARE(plot.referenceSlopes(), 0);
        // Positive values over 10x without a fit asked for: log x, no slopes.
        plot.setResults(oneKey("lr", {"0.001", "0.01", "0.1"}, {0.3, 0.2, 0.5}, false));
        QVERIFY(plot.logX());
        QVERIFY(!plot.fitted());
    }

    void heatmapMarksTheBestMean() {
        SweepHeatmap map;
        map.resize(900, 600);
        for (bool lower : {true, false}) {
            const SweepResults r = twoKeys(lower);
            map.setResults(r);
            QCOMPARE(map.columns(), 3);
            QCOMPARE(map.rows(), 4);
            QCOMPARE(map.drawnCount(), 12);
            double want = lower ? INFINITY : -INFINITY;
            for (const auto& c : r.configs)
                want = lower ? std::min(want, c.mean) : std::max(want, c.mean);
            const int best = map.markedBest();
            QVERIFY(best >= 0);
            QCOMPARE(r.configs[best].mean, want);
            // lower: lr 0.01, λ = 0 (column 0, row 0); higher: lr 1, λ = 0.1 (column 2, row 3).
            QCOMPARE(map.cell(lower ? 0 : 2, lower ? 0 : 3), best);
        }
        // The values are printed when the cells are large enough.
        map.setResults(twoKeys(true));
        QImage image(900, 600, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        map.paintChart(p, QRectF(0, 0, 900, 600));
        p.end();
        QVERIFY(map.valuesShown());
        // Hover text: the value ± sd.
        QVERIFY(map.hoverText(0).contains(QStringLiteral("±")));
    }

    // Successive halving: the best config is the survivor at the largest budget, never a
    // config stopped at an earlier rung whose value (at a smaller budget) looks better; the
    // table's bold row, "Apply to form" and the heatmap's mark all read best().
    void bestIsRankedAtEqualBudget() {
        SweepResults r = oneKey("lr", {"0.1", "0.2", "0.3"}, {0.01, 0.5, 0.02}, false);
        QCOMPARE(r.best(), 0);  // one budget: the lowest mean
        r.configs[0].iterations = 6667;  // stopped at rung 1 (the lowest mean, 0.01)
        r.configs[2].iterations = 6667;
        r.configs[1].iterations = 20000;  // the survivor (mean 0.5)
        QCOMPARE(r.best(), 1);
        // At the largest budget a diverged seed does not hand the win to an earlier rung.
        r.configs[1].seedsFailed = 1;
        QCOMPARE(r.best(), 1);
        // Without a value at the largest budget the best is the best of the next rung.
        r.configs[1].mean = NAN;
        QCOMPARE(r.best(), 0);
        r.lowerIsBetter = false;
        QCOMPARE(r.best(), 2);
    }

    void parallelCoordinatesDrawOneLinePerConfig() {
        SweepResults r = twoKeys(true);
        r.keys.push_back("optimizer");
        for (std::size_t i = 0; i < r.configs.size(); ++i)
            r.configs[i].values.emplace_back("optimizer", i % 2 ? "sgd" : "gd");
        r.configs.push_back(config({{"lr", "0.5"}, {"lambda", "0"}, {"optimizer", "gd"}}, {}));
        SweepParallel par;
        par.resize(1000, 600);
        par.setResults(r);
        QCOMPARE(par.axisCount(), 4);
        QCOMPARE(par.drawnCount(), static_cast<int>(r.configs.size()));
        const QRectF area(0, 0, 1000, 600);
        for (int i = 0; i + 1 < static_cast<int>(r.configs.size()); ++i)
            QCOMPARE(par.polyline(i, area).size(), 4);  // three keys and the metric
        // A config with no finished seed: a line through its keys only.
        QCOMPARE(par.polyline(static_cast<int>(r.configs.size()) - 1, area).size(), 3);
        // Clicking on a line's point picks that config.
        const QPointF onBest = par.polyline(r.best(), area)[3];
        QCOMPARE(par.configAt(onBest, area), r.best());
    }

    void everyViewExportsAndTheTableHasOneRowPerConfig() {
        QTemporaryDir tmp;
        // ADE_SWEEP_SHOTS=DIR keeps the exported files there (to look at them).
        const QString keep = qEnvironmentVariable("ADE_SWEEP_SHOTS");
        const QDir dir(keep.isEmpty() ? tmp.path() : keep);
        SweepLinePlot plot;
        plot.setResults(oneKey("lambda", {"0", "0.1", "1"}, {0.3, 0.2, 0.5}, false));
        SweepHeatmap map;
        map.setResults(twoKeys(true));
        SweepResults three = twoKeys(true);
        three.keys.push_back("batch");
        for (auto& c : three.configs)
            c.values.emplace_back("batch", "8");
        SweepParallel par;
        par.setResults(three);
        const std::vector<std::pair<QString, SweepChart*>> views = {
            {"line", &plot}, {"heatmap", &map}, {"parallel", &par}};
        for (const auto& [name, view] : views)
            for (auto [format, suffix] :
                 {std::pair{FigureFormat::Png, "png"}, std::pair{FigureFormat::Svg, "svg"},
                  std::pair{FigureFormat::Pdf, "pdf"}}) {
                const QString path = dir.filePath(name + "." + suffix);
                QString error;
                QVERIFY2(view->exportTo(format, path, {1000, 700}, &error), qPrintable(error));
                const QByteArray bytes = adetest::readBytes(path);
                QVERIFY2(bytes.size() > 1000, qPrintable(path));
                if (format == FigureFormat::Png) QVERIFY(bytes.startsWith("\x89PNG"));
                if (format == FigureFormat::Svg) QVERIFY(bytes.contains("<svg"));
                if (format == FigureFormat::Pdf) QVERIFY(bytes.startsWith("%PDF"));
            }
        // The table: one row per config, best first; the CSV: a header and one line per config.
        SweepTable table;
        table.setResults(three);
        QCOMPARE(table.rowCount(), static_cast<int>(three.configs.size()));
        QCOMPARE(table.configOfRow(0), three.best());
        const QStringList lines = resultsCsv(three).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), static_cast<int>(three.configs.size()) + 1);
        QVERIFY(lines.front().startsWith(QStringLiteral("lr,lambda,batch,label,mean,sd")));
        QVERIFY(lines[1].startsWith(QStringLiteral("0.01,0,8,gd,")));
    }

    // Issue 30, item 14: at 1024x768 the table showed one or two rows and cut "mean ± sd":
    // it keeps room for SweepTable::kMinRows rows, and the objective's column is never narrower
    // than its contents (the table scrolls sideways instead), however narrow the table.
    void tableKeepsItsRowsAndTheObjectiveColumn() {
        SweepResults three = twoKeys(true);
        three.keys.push_back("batch");
        three.halving = true;
        for (auto& c : three.configs) {
            c.values.emplace_back("batch", "8");
            c.mean *= 1.000123456;  // long numbers
        }
        SweepTable table;
        table.setResults(three);
        table.resize(420, 200);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        const int mean = static_cast<int>(three.keys.size());
        QCOMPARE(table.horizontalHeaderItem(mean)->text(), QStringLiteral("mean ± sd"));
        int need = table.horizontalHeader()->sectionSizeHint(mean);
        for (int r = 0; r < table.rowCount(); ++r) {
            const QTableWidgetItem* it = table.item(r, mean);
            need = std::max(need, QFontMetrics(it->font()).horizontalAdvance(it->text()));
        }
        QVERIFY2(table.columnWidth(mean) >= need,
                 qPrintable(QStringLiteral("%1 < %2").arg(table.columnWidth(mean)).arg(need)));
        QVERIFY(table.minimumSizeHint().height() >=
                table.horizontalHeader()->height() +
                    SweepTable::kMinRows * table.rowHeight(0));
        // Wide, the objective's column takes the room left.
        table.resize(1400, 300);
        QTRY_VERIFY_WITH_TIMEOUT(table.columnWidth(mean) > need, kRunWaitMs);
        int total = 0;
        for (int c = 0; c < table.columnCount(); ++c)
            total += table.columnWidth(c);
        QCOMPARE(total, table.viewport()->width());
    }
};

QTEST_MAIN(TestSweepViews)
#include "tst_sweep_views.moc"
