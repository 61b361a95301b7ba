// Figures that go into a paper (issue 32, item 4): exports of a zoomed chart clip to the plot and
// take the zoom window as the axes' range, ticks are round, legend labels whole, the papers'
// notation has real subscripts; the PGFPlots figure compiles with pdflatex, the matplotlib
// script redraws the figure, SVGs convert with rsvg-convert.
#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QValueAxis>
#include <QtTest>
#include <QtWidgets>

#include <cmath>

#include "charts/FigureLegend.h"
#include "charts/FigureRenderer.h"
#include "charts/Ticks.h"
#include "config/Config.h"
#include "experiments/ExperimentRegistry.h"
#include "export/DataExport.h"
#include "output/Session.h"
#include "Process.h"
#include "ReadFile.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "training/Trainer.h"

using namespace ade;
using namespace ade::ui;

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
};

QTEST_MAIN(TestPaperFigures)
#include "tst_paper_figures.moc"
