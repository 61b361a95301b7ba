// Qt Charts implementation of ChartPanel: one QChart per panel for the axes, grid, title and
// interactions; one curve per (run, metric) plus a faint raw companion when smoothing is on,
// drawn from a decimated point list by the panel's LineLayer (the seed groups' bands by its
// BandLayer), not by Qt Charts series; animations are off.
#include <QApplication>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "charts/ChartPanel.h"
#include "charts/Decimate.h"
#include "charts/InteractiveChartView.h"
#include "charts/LegendBar.h"
#include "base/Palette.h"
#include "base/RichText.h"
#include "charts/BandLayer.h"
#include "charts/LineLayer.h"
#include "charts/QtSeriesEntry.h"
#include "charts/SymLog.h"
#include "charts/Ticks.h"
#include "runs/RunStore.h"
#include "runs/SeedGroups.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

namespace {

using namespace qtcharts;

// The trainer's wall-time column (seconds since the run started), the x of the time axis.
constexpr const char* kWallTimeColumn = "time_s";

// `c` at alpha `alpha` over the white plot background, as an opaque colour.
QColor overWhite(QColor c, int alpha) {
    auto mix = [&](int v) { return 255 - (255 - v) * alpha / 255; };
    return QColor(mix(c.red()), mix(c.green()), mix(c.blue()));
}

class QtChartPanel final : public ChartPanel {
  public:
    QtChartPanel(const ChartSpec& spec, QWidget* parent) : ChartPanel(parent), spec_(spec) {
        setObjectName(QStringLiteral("chart.") + spec.id);
        options_.logY = spec.scale == ade::AxisScale::Log;
        chart_ = new QChart();
        chart_->setAnimationOptions(QChart::NoAnimation);
        setChartTitle(spec.title);
        chart_->legend()->hide();  // LegendBar instead: compact, and no relayout per frame
        chart_->layout()->setContentsMargins(0, 0, 0, 0);
        chart_->setMargins(QMargins(4, 4, 8, 4));
        // Plain white, square corners: the theme's gradient in a rounded rectangle is filled
        // through Qt's thread pool on every frame (see applyStyle).
        chart_->setBackgroundBrush(Qt::white);
        chart_->setBackgroundRoundness(0);
        view_ = new InteractiveChartView(chart_, this);
        view_->onInteract = [this] {
            autoRange_ = false;
            refreshNow();
            emit interacted();
        };
        view_->onFit = [this] { fitToData(); };
        view_->onPaint = [this](double ms, double cpuMs) { emit painted(ms, cpuMs); };
        view_->onHover = [this](const QPointF& pos) { crosshair(pos); };
        view_->onLeave = [this] { hideCrosshair(); };
        crossLine_ = new QGraphicsLineItem(chart_);
        crossLine_->setPen(QPen(QColor(120, 120, 120), 0, Qt::DashLine));
        crossLine_->setZValue(100);
        crossLine_->hide();
        cursorLine_ = new QGraphicsLineItem(chart_);
        cursorLine_->setPen(QPen(QColor(40, 40, 40), 1.5, Qt::SolidLine));
        cursorLine_->setZValue(90);
        cursorLine_->hide();
        cursorText_ = new QGraphicsSimpleTextItem(chart_);
        cursorText_->setZValue(91);
        cursorText_->setBrush(QColor(40, 40, 40));
        cursorText_->hide();
        auto* lay = new QVBoxLayout(this);
        lay->setContentsMargins(0, 0, 0, 0);
        lay->setSpacing(0);
        lay->addWidget(view_, 1);
        legend_ = new LegendBar(this);
        lay->addWidget(legend_);
        connect(legend_, &LegendBar::toggled, this, [this](const QString& key) {
            if (hidden_.count(key))
                hidden_.erase(key);
            else
                hidden_.insert(key);
            refreshNow();
        });
        // The curves and bands are drawn by two items of the chart; one empty series holds the
        // axes' domain, which Qt Charts' zoom, scroll and rubber band act on.
        anchor_ = new QLineSeries;
        chart_->addSeries(anchor_);
        makeAxes();
        bandLayer_ = new BandLayer(chart_, [this] { return plotMapping(); });
        lineLayer_ = new LineLayer(chart_, [this] { return plotMapping(); });
        // A new plot area: the ticks, the time cursor, and where every curve and band lands.
        connect(chart_, &QChart::plotAreaChanged, this, [this] {
            placeTicks();
            placeCursor();
            bandLayer_->syncMapping();
            lineLayer_->syncMapping();
        });
        applyStyle();
    }

    void setOptions(const ChartOptions& o) override {
        const bool axesChange = o.logX != options_.logX || o.logY != options_.logY ||
                                o.symLogY != options_.symLogY || o.wallTime != options_.wallTime;
        const bool styleChange = o.presentation != options_.presentation;
        if (o.seedBands != options_.seedBands) autoRange_ = true;
        options_ = o;
        if (axesChange) {
            makeAxes();
            autoRange_ = true;
        }
        if (styleChange) applyStyle();
        refreshNow();
    }
    ~QtChartPanel() override { aggregates_->forget(this); }
    const ChartOptions& options() const override { return options_; }
    void shareAggregates(std::shared_ptr<AggregateCache> cache) override {
        aggregates_->forget(this);
        aggregates_ = std::move(cache);
        for (auto& [key, e] : entries_)
            for (DecimateCache* c : {&e.decimation, &e.loCache, &e.hiCache})
                c->valid = false;
    }

