#pragma once
// The window driven from its command line (LaunchOptions): the preset, session, Optuna study or
// lesson to open at start, --autorun, and once the runs are done (or a run passes --screenshot-at) the
// screenshot, the --stats file (frame times, solver rate, logged points, the inside views' and
// the claims' cost on the GUI thread) and --quit-when-done.
#include <QObject>

#include <cstddef>
#include <QString>

#include "window/LaunchOptions.h"

namespace ade::ui {

class MainWindow;

class Autopilot : public QObject {
    Q_OBJECT
  public:
    Autopilot(MainWindow* window, const LaunchOptions& options);
    // Applies the options once the event loop runs (a crash's recovery file is offered first).
    void launch();
    // The settings brought back the form: no default preset at start.
    void setFormRestored(bool restored) { formRestored_ = restored; }
    // The window's runs all ended / its controller drained its queues.
    void onAllFinished();
    void onDrained();
    bool saveScreenshot(const QString& file);
    bool writeStats(const QString& file, QString* error = nullptr) const;

  signals:
    void screenshotSaved(const QString& file);

  private:
    void finishLaunch();
    // The preset, session or lesson of the options; false when it could not be opened.
    bool open(bool* started);
    MainWindow* window_;
    LaunchOptions options_;
    bool pending_ = false;
    bool formRestored_ = false;
    bool screenshotTaken_ = false;
    std::size_t startResidentKiB_ = 0;  // before the runs: the baseline of --stats' memory
};

}  // namespace ade::ui
