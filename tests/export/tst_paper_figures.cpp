// Figures that go into a paper (issue 32, item 4): exports of a zoomed chart clip to the plot and
// take the zoom window as the axes' range, ticks are round, legend labels whole, the papers'
// notation has real subscripts; the PGFPlots figure compiles with pdflatex, the matplotlib
// script redraws the figure, SVGs convert with rsvg-convert.
#include <QCategoryAxis>
#include <QFileInfo>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QValueAxis>
#include <QtTest>
#include <QtWidgets>

#include <cmath>

#include "Configs.h"
#include "charts/FigureLegend.h"
#include "charts/FigurePgf.h"
#include "charts/FigureRenderer.h"
#include "charts/Ticks.h"
#include "config/Config.h"
#include "experiments/ExperimentRegistry.h"
#include "export/DataExport.h"
#include "export/ExportDialog.h"
#include "output/Session.h"
#include "PaperTools.h"
#include "Process.h"
#include "ReadFile.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "training/Trainer.h"

using namespace ade;
using namespace ade::ui;
using papertools::keep;
using papertools::pdflatex;
using papertools::python;
using papertools::runIn;

namespace {

// A real Experiment A run whose iterations are stretched to 0 .. 15000 (41 records): the axes
// of the report without training 15000 iterations.
void addLongRun(RunStore& store, const QString& name, const char* optimizer) {
    Config c;
    c.setText("data.n", "16");
    c.setText("data.prompts", "4");
    c.setText("iterations", "40");
    c.setText("optimizer", optimizer);
    std::string err;
    auto t = makeTrainer(c, &err);
    Session s;
    s.runs.push_back(sessionRunFrom(name.toStdString(), c, t->run()));
    for (auto& row : s.runs.back().history.rows)
        row[0] *= 375;
    addSessionToStore(s, store);
}

// The range of an axis in the units its series' points are in.
bool axisRange(QAbstractAxis* a, double& lo, double& hi) {
    if (auto* v = qobject_cast<QValueAxis*>(a)) {
        lo = v->min();
        hi = v->max();
        return true;
    }
    if (auto* l = qobject_cast<QLogValueAxis*>(a)) {
        lo = l->min();
        hi = l->max();
        return true;
    }
    return false;
}

// The values an axis labels: a category axis' label positions, else Qt's own ticks (a value
// axis: min + i (max - min) / (count - 1)).
std::vector<double> tickValues(QAbstractAxis* a, QStringList* texts) {
    std::vector<double> v;
    if (auto* c = qobject_cast<QCategoryAxis*>(a)) {
        for (const QString& l : c->categoriesLabels()) {
            v.push_back(c->endValue(l));
            *texts << l;
        }
    } else if (auto* q = qobject_cast<QValueAxis*>(a)) {
        for (int i = 0; i < q->tickCount(); ++i) {
            v.push_back(q->min() + i * (q->max() - q->min()) / (q->tickCount() - 1));
            *texts << QString::asprintf(q->labelFormat().toLatin1().constData(), v.back());
        }
    }
    return v;
}

// Whether every value is a multiple of one 1-2-5 × 10^k step and the values are evenly spaced.
bool roundTicks(const std::vector<double>& v) {
    if (v.size() < 2) return false;
    const double step = v[1] - v[0];
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    if (std::abs(mantissa - 1) > 1e-6 && std::abs(mantissa - 2) > 1e-6 && std::abs(mantissa - 5) > 1e-6)
        return false;
    for (double x : v)
        if (std::abs(x / step - std::round(x / step)) > 1e-6) return false;
    return true;
}

// The text of an SVG (its <text> elements' characters) and how many <text> elements it has.
QString svgText(const QString& path, int* textElements = nullptr) {
    QXmlStreamReader xml(adetest::readBytes(path));
    QString text;
    int n = 0;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("text")) ++n;
        if (xml.isCharacters()) text += xml.text();
    }
    if (textElements) *textElements = n;
    return text;
}

