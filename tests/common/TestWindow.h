#pragma once
// The explorer window for the GUI tests (targets linked with ade_ui only): shown, with its
// settings neither read nor written, so that tests do not depend on each other or on the user;
// with the headers of the window's parts the tests drive (its commands, autopilot, tabs).
#include <memory>

#include "about/AboutPanel.h"
#include "base/ActionTable.h"
#include "sweep/SweepTab.h"
#include "window/Autopilot.h"
#include "window/MainWindow.h"
#include "window/PresentationMode.h"
#include "window/RunCommands.h"
#include "Waits.h"

namespace adetest {

inline std::unique_ptr<ade::ui::MainWindow> makeWindow() {
    ade::ui::LaunchOptions o;
    o.persistSettings = false;
    auto w = std::make_unique<ade::ui::MainWindow>(o);
    w->show();
    return w;
}

}  // namespace adetest
