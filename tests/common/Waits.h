#pragma once

// How long a test waits for a condition (records, a pause, the end of a run, a layout settling).
// A ceiling, not a delay: the QTRY_* waits end as soon as their condition holds, so a passing
// test is not slower. Qt's QTRY_* default of 5 s is too short under AddressSanitizer on a 2-core
// machine running two tests at once (ui_window waited 6.4 s for a preset's nine runs) or under
// `stress-ng --cpu 2`; every wait in the suite uses this instead. It stays below ctest's
// per-test timeout (300 s, tests/CMakeLists.txt), so a condition that never holds fails at its
// own line rather than as a killed test; a 60 s ceiling was once reached by ui_seeds under ASan
// (nine runs at n = 128: 62.6 s), so the ceiling is set far above any run's cost instead.
inline constexpr int kRunWaitMs = 240000;
