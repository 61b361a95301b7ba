#include "util/Allocator.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ade {

void keepFreedMemoryForReuse() {
#if defined(__GLIBC__)
    mallopt(M_TRIM_THRESHOLD, 128 * 1024 * 1024);
    // Setting the trim threshold also fixes glibc's mmap threshold at its initial 128 KiB (it
    // no longer adapts), so every block of 128 KiB or more — Eigen's GEMM packing buffers of
    // the attention kernels' b x n blocks, allocated and freed in each product — came from a
    // fresh mmap and was page-faulted in again on every call: 12% of an Experiment A step at
    // d = 16 (perf, 2026-12-01). Blocks up to 32 MiB (glibc's largest threshold) now come from
    // the heap and are reused.
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
#endif
}

}  // namespace ade