    void refresh(const RunStore& store, bool force) override {
        store_ = &store;
        if (!force && store.revision() == revision_) return;
        revision_ = store.revision();
        rebuild();
    }
    void fitToData() override {
        autoRange_ = true;
        untidyAxes();
        refreshNow();
    }
    QString title() const override { return spec_.title; }
    const ChartSpec& spec() const override { return spec_; }
    QStringList seriesNames() const override {
        QStringList out;
        for (const auto& [key, e] : entries_)
            if (!e.raw || options_.smoothing <= 0) out << e.name;
        return out;
    }
    int drawnPoints() const override { return drawn_; }
    void setSeriesHidden(const QString& label, bool hidden) override {
        for (const LegendEntry& e : legendItems_)
            if (e.label == label) {
                if (hidden)
                    hidden_.insert(e.key);
                else
                    hidden_.erase(e.key);
            }
        refreshNow();
    }

  private:
    // The column's description for the run's experiment, looked up once per pair.
    struct Described {
        bool accepted;
        QString label, meaning;
    };
    const Described& described(const RunRecord& r, const std::string& column) {
        const auto key = std::make_pair(r.config.experiment(), column);
        auto it = described_.find(key);
        if (it == described_.end()) {
            const ade::MetricInfo m = ade::describeColumn(key.first, column);
            it = described_
                     .emplace(key, Described{QString::fromStdString(m.chart) == spec_.id,
                                             QString::fromStdString(m.label),
                                             QString::fromStdString(m.meaning)})
                     .first;
        }
        return it->second;
    }
    // The papers' notation drawn: "‖W_Q‖_F" with real subscripts (rich text), else as it is.
    static QString shownText(const QString& plain) {
        const QString html = subscriptHtml(plain);
        return html.isEmpty() ? plain : html;
    }
    void setChartTitle(const QString& plain) {
        if (plain == titlePlain_) return;
        titlePlain_ = plain;
        chart_->setTitle(shownText(plain));
    }
    bool accepts(const RunRecord& r, const std::string& c) { return described(r, c).accepted; }
    QString label(const RunRecord& r, const std::string& c) { return described(r, c).label; }
    QString meaning(const RunRecord& r, const std::string& c) { return described(r, c).meaning; }

    // A run of the store, or (id < 0) the mean record of the group whose first seed is -id.
    const RunRecord* record(int id) const {
        if (id >= 0) return store_->run(id);
        const GroupAggregate* a = aggregates_->find(-id);
        return a ? &a->mean() : nullptr;
    }

    bool isHidden(const SeriesEntry& e) const {
        return hidden_.count(QStringLiteral("m:") + QString::fromStdString(e.column)) ||
               hidden_.count(QStringLiteral("r:") + QString::number(e.runId));
    }
    void refreshNow() {
        if (store_) rebuild();
    }

    void makeAxes() {
        for (QAbstractAxis* a : chart_->axes()) {
            chart_->removeAxis(a);
            delete a;
        }
        auto make = [&](bool log, bool isX) -> QAbstractAxis* {
            if (log) {
                auto* a = new QLogValueAxis;
                a->setBase(10);
                a->setLabelFormat(isX ? QStringLiteral("%g") : QStringLiteral("%.0e"));
                a->setMinorTickCount(0);
                return a;
            }
            // Linear: labels at round values that this panel chooses (Ticks.h), not Qt's.
            auto* a = new QCategoryAxis;
            a->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
            return a;
        };
        xAxis_ = make(options_.logX, true);
        if (options_.symLogY && !options_.logY) {
            yAxis_ = new QCategoryAxis;
            symLo_ = symHi_ = 0;
        } else {
            yAxis_ = make(options_.logY, false);
        }
        chart_->addAxis(xAxis_, Qt::AlignBottom);
        chart_->addAxis(yAxis_, Qt::AlignLeft);
        // A log axis maps the curves but Qt labels it by a printf format ("1e-03"), at powers of
        // its base only: it is hidden, and a linear axis over log10 of its range draws the
        // labels and grid at the values this panel picks (logTicks: "0.001", "10⁻⁶", "0.012").
        for (int i = 0; i < 2; ++i) {
            logLabels_[i] = nullptr;
            auto* log = qobject_cast<QLogValueAxis*>(i == 0 ? xAxis_ : yAxis_);
            if (!log) continue;
            auto* labels = new QCategoryAxis;
            labels->setObjectName(i == 0 ? QStringLiteral("logLabelsX") : QStringLiteral("logLabelsY"));
            labels->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
            log->setVisible(false);
            chart_->addAxis(labels, i == 0 ? Qt::AlignBottom : Qt::AlignLeft);
            logLabels_[i] = labels;
            connect(log, &QLogValueAxis::rangeChanged, labels, [this, labels](qreal lo, qreal hi) {
                if (lo > 0 && hi > lo) labels->setRange(std::log10(lo), std::log10(hi));
                placeTicks();
            });
        }
        drawnAxis(xAxis_)->setTitleText(options_.wallTime ? tr("wall time (s)") : tr("iteration"));
        drawnAxis(yAxis_)->setTitleText(shownText(spec_.yLabel));
        for (auto& [key, e] : entries_) {
            clearEntry(e);  // refilled for the new axes; old points may be <= 0
            e.decimation.valid = false;  // the x values may be others (wall time)
            e.rangeScanned = 0;  // the range is of other values (transformed or not)
            e.rangeAny = false;
            e.symRaw.clear();
            e.symEma.clear();
            e.symLo.clear();
            e.symHi.clear();
            e.loCache.valid = e.hiCache.valid = false;
            e.bandScanned = 0;
            e.bandAny = false;
        }
        anchor_->attachAxis(xAxis_);
        anchor_->attachAxis(yAxis_);
        applyStyle();
    }

