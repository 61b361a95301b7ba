#pragma once
// The `figure` command's loss-landscape option --grid (--panels, --run and --iteration are
// parsed with the other options in CliArgs.cpp): parsed here, rendered by
// LandscapeFigure.cpp. No Qt here (CliArgs is built without Qt too).
#include <functional>
#include <string>

#include "CliArgs.h"

// 1 when `arg` is one of these options (its value read through `value`), 0 when it is not,
// -1 on an invalid value (`error` set).
int parseLandscapeOption(const std::string& arg, const std::function<bool(std::string&)>& value,
                         CliArgs& a, std::string* error);
