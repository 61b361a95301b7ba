#pragma once
// The explorer window for the GUI tests (targets linked with ade_ui only): shown, with its
// settings neither read nor written, so that tests do not depend on each other or on the user.
#include <memory>

#include "MainWindow.h"

// How long a test waits for training runs to reach a point (records, a pause, the end). Qt's
// QTRY_* default of 5 s is too short under AddressSanitizer on a 2-core machine running two
// tests at once (ui_window waited 6.4 s for a preset's nine runs); the wait ends as soon as the
// condition holds, so a passing test is not slower.
inline constexpr int kRunWaitMs = 60000;

namespace adetest {

inline std::unique_ptr<ade::ui::MainWindow> makeWindow() {
    ade::ui::LaunchOptions o;
    o.persistSettings = false;
    auto w = std::make_unique<ade::ui::MainWindow>(o);
    w->show();
    return w;
}

}  // namespace adetest
