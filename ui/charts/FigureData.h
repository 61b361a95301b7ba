#pragma once
// What an exported chart shows, before any drawing: its curves (every record of each visible
// curve inside the x range, full resolution), their colours, line styles, markers and bands,
// the axes' ranges and scales, title and labels. The Qt figure (FigureRenderer), the PGFPlots
// figure (FigurePgf) and the matplotlib script (FigureMpl) are all drawn from it, so the three
// agree on what is shown.
#include <QColor>
#include <QString>

#include <vector>

#include "charts/ChartPanel.h"
#include "charts/Ticks.h"

namespace ade::ui {

class RunStore;
struct FigureOptions;

struct FigureCurve {
    QString run;       // the run's or the group's name as the legend shows it ("gd (3 seeds)")
    QString notation;  // the metric's label in the papers' plain-text notation ("‖W_Q‖_F")
    QString column;    // the metric's column
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    int marker = -1;     // RunMarker (as an int) for runs past the palette's colours; -1 none
    bool faint = false;  // the raw curve drawn faintly behind its smoothed one (no legend)
    bool legend = true;  // false: drawn but not in the legend (a sweep's many configs)
    double width = 1;    // line width, relative
    std::vector<double> x, y;
    std::vector<double> lo, hi;  // the band over seeds (min–max), empty for a single run
    QString label() const { return notation.isEmpty() ? run : run + QStringLiteral(" · ") + notation; }
};

struct FigureData {
    QString id;  // the chart's id (file names)
    QString title, xLabel, yLabel;  // yLabel and title in plain-text notation ("_x")
    bool logX = false, logY = false, symLogY = false;
    double x0 = 0, x1 = 1;  // the x axis' range (the zoom window when zoomed)
    // The y axis' range: values on linear and log axes, sign(y) log10(1 + |y|) on a symmetric-log
    // one (SymLog.h; the curves keep their values, the drawing transforms them).
    double y0 = 0, y1 = 1;
    bool bands = false;     // some curve has a band (the legend's note says what it is)
    QString bandNote;       // what the bands are; "" the charts' "lines: mean over seeds; …"
    // Named x ticks (a sweep's categories, parallel coordinates' axes); empty: round numbers.
    std::vector<Tick> xTicks;
    std::vector<FigureCurve> curves;
};

// The figure of `spec` for the visible runs of `store`; false when no visible run has a column
// of it. Points outside the x range are left out but for one on each side (so that lines reach
// the axis' ends before they are clipped).
bool figureData(const ChartSpec& spec, const RunStore& store, const FigureOptions& options,
                FigureData* out);

}  // namespace ade::ui