    // The axis a user sees for `a`: its log labels' axis when it is a log axis.
    QAbstractAxis* drawnAxis(QAbstractAxis* a) const {
        QCategoryAxis* labels = logLabels_[a == xAxis_ ? 0 : 1];
        return labels ? labels : a;
    }

    void applyStyle() {
        // Presentation mode: large titles, ticks and legends, readable from the back of a room.
        QFont f = QApplication::font();
        f.setPointSizeF(f.pointSizeF() * (options_.presentation ? 1.5 : 0.9));
        QFont tf = f;
        tf.setBold(true);
        chart_->setTitleFont(tf);
        chart_->legend()->setFont(f);
        legend_->setFont(f);
        for (QAbstractAxis* a : chart_->axes()) {
            a->setLabelsFont(f);
            a->setTitleFont(f);
            // Opaque: black at alpha 30 over the white plot. Translucent pens make Qt's raster
            // engine split every long line's fill over its thread pool and wait for it, which
            // costs more than the drawing itself and stalls when the solvers hold the cores.
            a->setGridLineColor(QColor(225, 225, 225));
        }
    }

    void deleteEntry(SeriesEntry& e) {
        lineLayer_->remove(e.key);
        if (e.band) bandLayer_->remove(e.key);
    }
    void clearEntry(SeriesEntry& e) {
        lineLayer_->setLine(e.key, {});
        if (e.band) bandLayer_->setBand(e.key, {}, {});
    }
    // Where the curves' axis units land: the plot area and the mapped axes' ranges.
    PlotMapping plotMapping() const {
        PlotMapping m;
        m.plot = chart_->plotArea();
        if (!xAxis_ || !yAxis_) return m;
        m.x0 = axisMin(xAxis_);
        m.x1 = axisMax(xAxis_);
        m.y0 = axisMin(yAxis_);
        m.y1 = axisMax(yAxis_);
        m.logX = qobject_cast<QLogValueAxis*>(xAxis_) != nullptr;
        m.logY = qobject_cast<QLogValueAxis*>(yAxis_) != nullptr;
        return m;
    }

    // What the chart draws: every visible run, except that the seeds of one group become one
    // mean record (the group's aggregate, brought up to date here) unless seeds are shown
    // separately. Entries of an aggregate whose past records changed (a slower seed reached
    // them) recompute from there.
    std::vector<const RunRecord*> drawnRuns() {
        const auto visible = store_->visibleRuns();
        if (!options_.seedBands) {
            aggregates_->forget(this);  // asked again, it starts from record 0
            setChartTitle(spec_.title);
            return visible;
        }
        std::vector<const RunRecord*> out;
        std::set<int> live;
        groupNames_.clear();
        for (const SeedGroup& g : seedGroups(visible)) {
            if (!g.grouped()) {
                out.push_back(&g.first());
                continue;
            }
            const int id = g.first().id;
            live.insert(id);
            std::size_t from = 0;
            RecordSpans changed;
            const GroupAggregate& agg =
                aggregates_->update(g, store_->revision(), this, from, &changed);
            groupNames_[-id] = groupLegendName(g);
            out.push_back(&agg.mean());
            if (from == SIZE_MAX) continue;  // nothing changed since this chart last drew it
            for (auto& [key, e] : entries_) {
                if (e.runId != -id) continue;
                // The decimation resumes at the bucket that holds the first changed record; a
                // pyramid and the running ranges take in the changed spans only.
                for (DecimateCache* cache : {&e.decimation, &e.loCache, &e.hiCache}) {
                    cache->changedFrom = std::min(cache->changedFrom, from);
                    for (const auto& [a, b] : changed)
                        addSpan(cache->changedSpans, a, b);
                }
                for (const auto& [a, b] : changed) {
                    addSpan(e.rangeRescan, a, b);
                    addSpan(e.bandRescan, a, b);
                }
                if (from < e.ema.size()) e.ema.clear(), e.emaState = {};
                if (from < e.symRaw.size()) e.symRaw.resize(from);
                if (from < e.symEma.size()) e.symEma.clear();
                e.symLo.clear();
                e.symHi.clear();
            }
        }
        aggregates_->prune(live, store_->revision());
        setChartTitle(spec_.title);  // what a band is, the legend says once
        return out;
    }
    QString runName(const RunRecord& r) const {
        const auto it = groupNames_.find(r.id);
        return it == groupNames_.end() ? r.name : it->second;
    }

