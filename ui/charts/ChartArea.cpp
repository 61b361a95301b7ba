#include "charts/ChartArea.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>

#include <algorithm>
#include <limits>
#include <set>

#include "base/FrameStats.h"
#include "charts/LegendBar.h"
#include "runs/RunStore.h"
#include "runs/SeedGroups.h"
#include "runs/TimeCursor.h"
#include "runs/TimeTravelBar.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

namespace {
// A frameless area that scrolls `content` up and down, never sideways (it takes the width).
QScrollArea* verticalScroller(QWidget* content, const QString& name, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    area->setObjectName(name);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidgetResizable(true);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setWidget(content);
    return area;
}
}  // namespace

ChartArea::ChartArea(RunStore* store, QWidget* parent) : QWidget(parent), store_(store) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 6, 0);
    logY_ = new QCheckBox(tr("Log &y"), this);
    logY_->setObjectName(QStringLiteral("logY"));
    logY_->setChecked(true);
    logY_->setToolTip(
        tr("Logarithmic y axes (values at or below zero are clamped to the axis "
           "floor)"));
    logX_ = new QCheckBox(tr("Log &x"), this);
    logX_->setObjectName(QStringLiteral("logX"));
    logX_->setToolTip(tr("Logarithmic iteration axis (iteration 0 is not shown)"));
    xAxis_ = new QComboBox(this);
    xAxis_->setObjectName(QStringLiteral("xAxis"));
    xAxis_->addItem(tr("iteration"));
    xAxis_->addItem(tr("wall time"));
    xAxis_->setToolTip(tr("x axis of every chart: the iteration, or the wall time in seconds "
                          "since each run started (runs of different speed side by side)"));
    auto* xLabel = new QLabel(tr("&x:"), this);
    xLabel->setBuddy(xAxis_);
    smoothing_ = new QSlider(Qt::Horizontal, this);
    smoothing_->setObjectName(QStringLiteral("smoothing"));
    smoothing_->setRange(0, 99);
    smoothing_->setValue(0);
    smoothing_->setMaximumWidth(160);
    smoothing_->setToolTip(
        tr("Exponential moving average weight (TensorBoard-style, debiased); "
           "the raw curve stays faint behind the smoothed one"));
    smoothingLabel_ = new QLabel(this);
    smoothingLabel_->setMinimumWidth(32);
    auto* fit = new QPushButton(tr("&Fit"), this);
    fit->setObjectName(QStringLiteral("fit"));
    fit->setToolTip(
        tr("Back to automatic ranges (or double-click a chart). Drag to zoom, "
           "Shift-drag or middle-drag to pan, wheel to zoom, click a legend entry to "
           "hide or show its curve."));
    bar->addWidget(logY_);
    bar->addWidget(logX_);
    bar->addSpacing(12);
    bar->addWidget(xLabel);
    bar->addWidget(xAxis_);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Smoothing"), this));
    bar->addWidget(smoothing_);
    bar->addWidget(smoothingLabel_);
    bar->addStretch(1);
    bar->addWidget(fit);
    outer->addLayout(bar);

    // The grid scrolls rather than squeeze a plot under its minimum height (minPanelHeight()):
    // at 1024x768 with a lesson's caption and the claims under it, the charts keep plots a
    // class can read, and the ticks are never elided to "…".
    gridHost_ = new QWidget;
    grid_ = new QGridLayout(gridHost_);
    grid_->setContentsMargins(2, 2, 2, 2);
    grid_->setSpacing(4);
    scroll_ = verticalScroller(gridHost_, QStringLiteral("chartScroll"), this);
    outer->addWidget(scroll_, 1);
    // One legend for the grid: each run once with its colour, each metric once with its line
    // style; a click hides or shows those curves in every chart. Its height is capped (it
    // scrolls past the cap), so that twelve groups never take the plots' room.
    legend_ = new LegendBar;
    legend_->setObjectName(QStringLiteral("chartLegend"));
    legendScroll_ = verticalScroller(legend_, QStringLiteral("chartLegendScroll"), this);
    legendScroll_->hide();
    outer->addWidget(legendScroll_);
    connect(legend_, &LegendBar::toggled, this, [this](const QString& key) {
        if (key.startsWith(QStringLiteral("note:"))) return;  // says what bands are; hides nothing
        bool hidden = false;
        for (const LegendEntry& e : legend_->entries())
            if (e.key == key) hidden = !e.hidden;
        for (ChartPanel* p : panels_)
            p->setLegendKeyHidden(key, hidden);
        updateLegend();
    });
    empty_ = new QLabel(tr("No chart is shown: choose some in View > Charts."), this);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->hide();
    outer->addWidget(empty_, 1);
    hint_ = new QLabel(this);
    hint_->setObjectName(QStringLiteral("emptyHint"));
    hint_->setWordWrap(true);
    hint_->setTextFormat(Qt::RichText);
    hint_->setMaximumWidth(460);
    hint_->setMargin(14);
    hint_->setStyleSheet(QStringLiteral(
        "QLabel#emptyHint { background: #fffbe6; color: #222; border: 1px solid #c9b458; "
        "border-radius: 6px; }"));
    hint_->hide();
    if (!ade::experiments().empty()) experiment_ = ade::experiments().front().name;
    syncPanels();

    connect(logY_, &QCheckBox::toggled, this, &ChartArea::applyOptions);
    connect(logX_, &QCheckBox::toggled, this, &ChartArea::applyOptions);
    connect(xAxis_, &QComboBox::currentIndexChanged, this, &ChartArea::applyOptions);
    connect(smoothing_, &QSlider::valueChanged, this, &ChartArea::applyOptions);
    connect(fit, &QPushButton::clicked, this, &ChartArea::fitAll);
    smoothingLabel_->setText(QStringLiteral("0.00"));
}

