#pragma once
// Heatmaps as paper figures: the inside views' matrices and attention, the loss landscape's grid
// and the sweep's two-key view, as data (HeatmapFigure) written as a PGFPlots figure (`matrix
// plot*` in a `groupplot`, the views' own colour map, a colour bar per panel; FigureHeatmapPgf)
// or a matplotlib script (`pcolormesh`, the same map, `colorbar`; FigureHeatmapMpl), each with
// its data at full resolution beside it. Figures of lines (the factor plane, the sweep's one-key
// and parallel-coordinates views) are FigureData, written by FigurePgf and FigureMpl like a
// chart; PaperFigure is either, so a view hands its export one value.
#include <QColor>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

#include "charts/FigureData.h"
#include "charts/FigureText.h"
#include "charts/Ticks.h"

namespace ade::ui {

struct FigureOptions;
enum class FigureFormat;

// ColorMaps' PuOr (signed entries) and Blues (weights), the landscape map's viridis.
enum class HeatmapColours { Diverging, Sequential, Viridis };

struct HeatmapPanel {
    QString title;  // plain-text notation ("L Rᵀ − X*")
    int row = 0;    // panels of one row sit side by side, each row below the one before
    int rows = 0, cols = 0;
    std::vector<double> values;  // rows × cols, row-major; NaN: no value (left blank)
    // The columns' and rows' coordinates (the landscape's t and s); empty: 1..cols, 1..rows.
    std::vector<double> xs, ys;
    QStringList xCategories, yCategories;  // the columns' / rows' tick labels (a sweep's keys)
    QString xLabel, yLabel;
    bool yDown = true;  // row 0 at the top (a matrix); false: y grows upwards (a plot)
    HeatmapColours colours = HeatmapColours::Diverging;
    double lo = -1, hi = 1;   // the colour scale's ends (values; on a log scale both > 0)
    bool logColour = false;   // the colour scale is log10 of the values
    QString colourLabel;      // the colour bar's caption ("" none)
    // A path drawn over the map (the landscape's trajectory), in the axes' coordinates.
    std::vector<double> pathX, pathY;
    int pathMarker = -1;  // the path's point that is marked (-1 none)
    double at(int r, int c) const { return values[static_cast<std::size_t>(r) * cols + c]; }
};

struct HeatmapFigure {
    QString id;     // file names
    QString title;  // above the panels ("" none)
    std::vector<HeatmapPanel> panels;
    int rowCount() const;
    int columnCount() const;  // the most panels of one row
};

// A view's figure for PGFPlots and matplotlib: lines (a chart's kind) or heatmaps.
struct PaperFigure {
    std::optional<FigureData> lines;
    std::optional<HeatmapFigure> maps;
};

// The colour map's stops, evenly spaced from its low end to its high end (the very colours of
// divergingColor / sequentialColor / the landscape map's viridis), and its name in the files.
std::vector<QColor> heatmapStops(HeatmapColours colours);
QString heatmapColoursName(HeatmapColours colours);  // "diverging", "sequential", "viridis"
// The panel's colour of value `v` (its scale lo..hi, log when logColour); NaN: transparent.
QColor heatmapColour(const HeatmapPanel& panel, double v);

// The colour bar's ticks of `panel` along a bar `points` long: on a log scale (logColour) at
// round values — whole powers of ten, with 2 and 5 times them when the scale spans under about a
// decade, as the charts' log axes (Ticks.h: logTicks) — never at a fractional power ("10^0.5");
// their positions log10 of the values. Empty on a linear scale (the writers' own round ticks).
std::vector<Tick> colourBarTicks(const HeatmapPanel& panel, double points);
// A colour scale's ticks from `lo` to `hi` (values) along `pixels` of bar in `font`: on a log
// scale logTicks (positions log10 of round values), on a linear one fittingTicks. The live
// landscape map's bar and the paper figures' bars tick alike.
std::vector<Tick> colourScaleTicks(double lo, double hi, bool log, double pixels, const QFont& font);
// The length of a panel's colour bar in points (its plot's height) in a figure of `options`.
double colourBarPoints(const HeatmapFigure& figure, const HeatmapPanel& panel,
                       const FigureOptions& options);
// A tick's text as TeX math (LaTeX and matplotlib's mathtext): "10⁻⁶" -> "$10^{-6}$",
// "2×10⁻⁵" -> "$2\times10^{-5}$", "−0.5" -> "$-0.5$", "0.002" as it is.
QString mathTickText(const QString& text);

bool writePgfHeatmaps(const HeatmapFigure& figure, const FigureOptions& options,
                      const QString& path, QString* error);
bool writeMplHeatmaps(const HeatmapFigure& figure, const FigureOptions& options,
                      const QString& path, QString* error);

// `figure` as `format` (Pgf or Mpl) at `path`; false with `error` (also for a painted format or
// an empty figure). The options' title and axis labels, when set (an Export dialog's), replace
// the figure's: the heatmaps' axis labels on every panel.
bool writePaperFigure(const PaperFigure& figure, const FigureOptions& options,
                      FigureFormat format, const QString& path, QString* error);

}  // namespace ade::ui
