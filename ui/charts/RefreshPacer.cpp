#include "charts/RefreshPacer.h"

#include <QThread>

#include <algorithm>

#include "charts/ChartArea.h"

namespace ade::ui {

double RefreshPacer::frameGapMs(double wallMs, double cpuMs, bool solversFillCores) {
    if (!solversFillCores) return wallMs;
    return std::max(wallMs, std::min(cpuMs / kBusyShare, 1000.0 / kMinFps));
}

RefreshPacer::RefreshPacer(ChartArea* charts, std::function<int()> runningRuns, QObject* parent)
    : QObject(parent), charts_(charts), runningRuns_(std::move(runningRuns)) {
    connect(charts_, &ChartArea::painted, this, [this](double ms, double cpuMs) {
        frames_.paintInFrame(ms, cpuMs);
        lastWallMs_ += ms;
        lastCpuMs_ += cpuMs;
        gapMs_ = frameGapMs(lastWallMs_, lastCpuMs_, gapBusy_);
    });
}

void RefreshPacer::onDrained(bool changed) {
    dirty_ = dirty_ || changed;
    if (changed) charts_->advanceAggregates();  // as records arrive; the frame then draws
    if (!dirty_ || (sinceRefresh_.isValid() && sinceRefresh_.elapsed() < gapMs_)) return;
    double cpuMs = 0;
    lastWallMs_ = charts_->refresh(false, &cpuMs);
    lastCpuMs_ = cpuMs;
    frames_.beginFrame(lastWallMs_, cpuMs);
    gapBusy_ = runningRuns_ && runningRuns_() >= std::max(1, QThread::idealThreadCount());
    gapMs_ = frameGapMs(lastWallMs_, lastCpuMs_, gapBusy_);
    sinceRefresh_.start();
    dirty_ = false;
}

}  // namespace ade::ui
