#include "charts/FigureRenderer.h"

#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QChart>
#include <QDir>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QAreaSeries>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "base/RichText.h"
#include "charts/FigureAxes.h"
#include "charts/FigureData.h"
#include "charts/FigureLegend.h"
#include "charts/FigureMpl.h"
#include "charts/FigurePgf.h"
#include "charts/Ticks.h"
#include "runs/RunStore.h"
#include "runs/SeedGroups.h"
#include "charts/Decimate.h"
#include "base/Palette.h"
#include "charts/SymLog.h"
#include "output/RunOutput.h"

namespace ade::ui {

namespace {

struct StyleValues {
    QColor background, text, grid;
    double penWidth, titlePt, labelPt;
};

StyleValues styleValues(const FigureOptions& o) {
    // Fonts scale with the figure so a 3000-px poster is as readable as a 1200-px slide.
    const QSize size = o.size;
    const double k = std::max(0.6, std::min(size.width(), size.height() * 3 / 2) / 1200.0);
    StyleValues v = o.style == FigureStyle::Publication
                        ? StyleValues{Qt::white, Qt::black, QColor(225, 225, 225), 2.6 * k, 20 * k, 15 * k}
                        : StyleValues{QColor(252, 252, 252), QColor(40, 40, 40),
                                      QColor(230, 230, 230), 1.6 * k, 14 * k, 11 * k};
    if (o.fontPt > 0) {
        // The labels' size asked for, the title a fifth larger. A figure's pixel is a PDF point
        // (FigureFile) while Qt's fonts take 96 pixels per inch: points × 72 / 96.
        v.labelPt = o.fontPt * 0.75 / 0.9;  // tick labels are 0.9 of it: the size asked for
        v.titlePt = o.fontPt * 0.75 * 1.2;
        v.penWidth = std::min(v.penWidth, 0.15 * o.fontPt);
    }
    return v;
}

// The papers' notation drawn: "‖W_Q‖_F" with real subscripts (rich text), else as it is.
QString shownText(const QString& plain) {
    const QString html = subscriptHtml(plain);
    return html.isEmpty() ? plain : html;
}

}  // namespace

bool figureHasData(const ChartSpec& spec, const RunStore& store, const FigureOptions& options) {
    return buildFigureChart(spec, store, options) != nullptr;
}

std::vector<ChartSpec> figureCharts(const RunStore& store) {
    std::vector<std::string> experiments;
    for (const RunRecord* r : store.visibleRuns())
        if (std::find(experiments.begin(), experiments.end(), r->config.experiment()) ==
            experiments.end())
            experiments.push_back(r->config.experiment());
    return chartSpecsFor(experiments, &store, true);
}

void applyPaperWidth(FigureOptions& o, double cm) {
    o.widthCm = cm;
    const int w = std::max(200, pointsOfCm(cm));
    o.size = QSize(w, std::max(150, w * 2 / 3));
    if (o.fontPt <= 0) o.fontPt = 8;
    o.scale = 4;
    if (o.legend & (Qt::AlignLeft | Qt::AlignRight)) o.legend = Qt::AlignBottom;
}

std::unique_ptr<QChart> buildFigureChart(const ChartSpec& spec, const RunStore& store,
                                         const FigureOptions& o) {
    FigureData d;
    if (!figureData(spec, store, o, &d)) return nullptr;
    const StyleValues sv = styleValues(o);
    auto chart = std::make_unique<QChart>();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundBrush(sv.background);
    chart->setBackgroundRoundness(0);
    if (o.size.width() < 700) {
        // A narrow figure (a paper's column, about 240 pt): Qt's default margins of 20 px and
        // more would take a sixth of it from the plot.
        chart->layout()->setContentsMargins(0, 0, 0, 0);
        chart->setMargins(QMargins(4, 2, 6, 2));
    }
    chart->setTitle(shownText(d.title));
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(sv.titlePt);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setTitleBrush(sv.text);

    // Everything is drawn in axis units (log10 on a log axis, the symmetric-log transform on a
    // symlog one) on linear category axes labelled at round values, and cut to the plot's
    // rectangle here: the SVG writer ignores the chart's own clip.
    auto tx = [&](double v) { return d.logX ? std::log10(v) : v; };
    auto ty = [&](double v) { return d.logY ? std::log10(v) : d.symLogY ? symLog(v) : v; };
    const double ax0 = tx(d.x0), ax1 = tx(d.x1);
    const double ay0 = d.logY ? std::log10(d.y0) : d.y0, ay1 = d.logY ? std::log10(d.y1) : d.y1;
    const QRectF plot(QPointF(ax0, ay0), QPointF(ax1, ay1));
    const int pixels = std::max(200, o.size.width());
    const DecimateRequest req{ax0, ax1, pixels, false, false, 0};
    auto points = [&](const std::vector<double>& x, const std::vector<double>& y) {
        std::vector<double> X(x.size()), Y(y.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            X[i] = x[i] > 0 || !d.logX ? tx(x[i]) : NAN;
        for (std::size_t i = 0; i < y.size(); ++i)
            Y[i] = y[i] > 0 || !d.logY ? ty(y[i]) : NAN;
        return decimate(X, Y, req);
    };
    // Bands under every line: series are collected, then added bands first.
    std::vector<QAbstractSeries*> bands, lines;
    std::vector<FigureLegendEntry> legendEntries;
    for (const FigureCurve& c : d.curves) {
        QBrush bandBrush(Qt::NoBrush);
        if (!c.lo.empty() && !c.faint) {
            QColor fill = c.color;
            fill.setAlphaF(0.22);
            bandBrush = QBrush(fill);
            QList<QPointF> lo = points(c.x, c.lo), hi = points(c.x, c.hi);
            clipBand(lo, hi, plot);
            auto* los = new QLineSeries();
            auto* his = new QLineSeries();
            los->replace(lo);
            his->replace(hi);
            auto* area = new QAreaSeries(his, los);
            los->setParent(area);  // an area series does not own its lines
            his->setParent(area);
            area->setPen(Qt::NoPen);
            area->setBrush(bandBrush);
            bands.push_back(area);
        }
        const QList<QPointF> pts = points(c.x, c.y);
        QColor color = c.color;
        if (c.faint) color.setAlphaF(0.25);
        QPen pen(color, c.faint ? sv.penWidth * 0.6 : sv.penWidth);
        pen.setStyle(c.faint ? Qt::SolidLine : c.style);
        pen.setCapStyle(Qt::FlatCap);
        for (const QList<QPointF>& piece : clipPolyline(pts, plot)) {
            auto* s = new QLineSeries();
            s->replace(piece);
            s->setPen(pen);
            s->setName(c.label());
            lines.push_back(s);
        }
        if (c.faint) continue;
        legendEntries.push_back({c.run + QStringLiteral(" · "), pen, bandBrush, c.marker, c.notation});
        if (c.marker < 0) continue;
        auto* m = new QScatterSeries();  // about ten markers along the curve
        const qsizetype step = std::max<qsizetype>(1, pts.size() / 10);
        for (qsizetype i = step / 2; i < pts.size(); i += step)
            if (plot.contains(pts[i])) m->append(pts[i]);
        static const QScatterSeries::MarkerShape shapes[] = {
            QScatterSeries::MarkerShapeRectangle, QScatterSeries::MarkerShapeCircle,
            QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeRotatedRectangle};
        m->setMarkerShape(shapes[c.marker]);
        m->setMarkerSize(sv.penWidth * 4);
        m->setColor(color);
        m->setBorderColor(color);
        lines.push_back(m);
    }
    for (QAbstractSeries* s : bands)
        chart->addSeries(s);
    for (QAbstractSeries* s : lines)
        chart->addSeries(s);

    auto styleAxis = [&](QCategoryAxis* a, const QString& label) {
        a->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        a->setTruncateLabels(false);  // a narrow figure (a paper's column) keeps whole labels
        QFont f = a->labelsFont();
        f.setPointSizeF(sv.labelPt * 0.9);
        a->setLabelsFont(f);
        a->setLabelsBrush(sv.text);
        QFont tf = a->titleFont();
        tf.setPointSizeF(sv.labelPt);
        tf.setBold(false);
        a->setTitleFont(tf);
        a->setTitleBrush(sv.text);
        a->setTitleText(shownText(label));
        a->setGridLinePen(QPen(sv.grid, 1));
        a->setLinePen(QPen(sv.text, 1));
    };
    // Round ticks whose labels fit: the plot takes about three quarters of the figure.
    auto* ax = new QCategoryAxis();
    auto* ay = new QCategoryAxis();
    styleAxis(ax, d.xLabel);
    styleAxis(ay, d.yLabel);
    ax->setRange(ax0, ax1);
    ay->setRange(ay0, ay1);
    const double w = o.size.width() * 0.7, h = o.size.height() * 0.7;
    QFont tickFont = ax->labelsFont();
    // Log axes label as the live charts do (Ticks.h: logTicks, logTickText), so a figure and
    // the chart it was exported from print the same ticks.
    if (d.logX) {
        setAxisTicks(ax, logTicks(std::pow(10.0, ax0), std::pow(10.0, ax1), w, tickFont, true));
    } else {
        setAxisTicks(ax, fittingTicks(ax0, ax1, w, tickFont, true));
    }
    if (d.symLogY)
        setSymLogLabels(ay, ay0, ay1);
    else if (d.logY)
        setAxisTicks(ay, logTicks(std::pow(10.0, ay0), std::pow(10.0, ay1), h, tickFont, false));
    else
        setAxisTicks(ay, fittingTicks(ay0, ay1, h, tickFont, false));
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    for (auto* s : chart->series()) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    // The figure's own legend: line samples long enough to tell solid from dashed, markers and
    // bands as drawn (Qt's legend draws short samples), whole labels with real subscripts.
    chart->legend()->hide();
    if (d.bands)
        legendEntries.push_back({QObject::tr("lines: mean over seeds; bands: %1")
                                     .arg(QString::fromUtf8(kBandName)),
                                 QPen(Qt::NoPen), QBrush(Qt::NoBrush), -1, {}});
    if (o.legend != Qt::Alignment()) {
        QFont lf = chart->legend()->font();
        lf.setPointSizeF(sv.labelPt * (o.fontPt > 0 ? 0.9 : 0.85));
        addFigureLegend(chart.get(), std::move(legendEntries), o.legend, QSizeF(o.size), lf,
                        sv.text);
    }
    // The last x label is centred on the axis' end: room for its right half.
    QMargins m = chart->margins();
    if (!ax->categoriesLabels().isEmpty() && o.legend != Qt::AlignRight) {
        const double half = QFontMetricsF(tickFont).horizontalAdvance(ax->categoriesLabels().last()) / 2;
        m.setRight(std::max(m.right(), static_cast<int>(std::ceil(half)) + 4));
        chart->setMargins(m);
    }
    chart->resize(o.size);
    return chart;
}

namespace {
// A narrow figure (a paper's column) with its legend above or below: the legend's rows come on
// top of the figure's height instead of out of the plot's, which would leave a plot too short
// for its axis title ("los…", "Fr…") and labels. Rebuilds `chart` at the taller size when the
// legend takes more than a fifth of the height; returns the options it was built with.
FigureOptions grownForLegend(const ChartSpec& spec, const RunStore& store, const FigureOptions& o,
                             std::unique_ptr<QChart>& chart) {
    if (!chart || o.size.width() >= 700 || !(o.legend & (Qt::AlignTop | Qt::AlignBottom))) return o;
    const QMargins m = chart->margins();
    const int legend = (o.legend & Qt::AlignTop) ? m.top() : m.bottom();
    if (legend <= o.size.height() / 5) return o;
    FigureOptions grown = o;
    grown.size.setHeight(o.size.height() + legend);
    chart = buildFigureChart(spec, store, grown);
    return grown;
}
}  // namespace

bool renderFigure(const ChartSpec& spec, const RunStore& store, const FigureOptions& o,
                  FigureFormat format, const QString& path, QString* error) {
    if (!isPaintedFormat(format)) {  // the chart's data and the code that draws it
        FigureData data;
        if (!figureData(spec, store, o, &data)) {
            if (error)
                *error = QObject::tr("%1: no visible run has data for this chart").arg(spec.title);
            return false;
        }
        return format == FigureFormat::Pgf ? writePgfFigure(data, o, path, error)
                                           : writeMplFigure(data, o, path, error);
    }
    auto chart = buildFigureChart(spec, store, o);
    const FigureOptions shown = grownForLegend(spec, store, o, chart);
    if (!chart) {
        if (error)
            *error = QObject::tr("%1: no visible run has data for this chart").arg(spec.title);
        return false;
    }
    QGraphicsScene scene;
    scene.addItem(chart.get());
    chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(shown.size)));
    const QRectF source(QPointF(0, 0), QSizeF(shown.size));