    // Creates, updates and drops curves to match the visible runs, then fills them.
    void rebuild() {
        const auto runs = drawnRuns();
        std::set<QString> wanted;
        std::map<std::string, int> columnIndex;  // metric -> order in this chart
        for (const RunRecord* r : runs)
            for (const auto& c : r->columns)
                if (accepts(*r, c) && !columnIndex.count(c))
                    columnIndex.emplace(c, static_cast<int>(columnIndex.size()));
        const bool smooth = options_.smoothing > 0;
        // One run alone takes the metrics' colours; a group's mean is never alone: its legend
        // entry says what the band is.
        const bool single = runs.size() == 1 && runs.front()->id >= 0;
        const bool oneMetric = columnIndex.size() == 1;
        auto keyOf = [](const RunRecord* r, const std::string& c, bool raw) {
            return QStringLiteral("%1|%2|%3").arg(r->id).arg(QString::fromStdString(c)).arg(raw ? 'r' : 's');
        };
        // 1-px lines go through Qt's fast cosmetic stroker: dashed curves of thousands of points
        // paint ~50x faster than at 1.8 px (measured: 500 ms -> 7 ms per frame at 100k points).
        const double width = options_.presentation ? 3.0 : 1.0;  // thick lines on a projector
        const bool projector = options_.presentation;
        for (const RunRecord* r : runs) {
            for (const auto& c : r->columns) {
                if (!accepts(*r, c)) continue;
                const int ci = columnIndex[c];
                for (bool raw : {false, true}) {
                    if (raw && !smooth) continue;
                    const QString key = keyOf(r, c, raw);
                    wanted.insert(key);
                    SeriesEntry& e = entries_[key];
                    if (e.key.isEmpty()) {
                        e.key = key;
                        e.band = !raw && r->id < 0;  // a group's mean: its seeds' min-max band
                        e.runId = r->id;
                        e.column = c;
                        e.raw = raw;
                    }
                    const QString metric = label(*r, c);
                    e.name = single ? metric : runName(*r) + QStringLiteral(" · ") + metric;
                    const QColor base = seriesColor(single ? ci : r->colorIndex, projector);
                    // Metrics differ by line style; on a chart of one metric the style is the
                    // run's own (runPenStyle: dashed, dotted... past the eighth colour).
                    const Qt::PenStyle style = raw           ? Qt::SolidLine
                                               : single      ? paletteStyle(ci)
                                               : oneMetric   ? runPenStyle(r->colorIndex)
                                                             : paletteStyle(ci);
                    QColor col = raw ? overWhite(base, 60) : base;  // faint; opaque
                    const auto has = [&](const std::vector<int>& ids) {
                        return std::find(ids.begin(), ids.end(), r->id) != ids.end();
                    };
                    // A lesson's highlighted run: thicker; the rest of its comparison faint but
                    // still readable from the back of a hall (40% of the colour).
                    const bool bold = has(options_.emphasisedRuns);
                    if (has(options_.dimmedRuns)) col = overWhite(col, 102);
                    e.pen = QPen(col, raw ? 1.0 : bold ? width + 2.0 : width, style);
                    e.visible = !isHidden(e);
                    lineLayer_->setStyle(key, e.pen, e.name, e.visible, raw);
                    if (e.band)  // opaque (see applyStyle): translucent fills stall the raster engine
                        bandLayer_->setStyle(key, QBrush(overWhite(base, projector ? 70 : 50)), !isHidden(e));
                }
            }
        }
        for (auto it = entries_.begin(); it != entries_.end();) {
            if (!wanted.count(it->first)) {
                deleteEntry(it->second);
                it = entries_.erase(it);
            } else {
                ++it;
            }
        }
        fill(runs);
        updateLegend(runs, columnIndex);
        placeCursor();  // the axes' range may have moved
    }

    void updateLegend(const std::vector<const RunRecord*>& runs,
                      const std::map<std::string, int>& columnIndex) {
        std::vector<LegendEntry> items;
        std::vector<std::pair<int, std::string>> order;
        for (const auto& [c, i] : columnIndex)
            order.emplace_back(i, c);
        std::sort(order.begin(), order.end());
        const bool single = runs.size() == 1 && runs.front()->id >= 0;
        for (const auto& [i, c] : order) {
            LegendEntry e;
            for (const RunRecord* r : runs)
                if (r->column(c) >= 0) {
                    e.label = label(*r, c);
                    e.tip = meaning(*r, c);
                    break;
                }
            e.key = QStringLiteral("m:") + QString::fromStdString(c);
            e.notation = true;  // drawn with its subscripts
            e.pen = QPen(single ? seriesColor(i, options_.presentation) : QColor(60, 60, 60),
                         options_.presentation ? 3 : 2, paletteStyle(i));
            e.hidden = hidden_.count(e.key) > 0;
            items.push_back(e);
        }
        if (!single)
            for (const RunRecord* r : runs) {
                LegendEntry e;
                e.label = runName(*r);
                e.key = QStringLiteral("r:") + QString::number(r->id);
                e.pen = QPen(seriesColor(r->colorIndex, options_.presentation), 2,
                             runPenStyle(r->colorIndex));
                e.swatch = true;
                e.band = r->id < 0;
                if (e.band)
                    e.tip = tr("The mean over the seeds that have reached each record; the band "
                               "spans their lowest and highest value (min–max). View > Show "
                               "seeds separately draws each seed.");
                e.hidden = hidden_.count(e.key) > 0;
                items.push_back(e);
            }
        // A hidden metric or run that this chart no longer shows (another experiment, a run
        // removed) is forgotten: nothing stays hidden without a struck-out entry saying so.
        for (auto it = hidden_.begin(); it != hidden_.end();)
            if (std::none_of(items.begin(), items.end(),
                             [&](const LegendEntry& e) { return e.key == *it; }))
                it = hidden_.erase(it);
            else
                ++it;
        for (LegendEntry& e : items)
            e.hidden = hidden_.count(e.key) > 0;
        const bool changed = items.size() != legendItems_.size() ||
                             !std::equal(items.begin(), items.end(), legendItems_.begin(),
                                         sameLegendEntry);
        if (!changed) return;
        legendItems_ = std::move(items);
        // Its own legend's buttons only when it shows one (the grid's legend merges ours).
        if (!legend_->isHidden()) legend_->setEntries(legendItems_);
        emit legendChanged();
    }
    const std::vector<LegendEntry>& legendEntries() const override { return legendItems_; }
    void setLegendKeyHidden(const QString& key, bool hidden) override {
        if (hidden == (hidden_.count(key) > 0)) return;
        if (hidden)
            hidden_.insert(key);
        else
            hidden_.erase(key);
        refreshNow();
    }
    void setOwnLegendShown(bool shown) override {
        legend_->setEntries(shown ? legendItems_ : std::vector<LegendEntry>{});
        legend_->setVisible(shown);
    }
    QRectF plotArea() const override { return chart_->plotArea(); }
    QStringList tickTexts(Qt::Orientation o) const override {
        auto* cat = qobject_cast<QCategoryAxis*>(drawnAxis(o == Qt::Horizontal ? xAxis_ : yAxis_));
        return cat ? cat->categoriesLabels() : QStringList();
    }