// A paper's comparison: two settings at three seeds each (their mean and min-max band) and one
// single run, `n` records each of train loss, test loss and excess risk over 0 .. 10 (n - 1).
void addPaperRuns(RunStore& s, int n) {
    const char* groups[] = {"spectral", "random"};
    for (int g = 0; g < 2; ++g)
        for (int k = 0; k < 3; ++k) {
            const int id = s.addRun(QString::fromLatin1(groups[g]) + QStringLiteral("_seed%1").arg(k + 1),
                                    adetest::tinyA(10 * n, {{"seed", std::to_string(k + 1)}}),
                                    QString::fromLatin1(groups[g]), k);
            s.setColumns(id, {"iteration", "train_loss", "test_loss", "excess_risk"});
            std::vector<std::vector<double>> rows;
            for (int i = 0; i < n; ++i) {
                const double t = double(i) / n, a = (g + 1) * (1 + 0.15 * k);
                rows.push_back({10.0 * i, 0.05 + 0.5 * std::exp(-6 * a * t),
                                0.06 + 0.5 * std::exp(-5 * a * t), 0.02 * std::exp(-8 * a * t) + 1e-4});
            }
            s.appendRows(id, rows);
            s.setState(id, RunState::Completed);
        }
    const int id = s.addRun(QStringLiteral("sgd"), adetest::tinyA(10 * n), QString(), 0);
    s.setColumns(id, {"iteration", "train_loss", "test_loss", "excess_risk"});
    std::vector<std::vector<double>> rows;
    for (int i = 0; i < n; ++i) {
        const double t = double(i) / n;
        rows.push_back({10.0 * i, 0.08 + 0.4 * std::exp(-3 * t) * (1 + 0.05 * std::sin(40 * t)),
                        0.09 + 0.4 * std::exp(-3 * t), 0.03 * std::exp(-4 * t) + 3e-4});
    }
    s.appendRows(id, rows);
    s.setState(id, RunState::Completed);
}


}  // namespace

