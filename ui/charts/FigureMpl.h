#pragma once
// A chart as a matplotlib script for a researcher to restyle: <name>.py with <name>.csv beside
// it (every record of each curve inside the x range, no cap: curve, x, y, lo, hi). The script
// redraws the figure (colours, line styles, markers, labels with subscripts, log axes, bands
// over seeds, the legend) with matplotlib alone (the csv module reads the data) and saves it:
// `python3 <name>.py [OUT.pdf|png|svg]` (default <name>_mpl.pdf beside the script).
#include <QString>

#include "charts/FigureData.h"

namespace ade::ui {

struct FigureOptions;

// Writes `path` (the .py) and its CSV beside it, atomically each; false with `error`.
bool writeMplFigure(const FigureData& data, const FigureOptions& options, const QString& path,
                    QString* error);

// Plain text with the papers' notation as a matplotlib label: "_x" as mathtext subscripts
// ("‖W$_{Q}$‖$_{F}$"), '$' escaped.
QString mplText(const QString& plain);
// A curve's legend label: its run's name as it is ('$' escaped), " · ", its metric's notation.
QString mplLabel(const FigureCurve& curve);

// A Python string literal of `s` (the scripts are UTF-8).
QString pyString(const QString& s);

}  // namespace ade::ui
