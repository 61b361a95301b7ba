#pragma once
// Timing of the chart refresh for `--stats` (issue 7): per frame, the time to move new data into
// the series plus the time the plots took to paint. Summaries: median, 99th percentile, max.
// Wall times (what the user sees) and the GUI thread's CPU times (its own work: on a loaded
// machine the wall time also counts waiting for a core), and the GUI thread's share of a core
// from the first frame on.
#include <nlohmann/json.hpp>

#include <vector>

namespace ade::ui {

class FrameStats {
  public:
    // A frame = one refresh and the paints that follow it; recorded at the next refresh.
    void beginFrame(double refreshMs, double refreshCpuMs = 0);
    void paintInFrame(double ms, double cpuMs = 0);
    static double threadCpuMs();  // CPU time of the calling thread
    void closeFrame();
    static nlohmann::json summary(std::vector<double> v);  // {count, median, p99, max} in ms
    nlohmann::json toJson() const;

  private:
    std::vector<double> refresh_, paint_, frames_, framesCpu_;
    double pendingPaint_ = 0, pendingRefresh_ = 0, pendingPaintCpu_ = 0, pendingRefreshCpu_ = 0;
    double startCpuMs_ = -1, startWallMs_ = 0;
    bool open_ = false;
};

}  // namespace ade::ui
