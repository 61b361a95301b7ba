#include "charts/ChartArea.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSlider>

#include <algorithm>
#include <limits>
#include <set>

#include "base/FrameStats.h"
#include "runs/RunStore.h"
#include "runs/TimeCursor.h"
#include "runs/TimeTravelBar.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

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

    grid_ = new QGridLayout;
    grid_->setContentsMargins(2, 2, 2, 2);
    grid_->setSpacing(4);
    outer->addLayout(grid_, 1);
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

void ChartArea::setExperiment(const std::string& experiment) {
    if (experiment == experiment_) return;
    experiment_ = experiment;
    syncPanels();
}

std::vector<std::string> ChartArea::experiments() const {
    std::vector<std::string> out = {experiment_};
    for (const auto& r : store_->runs())
        if (std::find(out.begin(), out.end(), r->config.experiment()) == out.end())
            out.push_back(r->config.experiment());
    return out;
}

std::vector<ChartSpec> ChartArea::availableCharts() const {
    return chartSpecsFor(experiments(), store_);
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
        for (const ChartSpec& spec : availableCharts()) {
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
    std::vector<QString> ids;
    for (const ChartSpec& spec : wanted)
        ids.push_back(spec.id);
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
            p = createChartPanel(spec, this);
            p->setMinimumSize(240, 180);
            connect(p, &ChartPanel::painted, this, &ChartArea::painted);
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
    empty_->setVisible(panels_.empty());
    // The hint lies over the whole grid, centred.
    grid_->addWidget(hint_, 0, 0, std::max(1, (n + columns - 1) / columns), columns,
                     Qt::AlignCenter);
    hint_->raise();
}

void ChartArea::setFooter(QWidget* footer) {
    footer->setParent(this);
    layout()->addWidget(footer);
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
