#pragma once
// A small persistent pool for data-parallel loops inside one training step. Work items are
// indexed; callers store per-item partial results and reduce them in index order, so results
// are bit-identical whatever the thread count.
//
// Waiting: a training loop calls run() once or a few times per step, often every few hundred
// microseconds, and waking a sleeping thread costs about 100 us on a virtual machine (measured
// on the project's 2-core KVM guest: a round of two 265-us items took 388 us). So a worker that
// runs out of items first spins for up to kSpinMicroseconds watching for the next round, and
// the caller spins as long for the workers' last items, before either sleeps on its condition
// variable. Spinning yields the processor between checks, so that on an oversubscribed machine
// (the explorer's several runs) it costs the other threads little.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ade {

class WorkerPool {
  public:
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int threads() const { return static_cast<int>(workers_.size()) + 1; }
    // Runs fn(i) for i in [0, count); the calling thread takes part. Returns when all are done.
    void run(int count, const std::function<void(int)>& fn);

    static constexpr int kSpinMicroseconds = 200;

  private:
    void workerLoop();
    void drain(std::unique_lock<std::mutex>& lock);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int)>* job_ = nullptr;
    int count_ = 0;
    int next_ = 0;
    // Written under mutex_; read without it while spinning.
    std::atomic<int> active_{0};
    std::atomic<long> generation_{0};
    std::atomic<bool> quit_{false};
};

}  // namespace ade
