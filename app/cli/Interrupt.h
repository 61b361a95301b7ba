#pragma once
// Ctrl-C and SIGTERM for the CLI's commands that run training: while a StopOnInterrupt lives,
// either signal asks its RunControl to stop (runs end at their next iteration and keep what they
// computed); interrupted() then says so, for the exit status.
#include "util/RunControl.h"

namespace ade {

class StopOnInterrupt {
  public:
    explicit StopOnInterrupt(RunControl& control);
    ~StopOnInterrupt();
    StopOnInterrupt(const StopOnInterrupt&) = delete;
    StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;
};

// Whether SIGINT or SIGTERM arrived since the program started.
bool interrupted();

}  // namespace ade