    bool symLog() const { return options_.symLogY && !options_.logY; }
    // The values the curve draws: raw or smoothed, symmetric-log transformed on such an axis.
    const std::vector<double>* yData(SeriesEntry& e, const RunRecord& r) {
        const std::vector<double>* y = yValues(e, r);
        if (!y || !symLog()) return y;
        std::vector<double>& out = y == &e.ema ? e.symEma : e.symRaw;
        extendSymLog(*y, out);
        return &out;
    }
    const std::vector<double>* yValues(SeriesEntry& e, const RunRecord& r) {
        const int c = r.column(e.column);
        if (c < 0) return nullptr;
        if (e.raw || options_.smoothing <= 0) return &r.data[c];
        if (e.emaWeight != options_.smoothing || e.ema.size() > r.data[c].size()) {
            e.ema.clear();
            e.emaState = {};
            e.emaWeight = options_.smoothing;
        }
        extendEma(r.data[c], e.emaWeight, e.ema, e.emaState);
        return &e.ema;
    }

    // A run's x values: its iterations, or with the wall-time option the seconds since it
    // started (the trainer's time column; a run without one keeps its iterations).
    const std::vector<double>& xData(const RunRecord& r) const {
        if (options_.wallTime)
            if (const int c = r.column(kWallTimeColumn); c >= 0) return r.data[static_cast<std::size_t>(c)];
        return r.data[0];
    }
    // Where a log x axis starts for these x values: iteration 1, or the first positive time.
    double logXStart(const std::vector<double>& xs) const {
        if (!options_.wallTime) return std::max(1.0, xs.front());
        const auto it = std::upper_bound(xs.begin(), xs.end(), 0.0);
        return it == xs.end() ? 1.0 : *it;
    }

