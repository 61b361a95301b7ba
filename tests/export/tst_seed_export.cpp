// Exports carry seeds as an axis (issue 14, item 3): the CSV export writes each group's mean,
// sd, min and max per metric with comment lines saying what they are; an exported figure draws
// the group's band under its mean and says which band in its own legend, whose line samples
// are long enough to tell solid from dashed (issue 13, item 15), and runs past the eighth
// colour keep their line style and marker (issue 13, item 12).
#include <QAreaSeries>
#include <QChart>
#include <QFile>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

#include "Configs.h"
#include "Process.h"
#include "output/Session.h"
#include "export/DataExport.h"
#include "charts/FigureLegend.h"
#include "charts/FigureRenderer.h"
#include "runs/RunStore.h"
#include "runs/SeedGroups.h"
#include "runs/SessionBridge.h"
#include "base/Palette.h"

using namespace ade::ui;

namespace {

// Seed k of `group`: train loss (k + 1)(i + 1), n records.
int addSeed(RunStore& s, const QString& group, int k, int n) {
    const int id = s.addRun(group + QStringLiteral("_seed%1").arg(k + 1),
                            adetest::tinyA(100, {{"seed", std::to_string(k + 1)}}), group, k);
    s.setColumns(id, {"iteration", "train_loss"});
    std::vector<std::vector<double>> rows;
    for (int i = 0; i < n; ++i)
        rows.push_back({double(10 * i), (k + 1.0) * (i + 1)});
    s.appendRows(id, rows);
    s.setState(id, RunState::Completed);
    return id;
}

FigureLegendItem* legendOf(QChart* chart) {
    for (QGraphicsItem* i : chart->childItems())
        if (auto* l = dynamic_cast<FigureLegendItem*>(i)) return l;
    return nullptr;
}

}  // namespace

class TestSeedExport : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void csvHasTheBandColumns() {
        RunStore s;
        for (int k = 0; k < 3; ++k)
            addSeed(s, "none", k, 4);
        QString error;
        const QStringList files = exportRunsCsv(s.visibleRuns(), tmp.path(), {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(files.size(), 4);  // the group's table and each seed's
        QVERIFY(files.front().endsWith(QStringLiteral("none_seeds.csv")));
        QFile f(files.front());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines[0].startsWith(QStringLiteral("# group none: mean, sd, min and max over 3 seeds")),
                 qPrintable(lines[0]));
        QVERIFY(lines.filter(QStringLiteral("# config without its seed")).size() == 1);
        QVERIFY(lines.filter(QStringLiteral("# train_loss_mean: mean over seeds of")).size() == 1);
        QVERIFY(lines.filter(QStringLiteral("# train_loss_sd: sample standard deviation")).size() == 1);
        const QStringList data = lines.filter(QRegularExpression(QStringLiteral("^[^#]")));
        QCOMPARE(data[0], QStringLiteral("iteration,seeds,train_loss_mean,train_loss_sd,"
                                         "train_loss_min,train_loss_max"));
        QCOMPARE(data.size(), 5);
        // Record 3: values 4, 8, 12.
        const QStringList row = data[4].split(',');
        QCOMPARE(row[0], QStringLiteral("30"));
        QCOMPARE(row[1].toDouble(), 3.0);
        QCOMPARE(row[2].toDouble(), 8.0);
        QCOMPARE(row[3].toDouble(), 4.0);
        QCOMPARE(row[4].toDouble(), 4.0);
        QCOMPARE(row[5].toDouble(), 12.0);
        // An x range keeps only its records.
        const std::string inRange = groupCsv(seedGroups(s.visibleRuns()).front(), {10, 20});
        QCOMPARE(QString::fromStdString(inRange).count(QRegularExpression(QStringLiteral("^[12]0,3,"),
                                                                           QRegularExpression::MultilineOption)),
                 2);
    }

