#pragma once
// Fixed-size chunks of work items for the WorkerPool. The chunking does not depend on the
// thread count and callers reduce the per-chunk partials in chunk order, so results are
// bit-identical for any `threads`.
#include <algorithm>
#include <functional>

#include "util/WorkerPool.h"

namespace ade {

inline int chunkCount(int count, int chunk) {
    return count <= 0 ? 0 : (count + chunk - 1) / chunk;
}

// Calls fn(c, begin, end) for every chunk c of [0, count).
inline void forEachChunk(WorkerPool* pool, int count, int chunk,
                         const std::function<void(int, int, int)>& fn) {
    const int chunks = chunkCount(count, chunk);
    auto job = [&](int c) { fn(c, c * chunk, std::min(count, (c + 1) * chunk)); };
    if (pool && chunks > 1)
        pool->run(chunks, job);
    else
        for (int c = 0; c < chunks; ++c)
            job(c);
}

}  // namespace ade
