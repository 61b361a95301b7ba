#include "ProgressBar.h"

#include <unistd.h>
#include <cstdio>

ProgressBar::ProgressBar(bool enabled) : enabled_(enabled), tty_(::isatty(2) != 0) {}

void ProgressBar::update(const std::string& label, double fraction, const std::string& detail) {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (label != lastLabel_) {
        lastDecile_ = -1;
        lastLabel_ = label;
    }
    const int pct = static_cast<int>(fraction * 100.0 + 1e-9);
    if (tty_) {
        if (now - last_ < std::chrono::milliseconds(100) && fraction < 1.0) return;
        last_ = now;
        const int width = 30;
        const int filled = static_cast<int>(fraction * width);
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.append(static_cast<std::size_t>(width - filled), '.');
        std::fprintf(stderr, "\r\033[K%s [%s] %3d%% %s", label.c_str(), bar.c_str(), pct,
                     detail.c_str());
    } else {
        const int decile = pct / 10;
        if (decile == lastDecile_) return;
        lastDecile_ = decile;
        std::fprintf(stderr, "%s %3d%% %s\n", label.c_str(), pct, detail.c_str());
    }
    std::fflush(stderr);
}

void ProgressBar::finish(const std::string& line) {
    if (!enabled_) return;
    std::lock_guard lock(mutex_);
    if (tty_)
        std::fprintf(stderr, "\r\033[K%s\n", line.c_str());
    else
        std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
}