ChartPanel* ChartArea::panel(const QString& id) const {
    for (ChartPanel* p : panels_)
        if (p->objectName() == QStringLiteral("chart.") + id) return p;
    return nullptr;
}

double ChartArea::refresh(bool force, double* cpuMs) {
    QElapsedTimer t;
    t.start();
    const double cpu0 = cpuMs ? FrameStats::threadCpuMs() : 0;
    syncPanels();  // a run of another experiment brings its charts
    if (const bool hint = emptyHintShown(); hint != hint_->isVisible()) hint_->setVisible(hint);
    for (ChartPanel* p : panels_)
        p->refresh(*store_, force);
    if (cpuMs) *cpuMs = FrameStats::threadCpuMs() - cpu0;
    return t.nsecsElapsed() / 1e6;
}

void ChartArea::advanceAggregates() {
    if (seedsSeparate_ || panels_.empty()) return;  // no chart draws a group's mean
    const quint64 revision = store_->revision();
    for (const SeedGroup& g : seedGroups(store_->visibleRuns()))
        if (g.grouped()) aggregates_->advance(g, revision);
}

void ChartArea::setExperiment(const std::string& experiment) {
    if (experiment == experiment_) return;
    experiment_ = experiment;
    syncPanels();
}

std::vector<ChartSpec> ChartArea::availableCharts() const {
    return liveChartSpecs(experiment_, *store_);
}

bool ChartArea::isChartShown(const ChartSpec& spec) const {
    const auto it = choices_.find(spec.id);
    return it != choices_.end() ? it->second : spec.shownByDefault;
}

void ChartArea::setChartShown(const QString& id, bool shown) {
    choices_[id] = shown;
    syncPanels();
    refresh(true);
}

void ChartArea::restoreDefaultCharts() {
    choices_.clear();
    syncPanels();
    refresh(true);
}

void ChartArea::setChartChoices(const std::map<QString, bool>& choices) {
    choices_ = choices;
    syncPanels();
}

