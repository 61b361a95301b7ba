#include "base/ProcessMemory.h"

#include <cstdlib>
#include <fstream>
#include <string>

namespace ade::ui {

ProcessMemory processMemory() {
    ProcessMemory m;
    std::ifstream f("/proc/self/status");
    std::string line;
    auto kib = [&line](const char* key, std::size_t& out) {  // "VmRSS:\t  123456 kB"
        const std::string k(key);
        if (line.compare(0, k.size(), k) == 0)
            out = static_cast<std::size_t>(std::strtoull(line.c_str() + k.size(), nullptr, 10));
    };
    while (std::getline(f, line)) {
        kib("VmRSS:", m.residentKiB);
        kib("VmHWM:", m.peakResidentKiB);
    }
    return m;
}

}  // namespace ade::ui
