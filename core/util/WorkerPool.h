#pragma once
// A small persistent pool for data-parallel loops inside one training step. Work items are
// indexed; callers store per-item partial results and reduce them in index order, so results
// are bit-identical whatever the thread count.
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

  private:
    void workerLoop();
    void drain(std::unique_lock<std::mutex>& lock);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int)>* job_ = nullptr;
    int count_ = 0;
    int next_ = 0;
    int active_ = 0;
    long generation_ = 0;
    bool quit_ = false;
};

}  // namespace ade
