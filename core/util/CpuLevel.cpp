#include "util/CpuLevel.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "KernelLevels.h"

namespace ade::cpu {

namespace {

#define ADE_LEVEL_NAME_(id, name) name,
const char* const kBuilt[] = {ADE_FOR_EACH_KERNEL_LEVEL(ADE_LEVEL_NAME_)};
#undef ADE_LEVEL_NAME_
constexpr int kBuiltCount = static_cast<int>(sizeof kBuilt / sizeof kBuilt[0]);

// The psABI levels by the features that define them; the compiler's runtime also checks that
// the operating system saves the AVX and AVX-512 registers (XCR0).
bool cpuHas(std::string_view level) {
    __builtin_cpu_init();
    if (level == "x86-64" || level == "native") return true;
#if defined(__clang__)
    // Clang 14 knows the features, not GCC's level names.
    const bool v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    if (level == "x86-64-v3") return v3;
    if (level == "x86-64-v4")
        return v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512cd");
#else
    if (level == "x86-64-v3") return __builtin_cpu_supports("x86-64-v3");
    if (level == "x86-64-v4") return __builtin_cpu_supports("x86-64-v4");
#endif
    return false;
}

int indexOf(std::string_view level) {
    for (int i = 0; i < kBuiltCount; ++i)
        if (level == kBuilt[i]) return i;
    return -1;
}

std::string builtText() {
    std::string s;
    for (int i = 0; i < kBuiltCount; ++i)
        s += (i ? ", " : "") + std::string(kBuilt[i]);
    return s;
}

std::string refusal(std::string_view level) {
    if (indexOf(level) < 0)
        return "'" + std::string(level) + "' is not a kernel level of this build (" + builtText() +
               ")";
    return "this CPU does not support " + std::string(level);
}

std::atomic<int> chosen{-1};
std::string note;
std::once_flag once;

void choose() {
    std::call_once(once, [] {
        int best = 0;
        for (int i = 0; i < kBuiltCount; ++i)
            if (cpuHas(kBuilt[i])) best = i;
        if (const char* env = std::getenv("ADE_CPU_LEVEL"); env && *env) {
            const int forced = indexOf(env);
            if (forced >= 0 && cpuHas(env)) {
                best = forced;
            } else {
                note = "ADE_CPU_LEVEL: " + refusal(env) + "; the kernels run at " +
                       std::string(kBuilt[best]);
            }
        }
        // Only the first choice: a test may have forced a level already.
        int unset = -1;
        chosen.compare_exchange_strong(unset, best);
    });
}

}  // namespace

const std::vector<std::string>& builtLevels() {
    static const std::vector<std::string> levels(kBuilt, kBuilt + kBuiltCount);
    return levels;
}

bool supports(std::string_view level) {
    return cpuHas(level);
}

int levelIndex() {
    const int i = chosen.load(std::memory_order_acquire);
    if (i >= 0) return i;
    choose();
    return chosen.load(std::memory_order_acquire);
}

const std::string& levelName() {
    return builtLevels()[levelIndex()];
}

std::string levelSummary() {
    return levelName() + " (built: " + builtText() + ")";
}

const std::string& levelNote() {
    choose();
    return note;
}

bool forceLevel(std::string_view level, std::string* error) {
    const int i = indexOf(level);
    if (i < 0 || !cpuHas(level)) {
        if (error) *error = refusal(level);
        return false;
    }
    choose();
    chosen.store(i, std::memory_order_release);
    return true;
}

}  // namespace ade::cpu
