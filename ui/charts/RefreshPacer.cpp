#include "charts/RefreshPacer.h"

#include <QThread>

#include <algorithm>

#include "charts/ChartArea.h"

namespace ade::ui {

double RefreshPacer::frameGapMs(double wallMs, double cpuMs, bool solversFillCores, double otherShare) {
    if (!solversFillCores) return wallMs;
    const double share = kBusyShare - std::max(0.0, otherShare);  // what the frames may take
    const double slowest = 1000.0 / kMinFps;
    return std::max(wallMs, share > 0 ? std::min(cpuMs / share, slowest) : slowest);
}

RefreshPacer::RefreshPacer(ChartArea* charts, std::function<int()> runningRuns, QObject* parent)
    : QObject(parent), charts_(charts), runningRuns_(std::move(runningRuns)) {
    connect(charts_, &ChartArea::painted, this, [this](double ms, double cpuMs) {
        frames_.paintInFrame(ms, cpuMs);
        lastWallMs_ += ms;
        lastCpuMs_ += cpuMs;
        gapMs_ = frameGapMs(lastWallMs_, lastCpuMs_, gapBusy_, otherShare_);
    });
}

void RefreshPacer::onDrained(bool changed) {
    dirty_ = dirty_ || changed;
    if (changed) charts_->advanceAggregates();  // as records arrive; the frame then draws
    if (!dirty_ || (sinceRefresh_.isValid() && sinceRefresh_.elapsed() < gapMs_)) return;
    // The GUI thread's work since the last frame began, less that frame's refresh and paints:
    // what it does besides drawing, as a share of a core (smoothed over a few frames).
    const double threadCpu = FrameStats::threadCpuMs();
    if (threadCpuAtFrame_ >= 0 && sinceRefresh_.isValid()) {
        const double wall = sinceRefresh_.nsecsElapsed() / 1e6;
        const double other = std::max(0.0, threadCpu - threadCpuAtFrame_ - lastCpuMs_);
        if (wall > 0) otherShare_ = 0.7 * otherShare_ + 0.3 * std::min(1.0, other / wall);
    }
    threadCpuAtFrame_ = threadCpu;
    double cpuMs = 0;
    lastWallMs_ = charts_->refresh(false, &cpuMs);
    lastCpuMs_ = cpuMs;
    frames_.beginFrame(lastWallMs_, cpuMs);
    gapBusy_ = runningRuns_ && runningRuns_() >= std::max(1, QThread::idealThreadCount());
    gapMs_ = frameGapMs(lastWallMs_, lastCpuMs_, gapBusy_, otherShare_);
    sinceRefresh_.start();
    dirty_ = false;
}

}  // namespace ade::ui