    void fill(const std::vector<const RunRecord*>& runs) {
        double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
        // Axis ends stay finite: a diverged run's values near the largest double would round up
        // to 10^309 = inf, and Qt's log axis then lays out an unbounded number of ticks (the GUI
        // thread filled gigabytes in ChartLogValueAxisY::calculateLayout until killed).
        static constexpr double kMaxExp10 = 307, kMaxEnd = 1e307;
        auto pow10 = [](double e) { return std::pow(10.0, std::min(e, kMaxExp10)); };
        if (autoRange_) {
            bool anyX = false, anyY = false;
            for (auto& [key, e] : entries_) {
                const RunRecord* r = record(e.runId);
                if (!r || r->size() == 0 || !e.visible) continue;
                const auto& xs = xData(*r);
                const double lo = options_.logX ? logXStart(xs) : xs.front();
                x0 = anyX ? std::min(x0, lo) : lo;
                x1 = anyX ? std::max(x1, xs.back()) : xs.back();
                anyX = true;
                const int c = r->column(e.column);
                const std::vector<double>* rangeOf = c < 0 ? nullptr : &r->data[c];
                if (rangeOf && symLog()) {
                    extendSymLog(*rangeOf, e.symRaw);
                    rangeOf = &e.symRaw;
                }
                if (rangeOf && updateRange(e, *rangeOf, options_.logY)) {
                    y0 = anyY ? std::min(y0, e.rangeLo) : e.rangeLo;
                    y1 = anyY ? std::max(y1, e.rangeHi) : e.rangeHi;
                    anyY = true;
                }
                if (const auto band = bandData(e); band.first &&
                    updateBandRange(e, *band.first, *band.second, options_.logY)) {
                    y0 = anyY ? std::min(y0, e.bandMin) : e.bandMin;
                    y1 = anyY ? std::max(y1, e.bandMax) : e.bandMax;
                    anyY = true;
                }
            }
            if (!anyX) x0 = options_.logX ? 1 : 0, x1 = options_.logX ? 10 : 1;
            if (x1 <= x0) x1 = x0 + 1;
            if (options_.logX) {  // starts on a power of ten: Qt places log labels right then
                x0 = pow10(std::floor(std::log10(x0)));
                if (x1 <= x0) x1 = x0 * 10;  // ends where the data end, not at the next power
            }
            if (!anyY) y0 = options_.logY ? 1e-3 : 0, y1 = 1;
            if (options_.logY) {
                y0 = std::max(y0, y1 * 1e-14);
                y0 = pow10(std::floor(std::log10(y0)));
                y1 = pow10(std::ceil(std::log10(y1)));
                // Labels sit on powers of ten only: show at least two decades so that a curve
                // within one decade still has labelled ticks below and above it.
                if (y1 < y0 * 100) y0 = y1 / 100;
                // At most about six labelled ticks: a tick every 1, 2 or 3 decades.
                const double decades = std::log10(y1 / y0);
                const int step = decades > 12 ? 3 : decades > 6 ? 2 : 1;
                auto* ly = static_cast<QLogValueAxis*>(yAxis_);
                if (ly->base() != std::pow(10.0, step)) ly->setBase(std::pow(10.0, step));
                y0 = pow10(step * std::floor(std::log10(y0) / step));
                y1 = pow10(step * std::ceil(std::log10(y1) / step));
            } else {
                const double pad =
                    y1 > y0 ? 0.05 * y1 - 0.05 * y0 : std::max(1e-12, std::abs(y0) * 0.1);
                // A quantity that cannot be negative (a norm) never gets a negative axis.
                y0 = y0 >= 0 ? std::max(0.0, y0 - pad) : std::max(-kMaxEnd, y0 - pad);
                y1 = std::min(kMaxEnd, y1 + pad);
            }
            // Linear ranges end on 1-2-5 values. Computed here and set only when they moved:
            // during a run the rounded ranges change rarely, and each change maps every curve
            // and band again and repaints the plot.
            for (auto [ax, lo, hi] : {std::tuple{xAxis_, &x0, &x1}, std::tuple{yAxis_, &y0, &y1}})
                if (qobject_cast<QCategoryAxis*>(ax) && !(ax == yAxis_ && symLog())) {
                    int ticks = 5;
                    looseNiceNumbers(*lo, *hi, ticks);
                }
            setAxisRange(xAxis_, x0, x1);
            if (options_.logY) {  // a hair wider: Qt leaves out a label exactly on an end
                y0 *= 1 - 1e-9;
                y1 *= 1 + 1e-9;
            }
            setAxisRange(yAxis_, y0, y1);
            if (auto* cat = qobject_cast<QCategoryAxis*>(yAxis_); symLog() && cat && (y0 != symLo_ || y1 != symHi_)) {
                setSymLogLabels(cat, y0, y1);
                symLo_ = y0;
                symHi_ = y1;
            }
            x0 = axisMin(xAxis_);
            x1 = axisMax(xAxis_);
            y0 = axisMin(yAxis_);
        } else {
            tidyZoomedAxes();
            x0 = axisMin(xAxis_);
            x1 = axisMax(xAxis_);
            y0 = axisMin(yAxis_);
        }
        placeTicks();
        DecimateRequest req;
        req.x0 = x0;
        req.x1 = x1;
        // Buckets two pixels wide: min and max per bucket is one point per pixel on average,
        // visually the same envelope at half the stroking cost of one bucket per pixel.
        const double plotWidth = chart_->plotArea().width() < 10 ? 800 : chart_->plotArea().width();
        req.pixels = std::max(50, static_cast<int>(plotWidth / 2));
        req.logX = options_.logX;
        req.logY = options_.logY;
        // Below the visible range a curve leaves the plot (three decades under its bottom edge,
        // clipped) instead of running along the edge as if it were data.
        req.yFloor = options_.logY ? std::max(y0 * 1e-3, 1e-300) : 0.0;
        drawn_ = 0;
        // The axes are set: the layers map this frame's points, and remap the old ones if a
        // range moved, once.
        bandLayer_->syncMapping();
        lineLayer_->syncMapping();
        for (auto& [key, e] : entries_) {
            const RunRecord* r = record(e.runId);
            if (!e.visible) continue;  // filled again when shown
            const std::vector<double>* ys = r ? yData(e, *r) : nullptr;
            if (!ys || r->data.empty()) {
                clearEntry(e);
                continue;
            }
            const double tag = e.raw ? -1.0 : options_.smoothing;
            const QList<QPointF>& pts = decimateCached(xData(*r), *ys, req, tag, e.decimation);
            drawn_ += static_cast<int>(pts.size());
            lineLayer_->setLine(e.key, pts);
            if (const auto band = bandData(e); band.first) {
                const QList<QPointF>& lo = decimateCached(xData(*r), *band.first, req, 0, e.loCache);
                const QList<QPointF>& hi = decimateCached(xData(*r), *band.second, req, 0, e.hiCache);
                bandLayer_->setBand(e.key, lo, hi);
                drawn_ += static_cast<int>(lo.size() + hi.size());
            }
        }
        (void)runs;
    }

    // The linear axes' ticks: round values whose labels fit the plot's width and height
    // (Ticks.h); again whenever the range or the plot area changes. Zero reads "0".
    void placeTicks() {
        if (placingTicks_) return;  // new labels may move the plot area, which calls again
        placingTicks_ = true;
        const QRectF area = chart_->plotArea();
        for (QAbstractAxis* mapped : {xAxis_, yAxis_}) {
            QAbstractAxis* a = drawnAxis(mapped);
            auto* cat = qobject_cast<QCategoryAxis*>(a);
            if (!cat || (a == yAxis_ && symLog())) continue;
            const bool horizontal = mapped == xAxis_;
            double pixels = horizontal ? area.width() : area.height();
            if (pixels < 20) pixels = horizontal ? 400 : 200;  // not laid out yet
            const auto* log = qobject_cast<QLogValueAxis*>(mapped);
            if (log && log->min() > 0 && log->max() > log->min() &&
                (cat->min() != std::log10(log->min()) || cat->max() != std::log10(log->max())))
                cat->setRange(std::log10(log->min()), std::log10(log->max()));
            const std::vector<Tick> ticks =
                log ? logTicks(log->min(), log->max(), pixels, a->labelsFont(), horizontal)
                    : fittingTicks(cat->min(), cat->max(), pixels, a->labelsFont(), horizontal);
            setAxisTicks(cat, ticks);
            if (horizontal) {
                // The last label is centred on the right end: the margin makes room for its
                // right half, so "300" is not cut to "30".
                const double half =
                    ticks.empty() ? 0 : QFontMetricsF(a->labelsFont()).horizontalAdvance(ticks.back().text) / 2;
                const int right = std::max(8, static_cast<int>(std::ceil(half)) + 2);
                if (chart_->margins().right() != right) chart_->setMargins(QMargins(4, 4, right, 4));
            }
        }
        placingTicks_ = false;
    }