class TestPaperFigures : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    RunStore store;
    ChartSpec loss, norms;
    // The report: the loss chart zoomed by drag to 3100 .. 13900 and into its y range,
    // the first run hidden.
    FigureOptions zoomed() const {
        FigureOptions o;
        o.size = QSize(1000, 650);
        o.logY = true;
        o.xMin = 3100;
        o.xMax = 13900;
        o.hidden = {QStringLiteral("r:") + QString::number(store.runs()[0]->id)};
        double lo = INFINITY, hi = -INFINITY;
        const RunRecord& r = *store.runs()[1];
        const int c = r.column("train_loss");
        for (double v : r.data[c])
            lo = std::min(lo, v), hi = std::max(hi, v);
        // The middle of the curve's range: it leaves the window below and above.
        o.yMin = std::exp(std::log(lo) + 0.4 * (std::log(hi) - std::log(lo)));
        o.yMax = std::exp(std::log(lo) + 0.6 * (std::log(hi) - std::log(lo)));
        return o;
    }

  private slots:
    void initTestCase() {
        addLongRun(store, "gd", "gd");
        addLongRun(store, "sgd", "sgd");
        loss = chartSpec(std::string("loss"));
        norms = chartSpec(std::string("norms"));
        QCOMPARE(norms.id, QString("norms"));
    }

    // The zoom window is the axes' range (it was 0 .. 15000 around curves cut to the window).
    void zoomWindowIsTheAxisRange() {
        const FigureOptions o = zoomed();
        auto chart = buildFigureChart(loss, store, o);
        QVERIFY(chart);
        double lo, hi;
        QVERIFY(axisRange(chart->axes(Qt::Horizontal).value(0), lo, hi));
        QCOMPARE(lo, 3100.0);
        QCOMPARE(hi, 13900.0);
    }

    // Every point of every curve inside the plot: the SVG writer ignores the chart's clip, so a
    // curve below the window was drawn over the x tick labels.
    void curvesAreClippedToThePlot() {
        const FigureOptions o = zoomed();
        auto chart = buildFigureChart(loss, store, o);
        QVERIFY(chart);
        double x0, x1, y0, y1;
        QVERIFY(axisRange(chart->axes(Qt::Horizontal).value(0), x0, x1));
        QVERIFY(axisRange(chart->axes(Qt::Vertical).value(0), y0, y1));
        int points = 0;
        for (QAbstractSeries* s : chart->series())
            if (auto* l = qobject_cast<QLineSeries*>(s))
                for (const QPointF& p : l->points()) {
                    ++points;
                    const double tol = 1e-9 * std::max(1.0, std::abs(p.y()));
                    QVERIFY2(p.x() >= x0 - 1e-9 && p.x() <= x1 + 1e-9,
                             qPrintable(QString("x %1 outside %2..%3").arg(p.x()).arg(x0).arg(x1)));
                    QVERIFY2(p.y() >= y0 - tol && p.y() <= y1 + tol,
                             qPrintable(QString("y %1 outside %2..%3").arg(p.y()).arg(y0).arg(y1)));
                }
        QVERIFY(points > 0);
    }

    // Round ticks on linear axes (they read 0, 3.5, 7, 10.5, 14 and 0.0193, 0.0043, -0.0107).
    void ticksAreRound() {
        FigureOptions o;
        o.size = QSize(1000, 650);
        o.logY = false;
        o.xMin = 3100;
        o.xMax = 13900;
        auto chart = buildFigureChart(norms, store, o);
        QVERIFY(chart);
        for (Qt::Orientation side : {Qt::Horizontal, Qt::Vertical}) {
            QStringList texts;
            const std::vector<double> v = tickValues(chart->axes(side).value(0), &texts);
            QVERIFY2(roundTicks(v), qPrintable(texts.join(QStringLiteral(", "))));
            QVERIFY2(v.size() >= 3, qPrintable(texts.join(QStringLiteral(", "))));
        }
    }

    // Legend labels whole (a long run name was cut with an ellipsis), at every legend position.
    void legendLabelsAreWhole() {
        RunStore s;
        const QString name = QStringLiteral("adam with a very long name that a student typed to describe the run");
        addLongRun(s, name, "adam");
        for (Qt::Alignment where : {Qt::AlignRight, Qt::AlignBottom}) {
            FigureOptions o;
            o.size = QSize(900, 600);
            o.legend = where;
            const QString path = tmp.filePath(QStringLiteral("long-%1.svg").arg(int(where)));
            QString error;
            QVERIFY2(renderFigure(loss, s, o, FigureFormat::Svg, path, &error), qPrintable(error));
            QString text = svgText(path);
            QVERIFY2(!text.contains(QChar(0x2026)), qPrintable(text));
            text.remove(QRegularExpression(QStringLiteral("\\s")));
            QString compact = name;
            compact.remove(QRegularExpression(QStringLiteral("\\s")));
            QVERIFY2(text.contains(compact), qPrintable(text));
        }
    }

    // The papers' notation with real subscripts: no literal "_F" in the figure's text.
    void notationHasRealSubscripts() {
        FigureOptions o;
        o.size = QSize(1000, 650);
        o.logY = false;
        const QString path = tmp.filePath(QStringLiteral("norms.svg"));
        QString error;
        QVERIFY2(renderFigure(norms, store, o, FigureFormat::Svg, path, &error), qPrintable(error));
        const QString text = svgText(path);
        QVERIFY2(text.contains(QStringLiteral("\u2016A\u2016")) || text.contains(QStringLiteral("\u2016A")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("_F")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("_")), qPrintable(text));
    }
    // The papers' notation in PGFPlots text: "_x" a subscript, "^x" (or a signed word, or a
    // braced group) a superscript; the landscape's axis read "e\textasciicircum{}t L" before.
    void notationInLatexHasSubscriptsAndSuperscripts() {
        QCOMPARE(latexText(QStringLiteral("t: along the orbit (e^t L, e^−t R)")),
                 QStringLiteral("t: along the orbit (e\\textsuperscript{t} L, e\\textsuperscript{") +
                     latexText(QStringLiteral("−t")) + QStringLiteral("} R)"));
        QCOMPARE(latexText(QStringLiteral("x^{ab}_F")),
                 QStringLiteral("x\\textsuperscript{ab}\\textsubscript{F}"));
        QCOMPARE(latexText(QStringLiteral("a^")), QStringLiteral("a\\textasciicircum{}"));
    }
    // The Export dialog: PGFPlots and matplotlib, a paper's column widths, the type size.
    void exportDialogOffersPaperWidths() {
        ExportDialog dlg(tmp.path(), figureCharts(store), true, false, 0);
        auto* kind = dlg.findChild<QComboBox*>(QStringLiteral("export.widthKind"));
        auto* pgf = dlg.findChild<QCheckBox*>(QStringLiteral("export.pgf"));
        auto* mpl = dlg.findChild<QCheckBox*>(QStringLiteral("export.mpl"));
        auto* font = dlg.findChild<QSpinBox*>(QStringLiteral("export.fontPt"));
        auto* cm = dlg.findChild<QDoubleSpinBox*>(QStringLiteral("export.widthCm"));
        QVERIFY(kind && pgf && mpl && font && cm);
        QCOMPARE(dlg.options().widthCm, 0.0);
        pgf->setChecked(true);
        mpl->setChecked(true);
        const std::vector<FigureFormat> f = dlg.formats();
        QVERIFY(std::find(f.begin(), f.end(), FigureFormat::Pgf) != f.end());
        QVERIFY(std::find(f.begin(), f.end(), FigureFormat::Mpl) != f.end());
        kind->setCurrentIndex(1);  // one column of a two-column paper
        FigureOptions o = dlg.options();
        QCOMPARE(o.widthCm, ExportDialog::kOneColumnCm);
        QCOMPARE(o.size.width(), ExportDialog::pointsOfCm(8.5));  // 241 pt
        QCOMPARE(o.fontPt, 8.0);
        kind->setCurrentIndex(2);
        QCOMPARE(dlg.options().widthCm, ExportDialog::kTwoColumnsCm);
        kind->setCurrentIndex(3);
        cm->setValue(12);
        QCOMPARE(dlg.options().widthCm, 12.0);
        QCOMPARE(dlg.options().size.width(), ExportDialog::pointsOfCm(12));
        font->setValue(10);
        QCOMPARE(dlg.options().fontPt, 10.0);
        // A one-column figure at the size the dialog gives it (PNG at scale 4: about 300 dpi).
        kind->setCurrentIndex(1);
        font->setValue(8);
        o = dlg.options();
        QCOMPARE(o.legend, Qt::Alignment(Qt::AlignBottom));  // a column's legend: under the plot
        const QString png = tmp.filePath(QStringLiteral("column.png"));
        QString error;
        QVERIFY2(renderFigure(norms, store, o, FigureFormat::Png, png, &error), qPrintable(error));
        QCOMPARE(QImage(png).width(), 4 * ExportDialog::pointsOfCm(8.5));
        keep(png);
    }

    // PGFPlots: the .tex and its tables, \\input into a two-column paper, compile with pdflatex.
    void pgfCompilesInATwoColumnPaper() {
        RunStore s;
        addPaperRuns(s, 400);
        const QString paper = tmp.filePath(QStringLiteral("paper"));
        QVERIFY(QDir().mkpath(paper + QStringLiteral("/figures")));
        FigureOptions o;
        o.logY = true;
        o.size = QSize(1000, 700);
        o.legend = Qt::AlignBottom;
        QString error;
        QVERIFY2(renderFigure(loss, s, o, FigureFormat::Pgf, paper + QStringLiteral("/figures/loss.tex"), &error),
                 qPrintable(error));
        const QString tex = QString::fromUtf8(adetest::readBytes(paper + QStringLiteral("/figures/loss.tex")));
        QVERIFY(tex.contains(QStringLiteral("ymode=log")));
        QVERIFY(tex.contains(QStringLiteral("fill between")));
        QVERIFY(tex.contains(QStringLiteral("\\addlegendentry")));
        QVERIFY(tex.contains(QStringLiteral("width=\\linewidth")));
        QVERIFY(!tex.contains(QStringLiteral("fontsize")));  // the document's fonts
        // Every record in the tables (no cap): 400 rows and the header.
        QCOMPARE(adetest::readBytes(paper + QStringLiteral("/figures/loss-1.dat")).count('\n'), 401);
        // Subscripts as LaTeX subscripts, never a literal "_".
        QVERIFY(tex.contains(QStringLiteral("L\\textsubscript{n}")));
        const QString main = QStringLiteral(
            "\\documentclass[twocolumn]{article}\n"
            "\\usepackage[utf8]{inputenc}\n\\usepackage[T1]{fontenc}\n"
            "\\usepackage{pgfplots}\n\\usepgfplotslibrary{fillbetween}\n\\pgfplotsset{compat=1.16}\n"
            "\\begin{document}\n\\section{Results}\n"
            "Algorithm 1 from the spectral start reaches the floor first (Figure~\\ref{fig:loss}).\n"
            "\\begin{figure}[t]\\centering\n\\def\\explorerfigdir{figures/}\n"
            "\\input{figures/loss.tex}\n"
            "\\caption{Loss and excess risk, mean and min--max band over three seeds.}\\label{fig:loss}\n"
            "\\end{figure}\n\\section{Discussion}\nThe second column.\n\\end{document}\n");
        QFile f(paper + QStringLiteral("/paper.tex"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(main.toUtf8());
        f.close();
        QString out;
        const int rc = pdflatex(paper, &out);
        QVERIFY2(rc == 0, qPrintable(out.right(3000)));
        QVERIFY(QFileInfo(paper + QStringLiteral("/paper.pdf")).size() > 10000);
        keep(paper + QStringLiteral("/paper.pdf"));
        // The page as pdftoppm (poppler) renders it: the figure's colours are on it.
        QVERIFY2(runIn(paper, QStringLiteral("pdftoppm"),
                       {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("100"),
                        QStringLiteral("-singlefile"), QStringLiteral("paper.pdf"), QStringLiteral("page")},
                       &out) == 0,
                 qPrintable(out));
        const QImage page(paper + QStringLiteral("/page.png"));
        QVERIFY(!page.isNull());
        int coloured = 0;
        for (int y = 0; y < page.height(); y += 2)
            for (int x = 0; x < page.width(); x += 2) {
                const QColor c = page.pixelColor(x, y);
                coloured += c.saturation() > 80 && c.value() > 60;
            }
        QVERIFY2(coloured > 200, qPrintable(QString::number(coloured)));
        keep(paper + QStringLiteral("/page.png"));
        keep(paper + QStringLiteral("/figures/loss.tex"));
    }

    // matplotlib: the script and its CSV redraw the figure (Debian's python3-matplotlib, Agg).
    void mplScriptRedrawsTheFigure() {
        RunStore s;
        addPaperRuns(s, 400);
        const QString dir = tmp.filePath(QStringLiteral("mpl"));
        QVERIFY(QDir().mkpath(dir));
        FigureOptions o;
        o.logY = true;
        o.size = QSize(1200, 800);
        QString error;
        QVERIFY2(renderFigure(loss, s, o, FigureFormat::Mpl, dir + QStringLiteral("/loss.py"), &error),
                 qPrintable(error));
        // Every record of every curve (no cap): 7 curves' 400 records and the header.
        QCOMPARE(adetest::readBytes(dir + QStringLiteral("/loss.csv")).count('\n'), 9 * 400 + 1);
        const QString script = QString::fromUtf8(adetest::readBytes(dir + QStringLiteral("/loss.py")));
        QVERIFY(script.contains(QStringLiteral("YSCALE = \"log\"")));
        QVERIFY(script.contains(QStringLiteral("$_{n}$")));
        QString out;
        const int rc = runIn(dir, python(), {QStringLiteral("loss.py"), QStringLiteral("loss_mpl.png")}, &out);
        QVERIFY2(rc == 0, qPrintable(out));
        QImage img(dir + QStringLiteral("/loss_mpl.png"));
        QVERIFY2(!img.isNull() && img.width() > 1000, qPrintable(out));
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 4)
            for (int x = 0; x < img.width(); x += 4)
                colours.insert(img.pixel(x, y));
        QVERIFY(colours.size() > 20);
        keep(dir + QStringLiteral("/loss_mpl.png"));
        keep(dir + QStringLiteral("/loss.py"));
        QVERIFY(renderFigure(loss, s, o, FigureFormat::Png, dir + QStringLiteral("/loss_explorer.png"), &error));
        keep(dir + QStringLiteral("/loss_explorer.png"));
    }

    // SVGs that librsvg (what \\includesvg-free pipelines and browsers use) accepts, text as text.
    void svgConvertsWithRsvgAndKeepsText() {
        RunStore s;
        addPaperRuns(s, 200);
        FigureOptions o;
        o.logY = true;
        const QString svg = tmp.filePath(QStringLiteral("rsvg/loss.svg"));
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("rsvg"))));
        QString error;
        QVERIFY2(renderFigure(loss, s, o, FigureFormat::Svg, svg, &error), qPrintable(error));
        int texts = 0;
        const QString text = svgText(svg, &texts);
        QVERIFY2(texts >= 10, qPrintable(QString::number(texts)));
        QVERIFY(text.contains(QStringLiteral("iteration")));
        QString out;
        const int rc = runIn(tmp.filePath(QStringLiteral("rsvg")), QStringLiteral("rsvg-convert"),
                             {QStringLiteral("-o"), QStringLiteral("loss-rsvg.png"), QStringLiteral("loss.svg")}, &out);
        QVERIFY2(rc == 0, qPrintable(out));
        const QImage img(tmp.filePath(QStringLiteral("rsvg/loss-rsvg.png")));
        QVERIFY(!img.isNull() && img.width() >= 1000);
        keep(tmp.filePath(QStringLiteral("rsvg/loss-rsvg.png")));
        // The text's size is the size it was laid out at (96 dpi): the 20 pt title is 26.7 px.
        QXmlStreamReader xml(adetest::readBytes(svg));
        double titleSize = 0;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("text")) {
                const double size = xml.attributes().value(QLatin1String("font-size")).toDouble();
                if (xml.readElementText().contains(QStringLiteral("Loss and excess risk"))) titleSize = size;
            }
        }
        QVERIFY2(std::abs(titleSize - 20 * 96 / 72.0) < 0.5, qPrintable(QString::number(titleSize)));
    }

    // Data exports have no cap on the number of records (TensorBoard's stops at 1000).
    void dataExportHasEveryRecord() {
        RunStore s;
        addPaperRuns(s, 5000);
        const QString dir = tmp.filePath(QStringLiteral("csv"));
        QVERIFY(QDir().mkpath(dir));
        QString error;
        const QStringList files = exportRunsCsv(s.visibleRuns(), dir, {}, &error);
        QVERIFY2(!files.isEmpty(), qPrintable(error));
        const QByteArray csv = adetest::readBytes(dir + QStringLiteral("/sgd.csv"));
        int rows = 0;
        for (const QByteArray& line : csv.split('\n'))
            rows += !line.isEmpty() && !line.startsWith('#');
        QCOMPARE(rows, 5000 + 1);  // the header and every record
        QVERIFY(exportRunsJson(s.visibleRuns(), dir + QStringLiteral("/runs.json"), {}, &error));
        const QJsonDocument json = QJsonDocument::fromJson(adetest::readBytes(dir + QStringLiteral("/runs.json")));
        QCOMPARE(json.object().value(QStringLiteral("runs")).toArray().last().toObject().value(QStringLiteral("rows")).toArray().size(), 5000);
    }

    // The CLI writes the new formats and says which ones it knows.
    void cliFigureWritesPgfAndMpl() {
        const QString out = tmp.filePath(QStringLiteral("cli"));
        const testproc::ProcessResult r = testproc::runCli(
            {QStringLiteral("figure"), QStringLiteral("--preset"), QStringLiteral("a-same-start"),
             QStringLiteral("--out"), out, QStringLiteral("--set"), QStringLiteral("iterations=30"),
             QStringLiteral("--set"), QStringLiteral("data.n=16"), QStringLiteral("--set"),
             QStringLiteral("data.prompts=4"), QStringLiteral("--format"), QStringLiteral("pgf,mpl,svg")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        for (const char* f : {"loss.tex", "loss-1.dat", "loss.py", "loss.csv", "loss.svg", "norms.tex"})
            QVERIFY2(QFileInfo::exists(out + '/' + QLatin1String(f)), f);
        const testproc::ProcessResult bad = testproc::runCli(
            {QStringLiteral("figure"), QStringLiteral("--session"), out + QStringLiteral("/session.json"),
             QStringLiteral("--out"), out, QStringLiteral("--format"), QStringLiteral("eps")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("png, svg, pdf, pgf or mpl")), qPrintable(bad.err));
    }
};

QTEST_MAIN(TestPaperFigures)
#include "tst_paper_figures.moc"
