#pragma once
// Training with the GIL released: the work runs on a thread of its own; the calling thread,
// which holds the GIL only while it calls into Python, hands records over to Python (when asked)
// and, every tenth of a second, lets Python look for Ctrl-C (PyErr_CheckSignals). Both stop the
// work through its RunControl: a trainer stops at its next iteration and keeps its records.
#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "util/RunControl.h"

namespace ade::python {

namespace py = pybind11;

// A record on its way from a training thread to Python. The training thread waits until Python
// has seen it, so a stop Python asks for takes effect at the next iteration.
class RecordHandoff {
  public:
    // Training thread(s): hand one record over and wait until Python has seen it.
    void deliver(int runIndex, const std::vector<std::string>& columns,
                 const std::vector<double>& row);
    void finish();
    // Calling thread (GIL released): waits for a record or the end, at most `poll`. True when a
    // record is pending (its fields are then stable until release()).
    bool wait(std::chrono::milliseconds poll, bool* done);
    void release();
    int runIndex() const { return runIndex_; }
    const std::vector<std::string>& columns() const { return columns_; }
    const std::vector<double>& row() const { return row_; }

  private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool pending_ = false, done_ = false;
    int runIndex_ = 0;
    std::vector<std::string> columns_;
    std::vector<double> row_;
};

struct ReleasedOutcome {
    bool interrupted = false;                    // Ctrl-C (KeyboardInterrupt) stopped the work
    std::optional<py::error_already_set> error;  // another Python error stopped it
    std::string crash;                           // what `work` threw, if anything
};

// Runs `work` on a new thread with the GIL released (call with the GIL held). `onRecord` is
// called with the GIL held for each record `handoff` carries; it may ask `control` to stop.
ReleasedOutcome runReleased(RunControl& control, RecordHandoff& handoff,
                            const std::function<void()>& work,
                            const std::function<void()>& onRecord);

}  // namespace ade::python
