#include "charts/FigureRenderer.h"

#include <QCategoryAxis>
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

#include "charts/FigureLegend.h"
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

StyleValues styleValues(FigureStyle s, QSize size) {
    // Fonts scale with the figure so a 3000-px poster is as readable as a 1200-px slide.
    const double k = std::max(0.6, std::min(size.width(), size.height() * 3 / 2) / 1200.0);
    if (s == FigureStyle::Publication)
        return {Qt::white, Qt::black, QColor(225, 225, 225), 2.6 * k, 20 * k, 15 * k};
    return {
        QColor(252, 252, 252), QColor(40, 40, 40), QColor(230, 230, 230), 1.6 * k, 14 * k, 11 * k};
}

bool isHidden(const FigureOptions& o, const RunRecord& r, const std::string& column) {
    return o.hidden.contains(QStringLiteral("m:") + QString::fromStdString(column)) ||
           o.hidden.contains(QStringLiteral("r:") + QString::number(r.id));
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

std::unique_ptr<QChart> buildFigureChart(const ChartSpec& spec, const RunStore& store,
                                         const FigureOptions& o) {
    const StyleValues sv = styleValues(o.style, o.size);
    auto chart = std::make_unique<QChart>();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundBrush(sv.background);
    chart->setBackgroundRoundness(0);
    chart->setTitle(o.title.isEmpty() ? spec.title : o.title);
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(sv.titlePt);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setTitleBrush(sv.text);

    // What the figure draws: the visible runs, the seeds of a group as their mean (as on
    // screen; the band comes from the group's aggregate).
    const auto visible = store.visibleRuns();
    std::vector<SeedGroup> groups;
    if (o.seedBands)
        groups = seedGroups(visible);
    else
        for (const RunRecord* r : visible)
            groups.push_back({r->name, {r}});
    std::vector<GroupAggregate> aggregates(groups.size());
    std::vector<const RunRecord*> runs;
    std::vector<const GroupAggregate*> bandOf;
    std::vector<QString> names;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].grouped()) {
            aggregates[g].update(groups[g].members);
            runs.push_back(&aggregates[g].mean());
            bandOf.push_back(&aggregates[g]);
        } else {
            runs.push_back(&groups[g].first());
            bandOf.push_back(nullptr);
        }
        // Short names in the legend ("none (3 seeds)"); one note says what line and band are.
        names.push_back(groups[g].grouped() ? QObject::tr("%1 (%2 seeds)")
                                                  .arg(groups[g].label)
                                                  .arg(groups[g].members.size())
                                            : groups[g].label);
    }
    // Data range first (for axes and decimation).
    double x0 = INFINITY, x1 = -INFINITY;
    std::vector<std::string> shownColumns;
    for (const RunRecord* r : runs) {
        const int it = r->column("iteration");
        if (it < 0 || r->size() == 0) continue;
        for (const auto& c : r->columns)
            if (spec.accepts(r->config.experiment(), c) && !isHidden(o, *r, c)) {
                x0 = std::min(x0, r->data[it].front());
                x1 = std::max(x1, r->data[it].back());
                if (std::find(shownColumns.begin(), shownColumns.end(), c) == shownColumns.end())
                    shownColumns.push_back(c);
            }
    }
    if (shownColumns.empty()) return nullptr;
    if (o.xMax > o.xMin) {
        x0 = o.xMin;
        x1 = o.xMax;
    }
    if (o.logX) x0 = std::max(x0, 1.0);
    if (!(x1 > x0)) x1 = x0 + 1;

    double y0 = INFINITY, y1 = -INFINITY;
    const int pixels = std::max(200, o.size.width());
    int seriesIndex = 0;
    // Bands under every line: series are collected, then added bands first.
    std::vector<QAbstractSeries*> bands, lines;
    std::vector<FigureLegendEntry> legendEntries;
    const bool oneMetric = shownColumns.size() == 1;
    for (std::size_t ri = 0; ri < runs.size(); ++ri) {
        const RunRecord* r = runs[ri];
        const int it = r->column("iteration");
        if (it < 0) continue;
        int metricIndex = 0;
        for (std::size_t c = 0; c < r->columns.size(); ++c) {
            if (!spec.accepts(r->config.experiment(), r->columns[c]) ||
                isHidden(o, *r, r->columns[c]))
                continue;
            const auto& x = r->data[it];
            std::vector<double> y = r->data[c];
            const bool sym = o.symLogY && !o.logY;
            const DecimateRequest req{x0, x1, pixels, o.logX, o.logY, 1e-300};
            auto transformed = [&](std::vector<double> values) {
                if (sym)
                    for (double& v : values)
                        v = symLog(v);
                double lo, hi;
                if (yRange(x, values, x0, x1, o.logY, lo, hi)) {
                    y0 = std::min(y0, lo);
                    y1 = std::max(y1, hi);
                }
                return values;
            };
            const QColor runColor = paletteColor(r->colorIndex);
            // A chart of one metric draws each run in its own line style (past the eighth
            // colour the shade alone would not tell runs apart); several metrics differ by style
            // and runs past the eighth colour also carry their marker.
            const Qt::PenStyle style = oneMetric ? runPenStyle(r->colorIndex) : paletteStyle(metricIndex);
            const bool marked = r->colorIndex >= paletteSize();
            const QString name =
                names[ri] + QStringLiteral(" · ") + metricLabel(r->config.experiment(), r->columns[c]);
            QBrush bandBrush(Qt::NoBrush);
            if (const GroupAggregate* agg = bandOf[ri]) {
                QColor fill = runColor;
                fill.setAlphaF(0.22);
                bandBrush = QBrush(fill);
                auto* lo = new QLineSeries();
                auto* hi = new QLineSeries();
                lo->replace(decimate(x, transformed(agg->lo(static_cast<int>(c))), req));
                hi->replace(decimate(x, transformed(agg->hi(static_cast<int>(c))), req));
                auto* area = new QAreaSeries(hi, lo);
                lo->setParent(area);  // an area series does not own its lines
                hi->setParent(area);
                area->setPen(Qt::NoPen);
                area->setBrush(bandBrush);
                bands.push_back(area);
            }
            auto addSeries = [&](const std::vector<double>& values, bool faint) {
                const QList<QPointF> pts = decimate(x, transformed(values), req);
                auto* s = new QLineSeries();
                s->replace(pts);
                QColor color = runColor;
                if (faint) color.setAlphaF(0.25);
                QPen pen(color, faint ? sv.penWidth * 0.6 : sv.penWidth);
                pen.setStyle(faint ? Qt::SolidLine : style);
                pen.setCapStyle(Qt::FlatCap);
                s->setPen(pen);
                s->setName(name);
                lines.push_back(s);
                if (faint) return;
                legendEntries.push_back(
                    {name, pen, bandBrush, marked ? static_cast<int>(runMarker(r->colorIndex)) : -1});
                if (!marked) return;
                auto* m = new QScatterSeries();  // about ten markers along the curve
                const qsizetype step = std::max<qsizetype>(1, pts.size() / 10);
                for (qsizetype i = step / 2; i < pts.size(); i += step)
                    m->append(pts[i]);
                static const QScatterSeries::MarkerShape shapes[] = {
                    QScatterSeries::MarkerShapeRectangle, QScatterSeries::MarkerShapeCircle,
                    QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeRotatedRectangle};
                m->setMarkerShape(shapes[static_cast<int>(runMarker(r->colorIndex))]);
                m->setMarkerSize(sv.penWidth * 4);
                m->setColor(color);
                m->setBorderColor(color);
                lines.push_back(m);
            };
            if (o.smoothing > 0) {
                std::vector<double> ema;
                EmaState state;
                extendEma(y, o.smoothing, ema, state);
                addSeries(y, true);
                addSeries(ema, false);
            } else {
                addSeries(y, false);
            }
            ++metricIndex;
            ++seriesIndex;
        }
    }
    for (QAbstractSeries* s : bands)
        chart->addSeries(s);
    for (QAbstractSeries* s : lines)
        chart->addSeries(s);
    if (!std::isfinite(y0)) {
        y0 = o.logY ? 1e-3 : 0;
        y1 = 1;
    }
    if (o.logY) {
        y0 = std::max(y0, 1e-300);
        if (y1 <= y0) y1 = y0 * 10;
    } else if (y1 <= y0) {
        y1 = y0 + 1;
    }

    auto styleAxis = [&](QAbstractAxis* a, const QString& label) {
        QFont f = a->labelsFont();
        f.setPointSizeF(sv.labelPt * 0.9);
        a->setLabelsFont(f);
        a->setLabelsBrush(sv.text);
        QFont tf = a->titleFont();
        tf.setPointSizeF(sv.labelPt);
        tf.setBold(false);
        a->setTitleFont(tf);
        a->setTitleBrush(sv.text);
        a->setTitleText(label);
        a->setGridLinePen(QPen(sv.grid, 1));
        a->setLinePen(QPen(sv.text, 1));
    };
    QAbstractAxis* ax;
    if (o.logX) {
        auto* l = new QLogValueAxis();
        l->setBase(10);
        l->setLabelFormat("%g");
        l->setRange(x0, x1);
        ax = l;
    } else {
        auto* v = new QValueAxis();
        v->setRange(x0, x1);
        v->setLabelFormat("%g");
        v->applyNiceNumbers();
        ax = v;
    }
    QAbstractAxis* ay;
    if (o.symLogY && !o.logY) {
        auto* c = new QCategoryAxis();
        const double pad = 0.05 * (y1 - y0);
        const double lo = y0 >= 0 ? std::max(0.0, y0 - pad) : y0 - pad, hi = y1 + pad;
        c->setRange(lo, hi);
        setSymLogLabels(c, lo, hi);
        ay = c;
    } else if (o.logY) {
        auto* l = new QLogValueAxis();
        double lo = std::pow(10, std::floor(std::log10(y0)));
        double hi = std::pow(10, std::ceil(std::log10(y1)));
        if (o.yMax > o.yMin && o.yMin > 0) lo = o.yMin, hi = o.yMax;  // as zoomed on screen
        // Labels sit on powers of the base: within two decades, finer powers 10^(k/n) so that
        // the axis carries at least three labels.
        const double decades = std::log10(hi / lo);
        const int n =
            decades >= 2 ? 1 : std::clamp(static_cast<int>(std::ceil(3 / decades)), 2, 20);
        l->setBase(std::pow(10.0, 1.0 / n));
        l->setLabelFormat(n == 1 ? "%.0e" : "%.3g");
        // A hair wider: Qt leaves out a label that sits exactly on the axis' end.
        l->setRange(lo * (1 - 1e-9), hi * (1 + 1e-9));
        l->setMinorTickCount(n == 1 ? -1 : 0);
        ay = l;
    } else {
        auto* v = new QValueAxis();
        const double pad = 0.05 * (y1 - y0);
        // A quantity that cannot be negative (a norm) never gets a negative axis.
        if (o.yMax > o.yMin)
            v->setRange(o.yMin, o.yMax);  // as zoomed on screen
        else
            v->setRange(y0 >= 0 ? std::max(0.0, y0 - pad) : y0 - pad, y1 + pad);
        v->setLabelFormat("%.3g");
        ay = v;
    }
    styleAxis(ax, o.xLabel.isEmpty() ? QStringLiteral("iteration") : o.xLabel);
    styleAxis(ay, o.yLabel.isEmpty() ? spec.yLabel : o.yLabel);
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    for (auto* s : chart->series()) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    // The figure's own legend: line samples long enough to tell solid from dashed, markers and
    // bands as drawn (Qt's legend draws short samples).
    chart->legend()->hide();
    if (std::any_of(bandOf.begin(), bandOf.end(), [](const GroupAggregate* a) { return a; }))
        legendEntries.push_back({QObject::tr("lines: mean over seeds; bands: %1")
                                     .arg(QString::fromUtf8(kBandName)),
                                 QPen(Qt::NoPen), QBrush(Qt::NoBrush), -1});
    if (o.legend != Qt::Alignment()) {
        QFont lf = chart->legend()->font();
        lf.setPointSizeF(sv.labelPt * 0.85);
        addFigureLegend(chart.get(), std::move(legendEntries), o.legend, QSizeF(o.size), lf,
                        sv.text);
    }
    chart->resize(o.size);
    return chart;
}

bool renderFigure(const ChartSpec& spec, const RunStore& store, const FigureOptions& o,
                  FigureFormat format, const QString& path, QString* error) {
    auto chart = buildFigureChart(spec, store, o);
    if (!chart) {
        if (error)
            *error = QObject::tr("%1: no visible run has data for this chart").arg(spec.title);
        return false;
    }
    QGraphicsScene scene;
    scene.addItem(chart.get());
    chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(o.size)));
    const QRectF source(QPointF(0, 0), QSizeF(o.size));

    const QString title = o.title.isEmpty() ? spec.title : o.title;
    const bool ok = renderPainting(
        [&](QPainter& p, const QRectF& area) {
            p.setRenderHint(QPainter::Antialiasing);
            scene.render(&p, area, source);
        },
        o.size, o.scale, format, path, title, o.metadata, error);
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
