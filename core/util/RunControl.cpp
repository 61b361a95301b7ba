#include "util/RunControl.h"

namespace ade {

namespace {
thread_local RunControl* tAmbient = nullptr;
}  // namespace

RunControl* RunControl::ambient() {
    return tAmbient;
}

AmbientRunControl::AmbientRunControl(RunControl* control) : previous_(tAmbient) {
    tAmbient = control;
}
AmbientRunControl::~AmbientRunControl() {
    tAmbient = previous_;
}

void RunControl::requestStop() {
    {
        std::lock_guard lock(mutex_);
        stop_.store(true, std::memory_order_release);
    }
    cv_.notify_all();
}

void RunControl::pause() {
    std::lock_guard lock(mutex_);
    paused_.store(true, std::memory_order_release);
}

void RunControl::resume() {
    {
        std::lock_guard lock(mutex_);
        paused_.store(false, std::memory_order_release);
        steps_ = 0;
    }
    cv_.notify_all();
}

void RunControl::stepOnce(int steps) {
    {
        std::lock_guard lock(mutex_);
        paused_.store(true, std::memory_order_release);
        steps_ += steps;
    }
    cv_.notify_all();
}

bool RunControl::checkpoint() {
    if (stop_.load(std::memory_order_acquire)) return false;
    if (!paused_.load(std::memory_order_acquire)) return true;
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return stop_.load() || !paused_.load() || steps_ > 0; });
    if (stop_.load()) return false;
    if (paused_.load() && steps_ > 0) --steps_;
    return true;
}

}  // namespace ade
