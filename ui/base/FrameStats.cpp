#include "base/FrameStats.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

namespace ade::ui {

namespace {
double wallMs() {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
}  // namespace

double FrameStats::threadCpuMs() {
    timespec ts{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void FrameStats::beginFrame(double refreshMs, double refreshCpuMs) {
    closeFrame();
    if (startCpuMs_ < 0) {
        startCpuMs_ = threadCpuMs() - refreshCpuMs;
        startWallMs_ = wallMs() - refreshMs;
    }
    refresh_.push_back(refreshMs);
    pendingRefresh_ = refreshMs;
    pendingRefreshCpu_ = refreshCpuMs;
    pendingPaint_ = pendingPaintCpu_ = 0;
    open_ = true;
}

void FrameStats::paintInFrame(double ms, double cpuMs) {
    paint_.push_back(ms);
    if (!open_) return;
    pendingPaint_ += ms;
    pendingPaintCpu_ += cpuMs;
}

void FrameStats::closeFrame() {
    if (!open_) return;
    frames_.push_back(pendingRefresh_ + pendingPaint_);
    framesCpu_.push_back(pendingRefreshCpu_ + pendingPaintCpu_);
    open_ = false;
}

nlohmann::json FrameStats::summary(std::vector<double> v) {
    nlohmann::json j;
    j["count"] = v.size();
    if (v.empty()) {
        j["median"] = j["p99"] = j["max"] = nullptr;
        return j;
    }
    std::sort(v.begin(), v.end());
    auto q = [&](double p) {
        const std::size_t i = static_cast<std::size_t>(std::ceil(p * v.size())) - 1;
        return v[std::min(i, v.size() - 1)];
    };
    j["median"] = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
    j["p99"] = q(0.99);
    j["max"] = v.back();
    return j;
}

nlohmann::json FrameStats::toJson() const {
    FrameStats copy = *this;
    copy.closeFrame();
    nlohmann::json gui = nullptr;
    if (startCpuMs_ >= 0) {
        const double cpu = (threadCpuMs() - startCpuMs_) / 1e3,
                     wall = (wallMs() - startWallMs_) / 1e3;
        gui = {{"cpu_s", cpu}, {"wall_s", wall}, {"core_share", wall > 0 ? cpu / wall : 0.0}};
    }
    return {{"frame_ms", summary(copy.frames_)},
            {"frame_cpu_ms", summary(copy.framesCpu_)},
            {"refresh_ms", summary(refresh_)},
            {"paint_ms", summary(paint_)},
            {"gui_thread", gui}};
}

}  // namespace ade::ui