    const QString title = o.title.isEmpty() ? spec.title : o.title;
    const bool ok = renderPainting(
        [&](QPainter& p, const QRectF& area) {
            p.setRenderHint(QPainter::Antialiasing);
            scene.render(&p, area, source);
        },
        shown.size, o.scale, format, path, title, o.metadata, error);
    scene.removeItem(chart.get());
    return ok;
}

QStringList renderAllFigures(
    const RunStore& store, const FigureOptions& options, const std::vector<FigureFormat>& formats,
    const QString& dir, QString* error,
    const std::function<void(const ChartSpec&, FigureOptions&)>& perChart) {
    QStringList written;
    std::error_code ec;
    std::filesystem::create_directories(dir.toStdString(), ec);
    if (ec || !QFileInfo(dir).isDir()) {
        if (error)
            *error = QObject::tr("cannot create folder %1: %2")
                         .arg(dir, ec ? QString::fromStdString(ec.message())
                                      : QObject::tr("a file of that name is in the way"));
        return written;
    }
    for (const ChartSpec& spec : figureCharts(store)) {
        FigureOptions o = options;
        o.logY = spec.scale == ade::AxisScale::Log && options.logY;
        o.symLogY = spec.scale == ade::AxisScale::SymLog && options.logY;
        if (perChart) perChart(spec, o);
        if (!figureHasData(spec, store, o)) continue;
        for (FigureFormat f : formats) {
            const QString path = QDir(dir).filePath(spec.id + "." + figureSuffix(f));
            if (!renderFigure(spec, store, o, f, path, error)) return written;
            written << path;
        }
    }
    return written;
}

}  // namespace ade::ui
