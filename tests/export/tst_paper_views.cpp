// Paper figures of the inside views and the sweep views (issue 32, item 4): matrices, attention,
// factor plane and loss landscape from `attention-explorer-cli figure --panels ... --format
// pgf,mpl` (with a paper's width and type size), the sweep's one-key plot, heatmap and parallel
// coordinates from their export; every .tex \input into a two-column paper compiled by pdflatex,
// every matplotlib script run; the tables checked against the views' own numbers. The CLI's
// paper knobs (--width-cm, --columns, --font-pt) refuse bad values and then write nothing.
#include <QAbstractAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QtTest>

#include <cmath>

#include "Configs.h"
#include "charts/FigureRenderer.h"
#include "inspect/InsideData.h"
#include "inspect/InsideFigurePaper.h"
#include "output/Session.h"
#include "PaperTools.h"
#include "Process.h"
#include "ReadFile.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepLinePlot.h"
#include "sweep/SweepParallel.h"

using namespace ade::ui;
using papertools::keep;
using papertools::pdflatex;
using papertools::python;
using papertools::runIn;

namespace {

const char* const kPanels[] = {"matrices", "attention", "factor-plane", "landscape"};
const char* const kSweepViews[] = {"sweep-one-key", "sweep-heatmap", "sweep-parallel"};

ade::ConfigResult config(std::vector<std::pair<std::string, std::string>> values,
                         std::vector<double> perSeed) {
    ade::ConfigResult c;
    c.label = "gd";
    c.values = std::move(values);
    c.perSeed = perSeed;
    c.seedsDone = static_cast<int>(perSeed.size());
    c.mean = 0;
    for (double v : perSeed)
        c.mean += v / perSeed.size();
    double s = 0;
    for (double v : perSeed)
        s += (v - c.mean) * (v - c.mean);
    c.sd = std::sqrt(s / (perSeed.size() - 1));
    return c;
}

// lr over three decades (a log x axis), lambda over four values, batch fixed: three seeds each.
SweepResults sweepOf(std::vector<std::string> keys) {
    SweepResults r;
    r.keys = keys;
    r.metric = QStringLiteral("test_loss");
    r.metricLabel = QStringLiteral("test loss (floor)");
    const std::vector<std::string> lrs = {"0.001", "0.01", "0.1", "1"};
    const std::vector<std::string> lambdas = {"0", "0.001", "0.01"};
    for (std::size_t i = 0; i < lrs.size(); ++i)
        for (std::size_t j = 0; j < (keys.size() > 1 ? lambdas.size() : 1); ++j) {
            const double m = (i + 1.0) * (j + 2.0) / 10.0;
            std::vector<std::pair<std::string, std::string>> v = {{"lr", lrs[i]}};
            if (keys.size() > 1) v.emplace_back("lambda", lambdas[j]);
            if (keys.size() > 2) v.emplace_back("batch", j % 2 ? "8" : "16");
            r.configs.push_back(config(v, {m * 0.9, m, m * 1.1}));
        }
    return r;
}


QString text(const QString& path) {
    return QString::fromUtf8(adetest::readBytes(path));
}

// The two-column paper: the matrices across the page, every other figure in a column.
const char* const kPaperHead =
    "\\documentclass[twocolumn]{article}\n"
    "\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
    "\\usepackage{pgfplots}\n\\usepgfplotslibrary{fillbetween,groupplots}\n"
    "\\pgfplotsset{compat=1.16}\n\\def\\explorerfigdir{figures/}\n"
    "\\begin{document}\n\\section{Inside the model}\nThe matrices span the page.\n";

}  // namespace