    // The band of a group's mean entry: the seeds' min and max of its column (symmetric-log
    // transformed on such an axis); nulls for any other entry.
    std::pair<const std::vector<double>*, const std::vector<double>*> bandData(SeriesEntry& e) {
        if (!e.band || e.runId >= 0) return {nullptr, nullptr};
        const GroupAggregate* a = aggregates_->find(-e.runId);
        if (!a) return {nullptr, nullptr};
        const int c = a->mean().column(e.column);
        if (c < 0) return {nullptr, nullptr};
        const std::vector<double>* lo = &a->lo(c);
        const std::vector<double>* hi = &a->hi(c);
        if (!symLog()) return {lo, hi};
        extendSymLog(*lo, e.symLo);
        extendSymLog(*hi, e.symHi);
        return {&e.symLo, &e.symHi};
    }

    // After a zoom or pan the ranges are wherever the mouse left them: placeTicks() puts the
    // ticks at round values of the new range (linear: 1-2-5 steps; log: powers of ten, 1-2-5
    // inside a decade or two, round linear steps inside one).
    void tidyZoomedAxes() { placeTicks(); }
    // Automatic ranges again: the same ticks for the ranges fill() sets.
    void untidyAxes() { placeTicks(); }

    // The crosshair: at the pointer's iteration (or wall time), every visible curve's recorded
    // value (the nearest record of each run), so nobody has to aim at a 1-px line.
    void crosshair(const QPointF& pos) {
        const QRectF area = chart_->plotArea();
        if (!store_ || !area.contains(pos) || entries_.empty()) return hideCrosshair();
        if (std::none_of(entries_.begin(), entries_.end(), [](const auto& kv) { return kv.second.visible; }))
            return hideCrosshair();
        const double x = chart_->mapToValue(pos, anchor_).x();
        crossLine_->setLine(QLineF(pos.x(), area.top(), pos.x(), area.bottom()));
        crossLine_->show();
        // Each curve's nearest record; the header names the record nearest the pointer over
        // all curves (not the last curve's: a short run's end is not where the pointer is).
        struct Hit {
            const SeriesEntry* e;
            const RunRecord* r;
            int c;
            std::size_t i;
        };
        std::vector<Hit> hits;
        double shownX = -1, nearest = std::numeric_limits<double>::infinity();
        for (auto& [key, e] : entries_) {
            if (e.raw || !e.visible) continue;
            const RunRecord* r = record(e.runId);
            const int c = r ? r->column(e.column) : -1;
            if (c < 0 || r->size() == 0) continue;
            const auto& xs = xData(*r);
            auto it = std::lower_bound(xs.begin(), xs.end(), x);
            std::size_t i = static_cast<std::size_t>(std::min<std::ptrdiff_t>(
                it - xs.begin(), static_cast<std::ptrdiff_t>(xs.size()) - 1));
            if (i > 0 && std::abs(xs[i - 1] - x) < std::abs(xs[i] - x)) --i;
            if (std::abs(xs[i] - x) < nearest) {
                nearest = std::abs(xs[i] - x);
                shownX = xs[i];
            }
            hits.push_back({&e, r, c, i});
        }
        QString rows;
        for (const auto& [ep, r, c, i] : hits) {
            const SeriesEntry& e = *ep;
            const auto& xs = xData(*r);
            QString value = QString::number(r->data[c][i], 'g', 6);
            // A run whose records end before the pointer: its last value, and where it ended.
            if (i + 1 == xs.size() && xs[i] < shownX)
                value += options_.wallTime ? tr(" (ended at %1 s)").arg(xs[i], 0, 'g', 4)
                                           : tr(" (ended at iteration %1)").arg(static_cast<long>(xs[i]));
            if (options_.wallTime)  // runs differ in speed: say where each one is
                value += QStringLiteral(" (iteration %1)").arg(static_cast<long>(r->data[0][i]));
            if (options_.smoothing > 0 && i < e.ema.size())
                value += QStringLiteral(" (smoothed %1)").arg(e.ema[i], 0, 'g', 6);
            if (const GroupAggregate* a = e.runId < 0 ? aggregates_->find(-e.runId) : nullptr)
                value += tr(" (mean of %1 seeds, %2 – %3)")
                             .arg(i < a->seeds().size() ? a->seeds()[i] : 0)
                             .arg(a->lo(c)[i], 0, 'g', 4)
                             .arg(a->hi(c)[i], 0, 'g', 4);
            const QColor colour = e.pen.color();
            rows += QStringLiteral("<tr><td><font color=\"%1\">&#9632;</font> %2</td>"
                                   "<td align=right>&nbsp;%3</td></tr>")
                        .arg(colour.name(),
                             (runName(*r) + QStringLiteral(" · ")).toHtmlEscaped() + richLabel(label(*r, e.column)),
                             value);
        }
        if (rows.isEmpty()) return hideCrosshair();
        const QString at = options_.wallTime ? tr("wall time %1 s").arg(shownX, 0, 'g', 4)
                                             : tr("iteration %1").arg(static_cast<long>(shownX));
        const QString text = QStringLiteral("<b>%1</b><table>%2</table>").arg(at, rows);
        if (text != crossText_) {
            crossText_ = text;
            QToolTip::showText(view_->mapToGlobal(pos.toPoint() + QPoint(16, 16)), text, view_);
        }
    }
    void hideCrosshair() {
        crossLine_->hide();
        crossText_.clear();
        QToolTip::hideText();
    }
    QString crosshairText() const override { return crossText_; }

