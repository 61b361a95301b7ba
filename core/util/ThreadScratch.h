#pragma once
// Per-thread scratch memory for the loss kernels of Experiments B and C: no allocation per step.
#include <array>
#include <cstddef>
#include <memory>
#include <numeric>
#include <vector>

namespace ade {

// At least n doubles for the calling thread, 64-byte aligned, kept between calls up to 8 MiB;
// larger (thousands of tokens) gets a buffer of its own. Tag separates the buffers that one
// thread holds at once.
template <int Tag>
class ThreadScratch {
  public:
    explicit ThreadScratch(std::size_t n) {
        constexpr std::size_t kKeep = std::size_t(1) << 20;
        thread_local std::vector<double> kept;
        std::vector<double>& v = n <= kKeep ? kept : own_;
        if (v.size() < n + 8) v.resize(n + 8);
        void* p = v.data();
        std::size_t space = v.size() * sizeof(double);
        data_ = static_cast<double*>(std::align(64, n * sizeof(double), p, space));
    }
    double* data() const { return data_; }

  private:
    std::vector<double> own_;
    double* data_ = nullptr;
};

// N consecutive pieces of the given sizes (in doubles) of one ThreadScratch<Tag>: piece k
// starts where piece k - 1 ends (so sizes that are multiples of 8 keep every piece aligned).
template <int Tag, std::size_t N>
class ScratchPieces {
  public:
    explicit ScratchPieces(const std::size_t (&sizes)[N])
        : scratch_(std::accumulate(sizes, sizes + N, std::size_t(0))) {
        double* next = scratch_.data();
        for (std::size_t k = 0; k < N; ++k) {
            pieces_[k] = next;
            next += sizes[k];
        }
    }
    double* operator[](std::size_t k) const { return pieces_[k]; }

  private:
    ThreadScratch<Tag> scratch_;
    std::array<double*, N> pieces_{};
};

template <int Tag, std::size_t N>
ScratchPieces<Tag, N> scratchPieces(const std::size_t (&sizes)[N]) {
    return ScratchPieces<Tag, N>(sizes);
}

}  // namespace ade
