#pragma once
// The instruction-set level the hot kernels run at (issue 31: as fast from the package as from
// source). The kernels — Experiment A's attention loss, B's attention head, C's LoRA network and
// Darcy's ViT regressor, with the Eigen products they call — are compiled once per x86-64 level
// the build lists (ADE_KERNEL_LEVELS in core/CMakeLists.txt: the x86-64 baseline, x86-64-v3 =
// AVX2 + FMA, x86-64-v4 = AVX-512), each into an object whose every symbol but its entry points
// is local (util/KernelDispatch.h), while the rest of the program is compiled for the baseline.
// One binary then runs on every x86-64 CPU at the speed of its best level. A build with
// -march=native (ADE_NATIVE=ON) has one level, "native".
//
// The level is chosen once, at the first question: the best level that is built and that the
// running CPU supports — unless the environment variable ADE_CPU_LEVEL names another (x86-64,
// x86-64-v3, x86-64-v4; for tests, and for a user who wants to compare). A named level that is
// not built or that this CPU lacks is not taken: the best level runs, and levelNote() says why.
#include <string>
#include <string_view>
#include <vector>

namespace ade::cpu {

// The levels this build compiled its kernels for, lowest first ("x86-64", "x86-64-v3",
// "x86-64-v4"; or "native").
const std::vector<std::string>& builtLevels();

// Whether the running CPU (and its operating system) can execute the level's instructions.
bool supports(std::string_view level);

// Index into builtLevels() of the level the kernels run at, and its name.
int levelIndex();
const std::string& levelName();

// "x86-64-v4 (built: x86-64, x86-64-v3, x86-64-v4)": what --version and the About box say.
std::string levelSummary();

// Empty, or why $ADE_CPU_LEVEL was not followed (the programs print it once at start).
const std::string& levelNote();

// Runs the kernels at `level` from now on (tests compare the levels in one process). Returns
// false, changing nothing, when the level is not built or the CPU lacks it; `error` says which.
bool forceLevel(std::string_view level, std::string* error = nullptr);

}  // namespace ade::cpu