    void setCursorLine(double x, const QString& label) override {
        cursorX_ = x;
        cursorLabel_ = label;
        placeCursor();
    }
    double cursorLineX() const override { return cursorX_; }
    double cursorLinePosition() const override {
        return cursorLine_->isVisible() ? cursorLine_->line().x1()
                                        : std::numeric_limits<double>::quiet_NaN();
    }
    // The cursor's line from the x axis' range and the plot area (no series needed, so it is
    // drawn on an empty chart too); hidden outside the range or at x <= 0 on a log axis.
    void placeCursor() {
        const QRectF area = chart_->plotArea();
        const double lo = axisMin(xAxis_), hi = axisMax(xAxis_);
        double t = std::numeric_limits<double>::quiet_NaN();
        if (std::isfinite(cursorX_) && hi > lo) {
            if (options_.logX) {
                if (cursorX_ > 0 && lo > 0) t = std::log(cursorX_ / lo) / std::log(hi / lo);
            } else {
                t = (cursorX_ - lo) / (hi - lo);
            }
        }
        if (!(t >= 0 && t <= 1) || area.width() <= 0) {
            cursorLine_->hide();
            cursorText_->hide();
            return;
        }
        const double px = area.left() + t * area.width();
        cursorLine_->setLine(QLineF(px, area.top(), px, area.bottom()));
        cursorLine_->show();
        cursorText_->setFont(xAxis_->labelsFont());
        cursorText_->setText(cursorLabel_);
        const QRectF box = cursorText_->boundingRect();
        // Right of the line, or left of it near the right edge; always inside the plot.
        double tx = px + 4 + box.width() > area.right() ? px - 4 - box.width() : px + 4;
        tx = std::max(area.left() + 2, std::min(tx, area.right() - box.width() - 2));
        cursorText_->setPos(tx, area.top() + 2);
        cursorText_->setVisible(!cursorLabel_.isEmpty());
    }
    QStringList hiddenKeys() const override {
        QStringList out;
        for (const QString& k : hidden_)
            out << k;
        return out;
    }
    bool zoomed() const override { return !autoRange_; }
    void visibleRange(double& x0, double& x1, double& y0, double& y1) const override {
        x0 = axisMin(xAxis_);
        x1 = axisMax(xAxis_);
        y0 = axisMin(yAxis_);
        y1 = axisMax(yAxis_);
    }

    ChartSpec spec_;
    std::map<std::pair<std::string, std::string>, Described> described_;
    ChartOptions options_;
    QChart* chart_ = nullptr;
    InteractiveChartView* view_ = nullptr;
    QAbstractAxis* xAxis_ = nullptr;
    QAbstractAxis* yAxis_ = nullptr;
    QCategoryAxis* logLabels_[2] = {nullptr, nullptr};  // a log x / y axis' labels (makeAxes)
    std::map<QString, SeriesEntry> entries_;
    // The groups' aggregates: the chart area's, shared by its charts; a chart alone its own.
    std::shared_ptr<AggregateCache> aggregates_ = std::make_shared<AggregateCache>();
    std::map<int, QString> groupNames_;         // legend names of the drawn groups (by -id)
    std::set<QString> hidden_;  // legend keys: "m:<metric>", "r:<run id>"
    LegendBar* legend_ = nullptr;               // its own legend (a panel alone)
    std::vector<LegendEntry> legendItems_;      // what its legend says, shown or merged
    const RunStore* store_ = nullptr;
    quint64 revision_ = ~0ull;
    bool autoRange_ = true;
    QLineSeries* anchor_ = nullptr;   // empty: the axes' domain for zoom and scroll
    BandLayer* bandLayer_ = nullptr;  // the seed groups' bands, under the lines
    LineLayer* lineLayer_ = nullptr;  // the curves
    int drawn_ = 0;
    double symLo_ = 0, symHi_ = 0;  // the range the symmetric-log labels were made for
    bool placingTicks_ = false;
    QGraphicsLineItem* crossLine_ = nullptr;
    QString crossText_;
    QGraphicsLineItem* cursorLine_ = nullptr;  // time travel
    QGraphicsSimpleTextItem* cursorText_ = nullptr;
    double cursorX_ = std::numeric_limits<double>::quiet_NaN();
    QString cursorLabel_;
    QString titlePlain_;  // the title as written (shown with its subscripts)
};

}  // namespace

ChartPanel* createChartPanel(const ChartSpec& spec, QWidget* parent) {
    return new QtChartPanel(spec, parent);
}

}  // namespace ade::ui
