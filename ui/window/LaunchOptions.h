#pragma once
// What the command line asks of the window (app/gui/main.cpp parses it; window/Autopilot acts).
#include <QString>

#include <string>
#include <vector>

namespace ade::ui {

struct LaunchOptions {
    QString preset;                 // load this preset at start
    QString session;                // or open this saved session at start
    QString optunaStudy;            // or show this Optuna study's storage in the sweep tab
    QString study;                  // its study of that name ("" = the first)
    std::vector<std::string> sets;  // "KEY=VALUE" overrides for every run of that preset
    int seeds = 0;                  // seeds per run of that preset (0: the preset's "seeds")
    bool autorun = false;           // start its runs (or sweep) at once
    bool quitWhenDone = false;
    QString screenshot;           // PNG of the window when the runs are done (or at screenshotAt)
    long screenshotAt = -1;       // take the screenshot once a run passes this iteration
    QString stats;                // JSON with frame times, solver rate, logged points
    bool presentation = false;    // start in presentation mode (charts only, large type)
    QString lesson;               // play this lesson (a name of the Lessons menu, or a file)
    bool persistSettings = true;  // QSettings, recent sessions, crash recovery (off in tests)
    // Closing with runs not saved asks Save / Discard / Cancel (the program turns it on unless
    // --quit-when-done; off in tests, which turn it on where they test it).
    bool askBeforeClosing = false;
    std::string argv0;
};

}  // namespace ade::ui
