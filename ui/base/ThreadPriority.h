#pragma once
// Who yields to whom on a busy machine. On Linux a thread has its own nice value, inherited by
// the threads it starts (a trainer's worker pool).
// - Solver threads (a run, the form's speed probe) run kSolverNice above the GUI thread. With
//   more runs than cores the GUI thread otherwise waits behind them for its time slices: at
//   nice +5 nine solvers on two cores weigh 4.5 × 335 per core against the GUI thread's 1024,
//   which then gets about 40 % of a core while it draws, and a 4 ms frame takes 10 ms of wall
//   time. At +10 (weight 110) it gets about two thirds. The solvers lose nothing but the GUI
//   thread's own few percent of a core, and keep their rates against each other.
// - Background views (the loss landscape) run at nice 19: they progress on a busy machine
//   without taking the solvers' time (SCHED_IDLE would starve them there).
// Elsewhere these are no-ops.
#include <algorithm>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace ade::ui {

inline constexpr int kSolverNice = 10;

// Raises the calling thread's nice value by `increment` (at most to 19).
inline void niceThisThread(int increment) {
#if defined(__linux__)
    const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
    ::setpriority(PRIO_PROCESS, tid, std::min(::getpriority(PRIO_PROCESS, tid) + increment, 19));
#else
    (void)increment;
#endif
}

}  // namespace ade::ui
