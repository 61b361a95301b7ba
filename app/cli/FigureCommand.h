#pragma once
#include <QApplication>

#include <memory>
#include <string>
#include <vector>

#include "CliArgs.h"
#include "output/Session.h"
#include "plan/PlanRunner.h"
#include "plan/Preset.h"

// `figure`: renders the GUI's charts headless. Only built with the Qt GUI (ADE_HAVE_FIGURES).
int runFigureCommand(const CliArgs& args, const ade::PresetLibrary& lib, int argc, char** argv);

// `animate`: a session's run over its snapshots as MP4 / GIF / PNG frames (ui/inspect/).
int runAnimateCommand(const CliArgs& args, int argc, char** argv);

// The Qt application headless rendering needs (offscreen platform, a private runtime folder);
// one per process, alive while figures are rendered.
class HeadlessQt {
  public:
    HeadlessQt(int& argc, char** argv);
    ~HeadlessQt();

  private:
    std::unique_ptr<QApplication> app_;
};

// The charts of a session as PNG files in `dir` (the report's figures); returns their paths.
std::vector<std::string> renderSessionFigures(const ade::Session& session, const std::string& dir,
                                              const std::string& commandLine, std::string* error);

// A sweep's fitted power laws as a log-log PNG (points: geometric means over seeds; lines: the
// fits) at `path`; false with `error` when it cannot be written.
bool renderScalingFigure(const std::vector<ade::PowerLawFit>& fits, const std::string& xKey,
                         const std::string& yLabel, const std::string& path, std::string* error);
