#pragma once
// `figure --panels landscape`: the loss landscape's contour map of one run of the store, written
// as DIR/landscape.<format> with the GUI panel's own drawing (ui/inspect/LandscapeMap.h).
#include <QStringList>

#include <string>
#include <vector>

#include "CliArgs.h"
#include "charts/FigureRenderer.h"

namespace ade::ui {
class RunStore;
}

// The run is --run NAME (default: the first run with parameters), the centre its snapshot at
// --iteration N (default: the latest parameters), the grid --grid N × N. Painted formats are
// 900 × 760 unless --size or a paper width (`options`) says otherwise; pgf and mpl write the
// grid's data (InsideFigurePaper's landscapeHeatmap). Appends the files written to `written`;
// false with `error`.
bool renderLandscapeFigures(const CliArgs& a, const ade::ui::RunStore& store,
                            const ade::ui::FigureOptions& options,
                            const std::vector<ade::ui::FigureFormat>& formats, const QString& dir,
                            QStringList* written, std::string* error);
