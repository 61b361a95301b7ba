// Released.h.
#include "Released.h"

#include <exception>
#include <thread>

namespace ade::python {

void RecordHandoff::deliver(int runIndex, const std::vector<std::string>& columns,
                            const std::vector<double>& row) {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return !pending_; });
    runIndex_ = runIndex;
    columns_ = columns;
    row_ = row;
    pending_ = true;
    cv_.notify_all();
    cv_.wait(lock, [&] { return !pending_; });
}

void RecordHandoff::finish() {
    std::lock_guard lock(mutex_);
    done_ = true;
    cv_.notify_all();
}

bool RecordHandoff::wait(std::chrono::milliseconds poll, bool* done) {
    std::unique_lock lock(mutex_);
    cv_.wait_for(lock, poll, [&] { return pending_ || done_; });
    *done = done_ && !pending_;
    return pending_;
}

void RecordHandoff::release() {
    std::lock_guard lock(mutex_);
    pending_ = false;
    cv_.notify_all();
}

ReleasedOutcome runReleased(RunControl& control, RecordHandoff& handoff,
                            const std::function<void()>& work,
                            const std::function<void()>& onRecord) {
    ReleasedOutcome outcome;
    py::gil_scoped_release release;
    std::thread worker([&] {
        try {
            work();
        } catch (const std::exception& e) {
            outcome.crash = e.what();
        } catch (...) {
            outcome.crash = "an unknown error";
        }
        handoff.finish();
    });
    for (bool done = false; !done;) {
        // A Ctrl-C is seen within this time; a record at once.
        const bool pending = handoff.wait(std::chrono::milliseconds(100), &done);
        {
            py::gil_scoped_acquire acquire;
            if (PyErr_CheckSignals() != 0) {
                if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
                    PyErr_Clear();
                    outcome.interrupted = true;
                } else if (!outcome.error) {
                    outcome.error.emplace();
                } else {
                    PyErr_Clear();
                }
                control.requestStop();
            }
            if (pending && !control.stopRequested()) onRecord();
        }
        if (pending) handoff.release();
    }
    worker.join();
    return outcome;
}

}  // namespace ade::python
