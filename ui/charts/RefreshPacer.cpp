#include "charts/RefreshPacer.h"

#include "charts/ChartArea.h"

namespace ade::ui {

RefreshPacer::RefreshPacer(ChartArea* charts, QObject* parent) : QObject(parent), charts_(charts) {
    connect(charts_, &ChartArea::painted, this,
            [this](double ms, double cpuMs) { frames_.paintInFrame(ms, cpuMs); });
}

void RefreshPacer::onDrained(bool changed) {
    dirty_ = dirty_ || changed;
    if (!dirty_ || (sinceRefresh_.isValid() && sinceRefresh_.elapsed() < lastRefreshMs_)) return;
    double cpuMs = 0;
    lastRefreshMs_ = charts_->refresh(false, &cpuMs);
    frames_.beginFrame(lastRefreshMs_, cpuMs);
    sinceRefresh_.start();
    dirty_ = false;
}

}  // namespace ade::ui
