#include "ChartArea.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>

#include "FrameStats.h"
#include "RunStore.h"

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
    bar->addWidget(new QLabel(tr("Smoothing"), this));
    bar->addWidget(smoothing_);
    bar->addWidget(smoothingLabel_);
    bar->addStretch(1);
    bar->addWidget(fit);
    outer->addLayout(bar);

    auto* grid = new QGridLayout;
    grid->setContentsMargins(2, 2, 2, 2);
    grid->setSpacing(4);
    int i = 0;
    for (const ChartSpec& spec : defaultChartSpecs()) {
        ChartPanel* p = createChartPanel(spec, this);
        p->setMinimumSize(260, 200);
        connect(p, &ChartPanel::painted, this, &ChartArea::painted);
        grid->addWidget(p, i / 2, i % 2);
        panels_.push_back(p);
        ++i;
    }
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    outer->addLayout(grid, 1);

    connect(logY_, &QCheckBox::toggled, this, &ChartArea::applyOptions);
    connect(logX_, &QCheckBox::toggled, this, &ChartArea::applyOptions);
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
    for (ChartPanel* p : panels_)
        p->refresh(*store_, force);
    if (cpuMs) *cpuMs = FrameStats::threadCpuMs() - cpu0;
    return t.nsecsElapsed() / 1e6;
}

bool ChartArea::logY() const {
    return logY_->isChecked();
}
bool ChartArea::logX() const {
    return logX_->isChecked();
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
void ChartArea::setPresentation(bool on) {
    presentation_ = on;
    applyOptions();
}

void ChartArea::fitAll() {
    for (ChartPanel* p : panels_)
        p->fitToData();
}

void ChartArea::applyOptions() {
    smoothingLabel_->setText(QString::number(smoothing(), 'f', 2));
    for (ChartPanel* p : panels_) {
        ChartOptions o = p->options();
        // Weight norms are O(1) numbers that move slowly: linear reads better, unless asked.
        o.logY = logY() && p->objectName() != QStringLiteral("chart.norms");
        o.logX = logX();
        o.smoothing = smoothing();
        o.presentation = presentation_;
        p->setOptions(o);
        p->refresh(*store_, true);
    }
}

}  // namespace ade::ui
