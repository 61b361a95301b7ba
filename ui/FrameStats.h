#pragma once
// Timing of the chart refresh for `--stats` (issue 7): per frame, the time to move new data into
// the series plus the time the plots took to paint. Summaries: median, 99th percentile, max.
#include <nlohmann/json.hpp>

#include <vector>

namespace ade::ui {

class FrameStats {
  public:
    // A frame = one refresh and the paints that follow it; recorded at the next refresh.
    void beginFrame(double refreshMs);
    void paintInFrame(double ms);
    void closeFrame();
    static nlohmann::json summary(std::vector<double> v);  // {count, median, p99, max} in ms
    nlohmann::json toJson() const;

  private:
    std::vector<double> refresh_, paint_, frames_;
    double pendingPaint_ = 0, pendingRefresh_ = 0;
    bool open_ = false;
};

}  // namespace ade::ui
