#pragma once
// Cancellation and pause token shared by a run and whoever drives it (GUI, CLI signal handler).
// The trainer calls checkpoint() once per iteration: a couple of relaxed atomic loads when
// nothing is requested.
#include <atomic>
#include <condition_variable>
#include <mutex>

namespace ade {

class RunControl {
  public:
    void requestStop();
    // Async-signal-safe variant (only a lock-free atomic store; a paused run notices at its
    // next wake-up).
    void requestStopFromSignal() { stop_.store(true, std::memory_order_release); }
    void pause();
    void resume();
    void stepOnce(int steps = 1);  // while paused: let this many iterations run
    bool stopRequested() const { return stop_.load(std::memory_order_acquire); }
    bool isPaused() const { return paused_.load(std::memory_order_acquire); }

    // Returns false when the run must stop; blocks while paused (unless a step was granted).
    bool checkpoint();

    // The control of the run whose problem is being built on this thread (null if none):
    // lets long set-up work inside a problem's construction (Darcy stage 1) honour Stop and
    // Pause. Set for a scope with AmbientRunControl around makeTrainer.
    static RunControl* ambient();

  private:
    friend class AmbientRunControl;
    std::atomic<bool> stop_{false};
    std::atomic<bool> paused_{false};
    std::mutex mutex_;
    std::condition_variable cv_;
    int steps_ = 0;
};

// Makes `control` the thread's ambient run control for the lifetime of the object.
class AmbientRunControl {
  public:
    explicit AmbientRunControl(RunControl* control);
    ~AmbientRunControl();
    AmbientRunControl(const AmbientRunControl&) = delete;
    AmbientRunControl& operator=(const AmbientRunControl&) = delete;

  private:
    RunControl* previous_;
};

}  // namespace ade
