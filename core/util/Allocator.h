#pragma once

namespace ade {

// The solvers allocate and free their step's temporaries every iteration. glibc's malloc gives
// the free memory at the top of its heap back to the kernel once it passes a threshold that it
// raises by itself, so a run can fall into returning and refaulting the same pages every step:
// measured on a 2-core VM, a 50 000-iteration Experiment B run dropped from ~2000 to ~480 it/s
// after 10 000 iterations, the time in page faults. Keeping up to 128 MiB of freed memory for
// reuse removes that (2039 it/s throughout); blocks up to 32 MiB come from the heap, not from
// a fresh mmap per allocation (Allocator.cpp). Call once at the start of a program that trains.
// Does nothing where the C library is not glibc.
void keepFreedMemoryForReuse();

}  // namespace ade
