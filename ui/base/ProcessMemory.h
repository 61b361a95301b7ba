#pragma once
// This process's memory, as Linux counts it (/proc/self/status): what is resident now and the
// most that ever was (the high-water mark). Both 0 where /proc is not there.
#include <cstddef>

namespace ade::ui {

struct ProcessMemory {
    std::size_t residentKiB = 0;      // VmRSS
    std::size_t peakResidentKiB = 0;  // VmHWM
};

ProcessMemory processMemory();

}  // namespace ade::ui