QMenu* ChartArea::chartsMenu() {
    if (chartsMenu_) return chartsMenu_;
    chartsMenu_ = new QMenu(tr("&Charts"), this);
    chartsMenu_->setToolTipsVisible(true);
    connect(chartsMenu_, &QMenu::aboutToShow, this, [this] {
        chartsMenu_->clear();
        // The charts drawn now, then the form's experiment's others (chosen ahead of a Start).
        std::vector<ChartSpec> offered = availableCharts();
        for (const ChartSpec& spec : chartSpecsFor({experiment_}))
            if (std::none_of(offered.begin(), offered.end(),
                             [&](const ChartSpec& o) { return o.id == spec.id; }))
                offered.push_back(spec);
        for (const ChartSpec& spec : offered) {
            QAction* a = chartsMenu_->addAction(spec.title);
            a->setObjectName(QStringLiteral("showChart.") + spec.id);
            a->setCheckable(true);
            a->setChecked(isChartShown(spec));
            a->setToolTip(tr("y axis: %1").arg(spec.yLabel));
            const QString id = spec.id;
            connect(a, &QAction::toggled, this, [this, id](bool on) { setChartShown(id, on); });
        }
        chartsMenu_->addSeparator();
        chartsMenu_->addAction(tr("&Default charts"), this, &ChartArea::restoreDefaultCharts);
    });
    return chartsMenu_;
}

void ChartArea::syncPanels() {
    std::vector<ChartSpec> wanted;
    for (const ChartSpec& spec : availableCharts())
        if (isChartShown(spec)) wanted.push_back(spec);
    std::vector<QString> ids;  // and titles: the same chart over other experiments' runs
    for (const ChartSpec& spec : wanted) {
        ids.push_back(spec.id);
        ids.push_back(spec.title);
    }
    if (synced_ && ids == shownIds_) return;
    synced_ = true;
    shownIds_ = ids;
    std::vector<ChartPanel*> next;
    for (const ChartSpec& spec : wanted) {
        ChartPanel* p = panel(spec.id);
        if (p && (p->spec().title != spec.title || p->spec().yLabel != spec.yLabel ||
                  p->spec().scale != spec.scale)) {  // another experiment's version of it
            grid_->removeWidget(p);
            std::erase(panels_, p);
            p->hide();
            p->deleteLater();
            p = nullptr;
        }
        if (!p) {
            p = createChartPanel(spec, gridHost_);
            p->setOwnLegendShown(false);  // the grid's legend speaks for every chart
            p->shareAggregates(aggregates_);
            p->setMinimumSize(240, minPanelHeight());
            connect(p, &ChartPanel::painted, this, &ChartArea::painted);
            connect(p, &ChartPanel::legendChanged, this, &ChartArea::updateLegend);
            applyPanelOptions(p);
        }
        next.push_back(p);
    }
    for (ChartPanel* p : panels_)
        if (std::find(next.begin(), next.end(), p) == next.end()) {
            grid_->removeWidget(p);
            p->hide();
            p->deleteLater();
        }
    panels_ = next;
    layoutGrid();
    if (store_) applyOptions();
    updateCursor();
}

void ChartArea::setTimeCursor(TimeCursor* cursor) {
    cursor_ = cursor;
    connect(cursor_, &TimeCursor::changed, this, &ChartArea::updateCursor);
    updateCursor();
}

void ChartArea::updateCursor() {
    double x = std::numeric_limits<double>::quiet_NaN();
    QString label;
    if (cursor_ && !cursor_->isLive()) {
        const long it = cursor_->iteration();
        x = static_cast<double>(it);
        label = tr("iteration %1").arg(it);
        if (wallTimeX()) {
            // The focused run's wall time at its record of that iteration.
            x = std::numeric_limits<double>::quiet_NaN();
            const RunRecord* r = store_ ? focusedRun(*store_, *cursor_) : nullptr;
            const int t = r ? r->column("time_s") : -1;
            if (t >= 0 && r->size() > 0) {
                const auto& its = r->data[0];
                const auto at = std::lower_bound(its.begin(), its.end(), static_cast<double>(it));
                if (at != its.end()) x = r->data[t][static_cast<std::size_t>(at - its.begin())];
            }
        }
    }
    for (ChartPanel* p : panels_)
        p->setCursorLine(x, label);
}