    void figureDrawsTheBandAndSaysWhichInItsLegend() {
        RunStore s;
        for (int k = 0; k < 3; ++k)
            addSeed(s, "none", k, 4);
        addSeed(s, "power", 0, 4);
        FigureOptions o;
        o.size = QSize(1000, 600);
        auto chart = buildFigureChart(chartSpec(std::string("loss")), s, o);
        QVERIFY(chart);
        int areas = 0;
        for (QAbstractSeries* x : chart->series())
            if (auto* a = qobject_cast<QAreaSeries*>(x)) {
                ++areas;
                double hi = 0;
                for (const QPointF& p : a->upperSeries()->points())
                    hi = std::max(hi, p.y());
                QCOMPARE(hi, std::log10(12.0));  // axis units: log10 on a log axis
            }
        QCOMPARE(areas, 1);
        QVERIFY(!chart->legend()->isVisible());  // the figure's own legend instead
        FigureLegendItem* legend = legendOf(chart.get());
        QVERIFY(legend);
        QCOMPARE(legend->entries().size(), std::size_t(3));  // two curves and the note
        QVERIFY2(legend->entries()[0].label.startsWith(QStringLiteral("none (3 seeds) · ")),
                 qPrintable(legend->entries()[0].label));
        QVERIFY(legend->entries()[0].band.style() != Qt::NoBrush);
        QCOMPARE(legend->entries()[1].band.style(), Qt::NoBrush);
        QCOMPARE(legend->entries()[2].label, QStringLiteral("lines: mean over seeds; bands: min–max"));
        QCOMPARE(legend->entries()[2].pen.style(), Qt::NoPen);
        // Long samples: four label heights, so a dash pattern repeats several times.
        const double h = QFontMetricsF(chart->legend()->font()).height();
        QVERIFY(legend->sampleLength() >= 3 * h);
        // Every seed drawn on its own when bands are off.
        o.seedBands = false;
        auto separate = buildFigureChart(chartSpec(std::string("loss")), s, o);
        QCOMPARE(legendOf(separate.get())->entries().size(), std::size_t(4));
        // A PNG renders with the legend.
        QString error;
        o.seedBands = true;
        QVERIFY2(renderFigure(chartSpec(std::string("loss")), s, o, FigureFormat::Png,
                              tmp.filePath("bands.png"), &error),
                 qPrintable(error));
    }

    // The CLI keeps the seeds of a comparison together in its session file, so the window and
    // `figure --session` draw them as one curve with a band.
    void cliSessionKeepsTheSeedsGroups() {
        const QString out = tmp.filePath(QStringLiteral("cli"));
        const testproc::ProcessResult r = testproc::runCli(
            {"run", "--preset", "a-spectral-vs-random", "--seeds", "2", "--set", "iterations=20",
             "--set", "data.n=16", "--set", "data.prompts=4", "--quiet", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto read = ade::readSessionFile((out + QStringLiteral("/session.json")).toStdString());
        QVERIFY2(read.session, read.error.c_str());
        QCOMPARE(read.session->runs.size(), std::size_t(6));  // 3 runs × 2 seeds
        for (const ade::SessionRun& run : read.session->runs)
            QVERIFY2(!run.group.empty(), run.name.c_str());
        RunStore s;
        addSessionToStore(*read.session, s);
        const auto groups = seedGroups(s.visibleRuns());
        QCOMPARE(groups.size(), std::size_t(3));
        QCOMPARE(groups[0].members.size(), std::size_t(2));
        QCOMPARE(groups[0].members[1]->seedIndex, 1);
    }

    void runsPastTheEighthKeepStyleAndMarkerInFigures() {
        RunStore s;
        for (int i = 0; i < paletteSize() + 1; ++i)
            addSeed(s, QStringLiteral("r%1").arg(i), 0, 5);
        auto chart = buildFigureChart(chartSpec(std::string("loss")), s, FigureOptions());
        QVERIFY(chart);
        int scatters = 0;
        Qt::PenStyle past = Qt::SolidLine;
        const QString name = QStringLiteral("r%1").arg(paletteSize());
        for (QAbstractSeries* x : chart->series()) {
            if (auto* m = qobject_cast<QScatterSeries*>(x)) {
                ++scatters;
                QCOMPARE(m->markerShape(), QScatterSeries::MarkerShapeCircle);
            } else if (auto* l = qobject_cast<QLineSeries*>(x); l && l->name().startsWith(name)) {
                past = l->pen().style();
            }
        }
        QCOMPARE(scatters, 1);  // print keeps a marker as its cue past the palette
        QCOMPARE(past, runPenStyle(paletteSize()));
        const auto& entries = legendOf(chart.get())->entries();
        QCOMPARE(entries.back().marker, static_cast<int>(RunMarker::Circle));
        QCOMPARE(entries.back().pen.style(), runPenStyle(paletteSize()));
    }
};

QTEST_MAIN(TestSeedExport)
#include "tst_seed_export.moc"
