#include "util/WorkerPool.h"

#include <chrono>

namespace ade {

namespace {

// Spins until done() holds or kSpinMicroseconds have passed; true if done() held.
template <typename Done>
bool spinFor(Done done) {
    using Clock = std::chrono::steady_clock;
    const auto until = Clock::now() + std::chrono::microseconds(WorkerPool::kSpinMicroseconds);
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        if (Clock::now() >= until) return false;
        std::this_thread::yield();
    }
}

}  // namespace

WorkerPool::WorkerPool(int threads) {
    for (int i = 1; i < threads; ++i)
        workers_.emplace_back([this] { workerLoop(); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_)
        t.join();
}

void WorkerPool::drain(std::unique_lock<std::mutex>& lock) {
    // Takes items one at a time; the lock is held on entry and on return.
    while (next_ < count_) {
        const int i = next_++;
        const auto* job = job_;
        lock.unlock();
        (*job)(i);
        lock.lock();
    }
}

void WorkerPool::workerLoop() {
    long seen = 0;
    for (;;) {
        spinFor([&] { return quit_.load(std::memory_order_relaxed) ||
                             generation_.load(std::memory_order_relaxed) != seen; });
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return quit_ || generation_ != seen; });
        if (quit_) return;
        seen = generation_;
        ++active_;
        drain(lock);
        if (--active_ == 0) done_.notify_all();
    }
}

void WorkerPool::run(int count, const std::function<void(int)>& fn) {
    if (count <= 0) return;
    if (workers_.empty() || count == 1) {
        for (int i = 0; i < count; ++i)
            fn(i);
        return;
    }
    std::unique_lock lock(mutex_);
    job_ = &fn;
    count_ = count;
    next_ = 0;
    ++generation_;
    wake_.notify_all();
    ++active_;
    drain(lock);
    if (--active_ != 0) {
        lock.unlock();
        spinFor([&] { return active_.load(std::memory_order_relaxed) == 0; });
        lock.lock();
        done_.wait(lock, [&] { return active_ == 0; });
    }
    job_ = nullptr;
    count_ = 0;
}

}  // namespace ade