void ChartArea::layoutGrid() {
    for (ChartPanel* p : panels_)
        grid_->removeWidget(p);
    grid_->removeWidget(hint_);
    // Presentation: one chosen chart, or the first four as a 2x2 grid; the others wait.
    std::vector<ChartPanel*> shown = panels_;
    if (presentation_) {
        const int n = static_cast<int>(panels_.size());
        if (presentChart_ >= 0 && presentChart_ < n)
            shown = {panels_[static_cast<std::size_t>(presentChart_)]};
        else if (n > 4)
            shown.resize(4);
        for (ChartPanel* p : panels_)
            if (std::find(shown.begin(), shown.end(), p) == shown.end()) p->hide();
    }
    // Two columns up to four charts, three beyond: the grid stays readable at 1024x768.
    const int n = static_cast<int>(shown.size());
    const int columns = n <= 1 ? 1 : n <= 4 ? 2 : 3;
    for (int c = 0; c < 3; ++c)
        grid_->setColumnStretch(c, c < columns ? 1 : 0);
    for (int r = 0; r < 4; ++r)
        grid_->setRowStretch(r, r < (n + columns - 1) / columns ? 1 : 0);
    for (int i = 0; i < n; ++i) {
        grid_->addWidget(shown[static_cast<std::size_t>(i)], i / columns, i % columns);
        shown[static_cast<std::size_t>(i)]->show();
    }
    for (ChartPanel* p : shown)
        p->setMinimumHeight(minPanelHeight());
    empty_->setVisible(panels_.empty());
    updateLegend();
    // The hint lies over the whole grid, centred.
    grid_->addWidget(hint_, 0, 0, std::max(1, (n + columns - 1) / columns), columns,
                     Qt::AlignCenter);
    hint_->raise();
}

void ChartArea::setFooter(QWidget* footer) {
    // In a scroll area of at most a third of the height: seven claims in large type must not
    // push the charts under their minimum (it follows the footer's own visibility).
    footerScroll_ = verticalScroller(footer, QStringLiteral("chartFooterScroll"), this);
    footerScroll_->setVisible(!footer->isHidden());
    footer->installEventFilter(this);
    footer_ = footer;
    layout()->addWidget(footerScroll_);
    fitBars();
}

bool ChartArea::eventFilter(QObject* watched, QEvent* event) {
    if (watched == footer_ && (event->type() == QEvent::ShowToParent ||
                               event->type() == QEvent::HideToParent ||
                               event->type() == QEvent::LayoutRequest))
        QMetaObject::invokeMethod(this, &ChartArea::fitBars, Qt::QueuedConnection);
    return QWidget::eventFilter(watched, event);
}

void ChartArea::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitBars();
}

int ChartArea::minPanelHeight() const {
    // Title, tick labels and axis title take about five lines; the plot keeps about seven.
    const QFontMetrics fm(font());
    return static_cast<int>(fm.height() * (presentation_ ? 1.5 * 10 : 0.9 * 12) + 24);
}

void ChartArea::updateLegend() {
    // Metrics first (in the charts' order), then runs; each key once.
    std::vector<LegendEntry> metrics, runs;
    std::set<QString> seen;
    for (ChartPanel* p : panels_) {
        if (p->isHidden()) continue;  // presentation's single chart: only its entries
        for (const LegendEntry& e : p->legendEntries())
            if (seen.insert(e.key).second) (e.swatch ? runs : metrics).push_back(e);
    }
    // Groups drawn as a mean with a band: what line and band are, said once.
    if (std::any_of(runs.begin(), runs.end(), [](const LegendEntry& e) { return e.band; })) {
        LegendEntry note;
        note.key = QStringLiteral("note:bands");
        note.label = tr("line: mean over seeds · band: %1").arg(QString::fromUtf8(kBandName));
        note.tip = tr("The mean over the seeds that have reached each record; the band spans "
                      "their lowest and highest value. View > Show seeds separately draws each "
                      "seed.");
        note.pen = QPen(QColor(90, 90, 90), 2);
        note.swatch = note.band = true;
        runs.insert(runs.begin(), note);
    }
    metrics.insert(metrics.end(), runs.begin(), runs.end());
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * (presentation_ ? 1.5 : 0.9));
    if (legend_->font() != f) legend_->setFont(f);
    legend_->setEntries(metrics);
    fitBars();
}

