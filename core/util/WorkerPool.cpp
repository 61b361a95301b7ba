#include "util/WorkerPool.h"

namespace ade {

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
    std::unique_lock lock(mutex_);
    for (;;) {
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
    --active_;
    done_.wait(lock, [&] { return active_ == 0; });
    job_ = nullptr;
    count_ = 0;
}

}  // namespace ade
