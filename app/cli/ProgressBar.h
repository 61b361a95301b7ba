#pragma once
// A throttled progress line on stderr: redrawn in place on a terminal, a line per 10% otherwise.
#include <chrono>
#include <mutex>
#include <string>

class ProgressBar {
  public:
    explicit ProgressBar(bool enabled);
    // fraction in [0, 1]; `label` names the run, `detail` the latest metric.
    void update(const std::string& label, double fraction, const std::string& detail);
    void finish(const std::string& line);  // ends the current line with a summary

  private:
    bool enabled_;
    bool tty_;
    std::mutex mutex_;
    std::chrono::steady_clock::time_point last_{};
    int lastDecile_ = -1;
    std::string lastLabel_;
};