void ChartArea::fitBars() {
    // The legend: all its lines up to a quarter of the height (at least two lines), then it
    // scrolls; the footer: up to a third.
    const int w = legendScroll_->width() > 0 ? legendScroll_->width() : width();
    const int need = legend_->entries().empty() ? 0 : legend_->heightForWidth(w);
    const int line = legend_->lineHeight();
    // (A fifth in presentation mode: the class reads the curves first.) Whole lines only.
    const int cap = std::max(2, height() / (presentation_ ? 5 : 4) / std::max(1, line)) * line + 2;
    legendScroll_->setVisible(need > 0);
    if (need > 0 && legendScroll_->height() != std::min(need, cap))
        legendScroll_->setFixedHeight(std::min(need, cap));
    if (footerScroll_) {
        footerScroll_->setVisible(footer_ && !footer_->isHidden());
        const int want = footer_ ? footer_->sizeHint().height() : 0;
        const int fcap = std::max(3 * line, height() / 3);
        if (footerScroll_->height() != std::min(want, fcap))
            footerScroll_->setFixedHeight(std::min(want, fcap));
    }
}

void ChartArea::setEmptyHint(const QString& html) {
    if (hint_->text() != html) hint_->setText(html);
    hint_->setVisible(emptyHintShown());
}

bool ChartArea::emptyHintShown() const {
    return !hint_->text().isEmpty() && store_ && store_->runs().empty() && !panels_.empty();
}

bool ChartArea::logY() const {
    return logY_->isChecked();
}
bool ChartArea::logX() const {
    return logX_->isChecked();
}
bool ChartArea::wallTimeX() const {
    return xAxis_->currentIndex() == 1;
}
void ChartArea::setWallTimeX(bool on) {
    xAxis_->setCurrentIndex(on ? 1 : 0);
}
double ChartArea::smoothing() const {
    return smoothing_->value() / 100.0;
}
void ChartArea::setLogY(bool on) {
    logY_->setChecked(on);
}
void ChartArea::setLogX(bool on) {
    logX_->setChecked(on);
}
void ChartArea::setSmoothing(double w) {
    smoothing_->setValue(static_cast<int>(std::lround(std::clamp(w, 0.0, 0.99) * 100)));
}
void ChartArea::setSeedsSeparate(bool on) {
    if (seedsSeparate_ == on) return;
    seedsSeparate_ = on;
    applyOptions();
}

void ChartArea::setPresentation(bool on) {
    presentation_ = on;
    // The chart toolbar (log axes, smoothing, fit) stays in the View menu and its keys.
    if (QLayoutItem* bar = layout()->itemAt(0); bar && bar->layout())
        for (int i = 0; i < bar->layout()->count(); ++i)
            if (QWidget* w = bar->layout()->itemAt(i)->widget()) w->setVisible(!on);
    layoutGrid();
    applyOptions();
    updateLegend();
}

void ChartArea::setPresentationChart(int index) {
    presentChart_ = index;
    if (presentation_) layoutGrid();
}

void ChartArea::fitAll() {
    for (ChartPanel* p : panels_)
        p->fitToData();
}

void ChartArea::applyOptions() {
    smoothingLabel_->setText(QString::number(smoothing(), 'f', 2));
    for (ChartPanel* p : panels_) {
        applyPanelOptions(p);
        p->refresh(*store_, true);
    }
    updateCursor();  // the x axis may have changed (iteration / wall time)
}

void ChartArea::applyPanelOptions(ChartPanel* p) {
    ChartOptions o = p->options();
    // "Log y" switches the charts whose quantity spans decades (signed ones to a symmetric
    // log); the others (weight norms, the generalisation gap) stay linear.
    o.logY = logY() && p->spec().scale == ade::AxisScale::Log;
    o.symLogY = logY() && p->spec().scale == ade::AxisScale::SymLog;
    o.logX = logX();
    o.wallTime = wallTimeX();
    o.smoothing = smoothing();
    o.presentation = presentation_;
    o.seedBands = !seedsSeparate_;
    o.emphasisedRuns = emphasisedRuns_;
    o.dimmedRuns = dimmedRuns_;
    p->setOptions(o);
}

void ChartArea::setRunEmphasis(const std::vector<int>& emphasised, const std::vector<int>& dimmed) {
    if (emphasised == emphasisedRuns_ && dimmed == dimmedRuns_) return;
    emphasisedRuns_ = emphasised;
    dimmedRuns_ = dimmed;
    for (ChartPanel* p : panels_)
        applyPanelOptions(p);
}

}  // namespace ade::ui
