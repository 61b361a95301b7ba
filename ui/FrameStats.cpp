#include "FrameStats.h"

#include <algorithm>
#include <cmath>

namespace ade::ui {

void FrameStats::beginFrame(double refreshMs) {
    closeFrame();
    refresh_.push_back(refreshMs);
    pendingRefresh_ = refreshMs;
    pendingPaint_ = 0;
    open_ = true;
}

void FrameStats::paintInFrame(double ms) {
    paint_.push_back(ms);
    if (open_) pendingPaint_ += ms;
}

void FrameStats::closeFrame() {
    if (!open_) return;
    frames_.push_back(pendingRefresh_ + pendingPaint_);
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
    return {{"frame_ms", summary(copy.frames_)},
            {"refresh_ms", summary(refresh_)},
            {"paint_ms", summary(paint_)}};
}

}  // namespace ade::ui
