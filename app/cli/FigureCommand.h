#pragma once
#include "CliArgs.h"
#include "plan/Preset.h"

// `figure`: renders the GUI's charts headless. Only built with the Qt GUI (ADE_HAVE_FIGURES).
int runFigureCommand(const CliArgs& args, const ade::PresetLibrary& lib, int argc, char** argv);