class TestPaperViews : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString figures;  // the CLI's and the sweep views' .tex/.py and their data

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        figures = tmp.filePath(QStringLiteral("paper/figures"));
    }

    // The inside views from the CLI as PGFPlots and matplotlib, a column wide, 9 pt type.
    void cliWritesTheInsideViews() {
        const testproc::ProcessResult r = testproc::runCli(
            {QStringLiteral("figure"), QStringLiteral("--preset"), QStringLiteral("a-same-start"),
             QStringLiteral("--out"), figures, QStringLiteral("--set"), QStringLiteral("iterations=30"),
             QStringLiteral("--set"), QStringLiteral("data.n=16"), QStringLiteral("--set"),
             QStringLiteral("data.prompts=4"), QStringLiteral("--panels"),
             QStringLiteral("charts,matrices,attention,factor-plane,landscape"), QStringLiteral("--grid"),
             QStringLiteral("5"), QStringLiteral("--quiet"), QStringLiteral("--format"),
             QStringLiteral("pgf,mpl,png"), QStringLiteral("--columns"), QStringLiteral("1"),
             QStringLiteral("--font-pt"), QStringLiteral("9")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const char* panel : kPanels)
            for (const char* suffix : {".tex", ".py", ".csv", "-1.dat", ".png"})
                QVERIFY2(QFileInfo::exists(figures + '/' + QLatin1String(panel) + QLatin1String(suffix)),
                         qPrintable(QLatin1String(panel) + QLatin1String(suffix)));
        // A column of a two-column paper: 8.5 cm, in every format.
        QVERIFY(text(figures + QStringLiteral("/matrices.tex")).contains(QStringLiteral("(8.50cm-")));
        QVERIFY(text(figures + QStringLiteral("/matrices.py")).contains(QStringLiteral("SIZE_IN = (3.346")));
        QVERIFY(text(figures + QStringLiteral("/matrices.py")).contains(QStringLiteral("FONT_PT = 9")));
        QVERIFY(text(figures + QStringLiteral("/loss.py")).contains(QStringLiteral("FONT_PT = 9")));
        QCOMPARE(QImage(figures + QStringLiteral("/loss.png")).width(), 4 * pointsOfCm(kOneColumnCm));
        QCOMPARE(QImage(figures + QStringLiteral("/matrices.png")).width(), 4 * pointsOfCm(kOneColumnCm));

        // The heatmaps: the views' colour maps with a colour bar; the factor plane's legend.
        const QString matrices = text(figures + QStringLiteral("/matrices.tex"));
        QVERIFY(matrices.contains(QStringLiteral("matrix plot*")));
        QVERIFY(matrices.contains(QStringLiteral("colormap name=adediverging")));
        QVERIFY(matrices.contains(QStringLiteral("colorbar")));
        QVERIFY(text(figures + QStringLiteral("/attention.tex")).contains(QStringLiteral("colormap name=adesequential")));
        QVERIFY(text(figures + QStringLiteral("/landscape.tex")).contains(QStringLiteral("colormap name=adeviridis")));
        QVERIFY(text(figures + QStringLiteral("/landscape.tex")).contains(QStringLiteral("-path.dat")));
        QVERIFY(text(figures + QStringLiteral("/factor-plane.tex")).contains(QStringLiteral("\\addlegendentry")));
        QVERIFY(text(figures + QStringLiteral("/matrices.py")).contains(QStringLiteral("fig.colorbar")));
        QVERIFY(text(figures + QStringLiteral("/matrices.py")).contains(QStringLiteral("\"#2d004b\"")));  // PuOr's end

        // The tables hold the matrices' entries, every one: the first matrix of the scene the
        // GUI shows for the session the CLI saved.
        const auto read = ade::readSessionFile((figures + QStringLiteral("/session.json")).toStdString());
        QVERIFY(read.session);
        RunStore store;
        addSessionToStore(*read.session, store);
        ProblemCache problems;
        const RunRecord* run = focusRecord(store, 0);
        QVERIFY(run);
        ade::Problem* problem = problems.problemNow(run->config);
        QVERIFY(problem);
        const MatrixScene scene = matrixScene(run, problem, -1, QString());
        QVERIFY(!scene.views.empty());
        const Eigen::MatrixXd& m = scene.views.front().values;
        const QStringList lines = text(figures + QStringLiteral("/matrices-1.dat")).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + int(m.size()));
        QCOMPARE(lines.front(), QStringLiteral("x y v"));
        for (int k = 1; k < lines.size(); ++k) {
            const QStringList f = lines[k].split(' ');
            const int c = f[0].toInt() - 1, row = f[1].toInt() - 1;
            QVERIFY(std::abs(f[2].toDouble() - m(row, c)) <= 1e-9 * std::max(1.0, std::abs(m(row, c))));
        }
        // The CSV of the script: the same entries (row, col, value) for panel 0.
        int cells = 0;
        for (const QString& line : text(figures + QStringLiteral("/matrices.csv")).split('\n', Qt::SkipEmptyParts).mid(1)) {
            const QStringList f = line.split(',');
            if (f[0] != QLatin1String("0")) continue;
            QCOMPARE(f[5].toDouble(), m(f[1].toInt(), f[2].toInt()));
            ++cells;
        }
        QCOMPARE(cells, int(m.size()));
    }

    // A chart a column wide keeps its axis titles and labels whole: its legend's rows are added
    // to the figure's height, the plot keeps room for its y title (Qt elides a longer one).
    void narrowChartKeepsItsTitles() {
        const QImage png(figures + QStringLiteral("/loss.png"));
        const int w = pointsOfCm(kOneColumnCm);
        QCOMPARE(png.width(), 4 * w);
        QVERIFY2(png.height() > 4 * (w * 2 / 3), qPrintable(QString::number(png.height())));
        const auto read = ade::readSessionFile((figures + QStringLiteral("/session.json")).toStdString());
        QVERIFY(read.session);
        RunStore store;
        addSessionToStore(*read.session, store);
        for (const ChartSpec& spec : figureCharts(store)) {
            if (spec.id != QLatin1String("loss") && spec.id != QLatin1String("norms")) continue;
            FigureOptions o;
            applyPaperWidth(o, kOneColumnCm);
            o.logY = spec.scale == ade::AxisScale::Log;
            o.size.setHeight(png.height() / 4);  // the size the export chose for the loss chart
            auto chart = buildFigureChart(spec, store, o);
            QVERIFY(chart);
            QGraphicsScene scene;
            scene.addItem(chart.get());
            chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(o.size)));
            chart->layout()->activate();
            QAbstractAxis* y = chart->axes(Qt::Vertical).front();
            const double title = QFontMetricsF(y->titleFont()).horizontalAdvance(y->titleText());
            QVERIFY2(chart->plotArea().height() > title,
                     qPrintable(spec.id + QStringLiteral(": plot %1 px, y title %2 px")
                                              .arg(chart->plotArea().height()).arg(title)));
            scene.removeItem(chart.get());
        }
    }

    // An exported log axis prints its ticks as the live chart does (Ticks.h: logTicks): over
    // 10⁻⁶ … 1 every label a power, "10⁰" too, never a lone "1" among powers.
    void logTicksAsTheLiveCharts() {
        RunStore s;
        const int id = s.addRun(QStringLiteral("r"), adetest::tinyA(100), QString(), 0);
        s.setColumns(id, {"iteration", "train_loss"});
        std::vector<std::vector<double>> rows;
        for (int i = 0; i < 100; ++i)
            rows.push_back({double(i), std::pow(10.0, -6.0 * i / 99)});
        s.appendRows(id, rows);
        s.setState(id, RunState::Completed);
        FigureOptions o;
        o.logY = true;
        o.size = QSize(1000, 700);
        auto chart = buildFigureChart(chartSpec(std::string("loss")), s, o);
        QVERIFY(chart);
        auto* y = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Vertical).front());
        QVERIFY(y);
        const QStringList labels = y->categoriesLabels();
        QVERIFY2(labels.contains(QString::fromUtf8("10⁰")), qPrintable(labels.join(' ')));
        QVERIFY2(labels.contains(QString::fromUtf8("10⁻⁶")), qPrintable(labels.join(' ')));
        QVERIFY2(!labels.contains(QStringLiteral("1")), qPrintable(labels.join(' ')));
    }

    // A log colour bar ticks at round values (never "10^0.5"): whole powers of ten over
    // decades, 1, 2, 5 times them within about one; the .tex and the script name them.
    void logColourBarsTickAtRoundValues() {
        QFont font;
        font.setPointSizeF(8);
        // The ticks' texts and their mantissas (v / 10^floor(log10 v): 1 for a whole power).
        auto ticks = [&](double lo, double hi, std::vector<double>* mantissas) {
            QStringList out;
            for (const Tick& t : colourScaleTicks(lo, hi, true, 200, font)) {
                const double v = std::pow(10.0, t.value);
                mantissas->push_back(v / std::pow(10.0, std::floor(t.value + 1e-9)));
                out << t.text;
            }
            return out;
        };
        std::vector<double> m;
        const QStringList decades = ticks(2e-4, 30, &m);  // five decades: whole powers only
        QVERIFY2(decades.size() >= 3, qPrintable(decades.join(' ')));
        for (double x : m)
            QVERIFY2(std::abs(x - 1) < 1e-9, qPrintable(decades.join(' ')));
        m.clear();
        const QStringList oneDecade = ticks(0.3, 2.5, &m);  // within a decade: 0.5 1 2
        QVERIFY2(oneDecade.contains(QStringLiteral("0.5")) && oneDecade.contains(QStringLiteral("1")) &&
                     oneDecade.contains(QStringLiteral("2")),
                 qPrintable(oneDecade.join(' ')));
        for (double x : m)
            QVERIFY2(std::abs(x - 1) < 1e-9 || std::abs(x - 2) < 1e-9 || std::abs(x - 5) < 1e-9,
                     qPrintable(oneDecade.join(' ')));
        // The files: the bar's ticks listed, at log10 of round values, as TeX math.
        HeatmapFigure f;
        f.id = QStringLiteral("logbar");
        HeatmapPanel p;
        p.rows = p.cols = 2;
        p.values = {2e-4, 1e-2, 0.5, 30};
        p.colours = HeatmapColours::Viridis;
        p.logColour = true;
        p.lo = 2e-4;
        p.hi = 30;
        f.panels.push_back(p);
        QVERIFY(QDir().mkpath(figures));
        QString error;
        FigureOptions o;
        o.widthCm = kOneColumnCm;
        for (FigureFormat ff : {FigureFormat::Pgf, FigureFormat::Mpl})
            QVERIFY2(writePaperFigure({std::nullopt, f}, o, ff, figures + QStringLiteral("/logbar.") + figureSuffix(ff), &error),
                     qPrintable(error));
        const QString tex = text(figures + QStringLiteral("/logbar.tex"));
        // The bar's ticks (its style's ytick, at log10 of the values): whole powers here.
        const QString bar = tex.mid(tex.indexOf(QStringLiteral("colorbar style=")));
        const qsizetype at = bar.indexOf(QStringLiteral("ytick={"));
        QVERIFY2(at >= 0 && bar.contains(QStringLiteral("yticklabels={")), qPrintable(bar.left(400)));
        const QStringList positions = bar.mid(at + 7, bar.indexOf('}', at) - at - 7).split(',');
        QVERIFY2(positions.size() >= 2, qPrintable(bar.left(400)));
        for (const QString& pos : positions) {
            bool whole = false;
            pos.toInt(&whole);
            QVERIFY2(whole, qPrintable(bar.left(400)));
        }
        QVERIFY(!tex.contains(QStringLiteral("pgfmathprintnumber")));
        const QString py = text(figures + QStringLiteral("/logbar.py"));
        QVERIFY2(py.contains(QStringLiteral("cticks=[0.01, 1]")) || py.contains(QStringLiteral("cticks=[0.001, 0.01")),
                 qPrintable(py.left(4000)));
        QVERIFY(py.contains(QStringLiteral("bar.minorticks_off()")));
    }

    // The sweep views as PGFPlots and matplotlib from their export.
    void sweepViewsExportAsPaperFigures() {
        QVERIFY(QDir().mkpath(figures));
        SweepLinePlot plot;
        plot.setResults(sweepOf({"lr"}));
        SweepHeatmap map;
        map.setResults(sweepOf({"lr", "lambda"}));
        SweepParallel par;
        par.setResults(sweepOf({"lr", "lambda", "batch"}));
        const SweepChart* views[] = {&plot, &map, &par};
        for (int k = 0; k < 3; ++k)
            for (FigureFormat f : {FigureFormat::Pgf, FigureFormat::Mpl}) {
                QString error;
                const QString path = figures + '/' + QLatin1String(kSweepViews[k]) + '.' + figureSuffix(f);
                QVERIFY2(views[k]->exportTo(f, path, {1000, 700}, &error), qPrintable(error));
            }
        // One key: log x (lr spans three decades), the means with their ± sd band over seeds.
        const QString line = text(figures + QStringLiteral("/sweep-one-key.tex"));
        QVERIFY(line.contains(QStringLiteral("xmode=log")));
        QVERIFY(line.contains(QStringLiteral("fill between")));
        const QStringList rows = text(figures + QStringLiteral("/sweep-one-key-1.dat")).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows[0], QStringLiteral("x y lo hi"));
        const ade::ConfigResult& c0 = plot.results().configs.front();
        const QStringList first = rows[1].split(' ');
        QCOMPARE(first[1].toDouble(), c0.mean);
        QVERIFY(std::abs(first[3].toDouble() - (c0.mean + c0.sd)) < 1e-9);
        QVERIFY(text(figures + QStringLiteral("/sweep-one-key.py")).contains(QStringLiteral("XSCALE = \"log\"")));
        // Two keys: every cell's mean; the keys' values name the ticks.
        const QString heat = text(figures + QStringLiteral("/sweep-heatmap.tex"));
        QVERIFY(heat.contains(QStringLiteral("xticklabels={{0.001},{0.01},{0.1},{1}}")));
        QVERIFY(heat.contains(QStringLiteral("colorbar")));
        QCOMPARE(text(figures + QStringLiteral("/sweep-heatmap-1.dat")).count('\n'), 1 + 4 * 3);
        // Parallel coordinates: an axis per key and the metric, a line per config.
        const QString parallel = text(figures + QStringLiteral("/sweep-parallel.tex"));
        QVERIFY(parallel.contains(QStringLiteral("xtick={0,1,2,3}")));
        QVERIFY(parallel.contains(QStringLiteral("best:")));
        QVERIFY(QFileInfo::exists(figures + QStringLiteral("/sweep-parallel-12.dat")));
    }

    // Every figure \input into a two-column paper compiles; every script redraws its figure.
    void paperCompilesAndScriptsRun() {
        QString body;
        for (const char* name : kPanels) {
            const bool wide = QLatin1String(name) == QLatin1String("matrices");
            body += QStringLiteral("\\begin{figure%1}[t]\\centering\n\\input{figures/%2.tex}\n\\caption{%2}\n\\end{figure%1}\n")
                        .arg(wide ? QStringLiteral("*") : QString(), QLatin1String(name));
        }
        for (const char* name : kSweepViews)
            body += QStringLiteral("\\begin{figure}[t]\\centering\n\\input{figures/%1.tex}\n\\caption{%1}\n\\end{figure}\n")
                        .arg(QLatin1String(name));
        const QString paper = tmp.filePath(QStringLiteral("paper"));
        QFile f(paper + QStringLiteral("/paper.tex"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(kPaperHead) + body.toUtf8() + "\\end{document}\n");
        f.close();
        QString out;
        const int rc = pdflatex(paper, &out);
        QVERIFY2(rc == 0, qPrintable(out.right(3000)));
        QVERIFY(QFileInfo(paper + QStringLiteral("/paper.pdf")).size() > 10000);
        keep(paper + QStringLiteral("/paper.pdf"));
        QVERIFY2(runIn(paper, QStringLiteral("pdftoppm"),
                       {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("80"),
                        QStringLiteral("paper.pdf"), QStringLiteral("page")},
                       &out) == 0,
                 qPrintable(out));
        for (const QString& page : QDir(paper).entryList({QStringLiteral("page*.png")}))
            keep(paper + '/' + page);

        QStringList scripts;
        for (const char* name : kPanels)
            scripts << QLatin1String(name);
        for (const char* name : kSweepViews)
            scripts << QLatin1String(name);
        for (const QString& name : scripts) {
            const int code = runIn(figures, python(), {name + QStringLiteral(".py"), name + QStringLiteral("_mpl.png")}, &out);
            QVERIFY2(code == 0, qPrintable(name + ": " + out));
            const QImage img(figures + '/' + name + QStringLiteral("_mpl.png"));
            QVERIFY2(!img.isNull() && img.width() > 300, qPrintable(name));
            // Something coloured was drawn (a map or coloured lines), not an empty frame.
            int coloured = 0;
            for (int y = 0; y < img.height(); y += 3)
                for (int x = 0; x < img.width(); x += 3)
                    coloured += img.pixelColor(x, y).saturation() > 60;
            QVERIFY2(coloured > 50, qPrintable(name + ": " + QString::number(coloured)));
            keep(figures + '/' + name + QStringLiteral("_mpl.png"));
        }
    }

    // Bad paper knobs: a clear error naming the option, and nothing written.
    void cliRefusesBadPaperKnobs() {
        const QString session = figures + QStringLiteral("/session.json");
        QVERIFY(QFileInfo::exists(session));
        const std::vector<std::pair<QStringList, QString>> cases = {
            {{QStringLiteral("--columns"), QStringLiteral("3")}, QStringLiteral("--columns")},
            {{QStringLiteral("--width-cm"), QStringLiteral("2")}, QStringLiteral("--width-cm")},
            {{QStringLiteral("--width-cm"), QStringLiteral("wide")}, QStringLiteral("--width-cm")},
            {{QStringLiteral("--font-pt"), QStringLiteral("100")}, QStringLiteral("--font-pt")},
            {{QStringLiteral("--width-cm"), QStringLiteral("8"), QStringLiteral("--columns"), QStringLiteral("1")},
             QStringLiteral("not both")},
            {{QStringLiteral("--size"), QStringLiteral("800x600"), QStringLiteral("--columns"), QStringLiteral("2")},
             QStringLiteral("not both")},
        };
        int n = 0;
        for (const auto& c : cases) {
            const QString out = tmp.filePath(QStringLiteral("bad%1").arg(++n));
            const testproc::ProcessResult r = testproc::runCli(
                QStringList{QStringLiteral("figure"), QStringLiteral("--session"), session, QStringLiteral("--out"),
                            out, QStringLiteral("--panels"), QStringLiteral("charts,matrices"), QStringLiteral("--format"),
                            QStringLiteral("pgf,png")} + c.first);
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(c.second), qPrintable(r.err));
            QVERIFY2(!QFileInfo::exists(out), qPrintable(out));
        }
    }
};

QTEST_MAIN(TestPaperViews)
#include "tst_paper_views.moc"
