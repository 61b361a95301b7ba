#pragma once
// Publication figures: one chart (a ChartSpec's metrics for the visible runs of a RunStore)
// rendered to PNG, SVG or PDF, or written as a PGFPlots figure (FigurePgf) or a matplotlib
// script (FigureMpl) with its data, with an editable title, axis labels, legend position and a screen
// or publication style. The GUI's File > Export and `attention-explorer-cli figure` both call
// this, so a figure made headless is the figure the GUI exports. Writes are atomic
// (ade::writeFileAtomic, like every other export).
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

#include "base/FigureFile.h"
#include "charts/ChartPanel.h"

class QChart;

namespace ade::ui {

class RunStore;

enum class FigureStyle { Screen, Publication };

struct FigureOptions {
    QSize size{1200, 800};  // logical pixels (PNG is size * scale pixels)
    double scale = 2.0;     // PNG device-pixel ratio
    FigureStyle style = FigureStyle::Publication;
    bool logY = true;
    bool symLogY = false;  // symmetric log y (signed quantities over decades), when !logY
    bool logX = false;
    double smoothing = 0.0;  // EMA weight; the raw curve is drawn faintly behind when > 0
    QString title;           // empty: the chart's own title
    QString xLabel;          // empty: "iteration"
    QString yLabel;          // empty: derived from the metrics
    Qt::Alignment legend = Qt::AlignRight;  // 0 hides the legend
    double xMin = 0, xMax = 0;              // x range; xMax <= xMin means all data
    double yMin = 0, yMax = 0;              // y range (axis units); yMax <= yMin: from the data
    // Curves hidden on screen (legend keys "m:<column>", "r:<run id>"): not exported either.
    QStringList hidden;
    QString metadata;  // reproduction text: config, seed, CLI command (embedded in the file)
    // Seeds of one group as their mean with a min–max band (as on screen); false: every seed.
    bool seedBands = true;
    double fontPt = 0;   // the labels' type size in points (title a third larger); 0: by size
    // PGFPlots: the axis' width in cm (0: the column's width, \linewidth); its height follows
    // the size's aspect ratio. The Export dialog sets size and type from it for the other formats.
    double widthCm = 0;
};

// A two-column paper's widths: one column and the text (both columns), in cm.
constexpr double kOneColumnCm = 8.5, kTwoColumnsCm = 17.8;
inline int pointsOfCm(double cm) { return static_cast<int>(cm / 2.54 * 72 + 0.5); }
// The options for a figure `cm` wide in a paper, as the Export dialog sets them: the size in
// points (height two thirds of the width), 8 pt type unless a size is set, a PNG scale of 4
// (about 300 dpi) and a legend beside the plot moved below it.
void applyPaperWidth(FigureOptions& options, double cm);

// Builds the chart (caller owns it); nullptr when no visible run has a column of this spec.
std::unique_ptr<QChart> buildFigureChart(const ChartSpec& spec, const RunStore& store,
                                         const FigureOptions& options);
bool renderFigure(const ChartSpec& spec, const RunStore& store, const FigureOptions& options,
                  FigureFormat format, const QString& path, QString* error);
// Whether a visible run has a column of this spec (buildFigureChart would draw something).
bool figureHasData(const ChartSpec& spec, const RunStore& store, const FigureOptions& options);


// The charts a figure can be made of: those of the visible runs' experiments that have data.
std::vector<ChartSpec> figureCharts(const RunStore& store);

// Every chart of figureCharts() that has data, into `dir` as <id>.<suffix> for each
// format. Returns the files written; stops at the first error (already written files stay).
// `perChart` adjusts the options of each chart (the GUI passes each panel's zoom and hidden
// curves).
QStringList renderAllFigures(
    const RunStore& store, const FigureOptions& options, const std::vector<FigureFormat>& formats,
    const QString& dir, QString* error,
    const std::function<void(const ChartSpec&, FigureOptions&)>& perChart = {});

}  // namespace ade::ui
