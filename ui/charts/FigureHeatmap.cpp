#include "charts/FigureHeatmap.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "base/ColorMaps.h"
#include "base/FigureFile.h"
#include "charts/FigureMpl.h"
#include "charts/FigurePgf.h"
#include "charts/FigureRenderer.h"
#include "io/Files.h"

namespace ade::ui {

int HeatmapFigure::rowCount() const {
    int rows = 0;
    for (const HeatmapPanel& p : panels)
        rows = std::max(rows, p.row + 1);
    return rows;
}

int HeatmapFigure::columnCount() const {
    std::map<int, int> perRow;
    int most = 0;
    for (const HeatmapPanel& p : panels)
        most = std::max(most, ++perRow[p.row]);
    return most;
}

std::vector<QColor> heatmapStops(HeatmapColours colours) {
    // The maps are piecewise linear between these stops (ColorMaps.cpp), so sampling them at
    // the stops' positions gives the stops themselves.
    std::vector<QColor> stops;
    if (colours == HeatmapColours::Viridis) return viridisStops();  // the landscape's map
    if (colours == HeatmapColours::Diverging)
        for (int i = 0; i <= 6; ++i)
            stops.push_back(divergingColor(-1.0 + i / 3.0, 1.0));
    else
        for (int i = 0; i <= 4; ++i)
            stops.push_back(sequentialColor(i / 4.0, 1.0));
    return stops;
}

QString heatmapColoursName(HeatmapColours colours) {
    switch (colours) {
        case HeatmapColours::Diverging: return QStringLiteral("diverging");
        case HeatmapColours::Sequential: return QStringLiteral("sequential");
        case HeatmapColours::Viridis: return QStringLiteral("viridis");
    }
    return {};
}

QColor heatmapColour(const HeatmapPanel& p, double v) {
    if (!std::isfinite(v) || (p.logColour && !(v > 0))) return QColor(0, 0, 0, 0);
    const double lo = p.logColour ? std::log10(std::max(p.lo, 1e-300)) : p.lo;
    const double hi = p.logColour ? std::log10(std::max(p.hi, 1e-300)) : p.hi;
    const double x = p.logColour ? std::log10(v) : v;
    return colourAlong(heatmapStops(p.colours), hi > lo ? (x - lo) / (hi - lo) : 0.5);
}

bool writePaperFigure(const PaperFigure& figure, const FigureOptions& options,
                      FigureFormat format, const QString& path, QString* error) {
    if (format != FigureFormat::Pgf && format != FigureFormat::Mpl) {
        if (error) *error = QObject::tr("%1: not a PGFPlots or matplotlib format").arg(path);
        return false;
    }
    const bool pgf = format == FigureFormat::Pgf;
    if (figure.lines) {
        FigureData d = *figure.lines;
        if (!options.title.isEmpty()) d.title = options.title;
        if (!options.xLabel.isEmpty()) d.xLabel = options.xLabel;
        if (!options.yLabel.isEmpty()) d.yLabel = options.yLabel;
        return pgf ? writePgfFigure(d, options, path, error) : writeMplFigure(d, options, path, error);
    }
    if (figure.maps && !figure.maps->panels.empty()) {
        HeatmapFigure f = *figure.maps;
        if (!options.title.isEmpty()) f.title = options.title;
        for (HeatmapPanel& p : f.panels) {  // every panel's axes (one row of one key each)
            if (!options.xLabel.isEmpty()) p.xLabel = options.xLabel;
            if (!options.yLabel.isEmpty()) p.yLabel = options.yLabel;
        }
        return pgf ? writePgfHeatmaps(f, options, path, error) : writeMplHeatmaps(f, options, path, error);
    }
    if (error) *error = QObject::tr("%1: the view has nothing to draw").arg(path);
    return false;
}

}  // namespace ade::ui
