#pragma once
// What the PGFPlots and matplotlib writers (FigurePgf, FigureMpl, FigureHeatmapPgf,
// FigureHeatmapMpl) share: the walk over a figure's curves and their points with the bands over
// seeds, the files' heading, a script's first and last lines, the figure's size in inches.
#include <QString>

#include <functional>

#include "charts/FigureData.h"

namespace ade::ui {

struct FigureOptions;

// One curve of the walk: its number from 1 (file names, colours), whether its band is drawn
// (a band over seeds, not on a faint raw curve) and whether it has a legend entry.
struct CurveDraw {
    int n;
    const FigureCurve& curve;
    bool band;
    bool legend;
};
// Calls `f` for each curve in order, stopping at the first false; false when one returned false.
bool forEachCurve(const FigureData& d, const std::function<bool(const CurveDraw&)>& f);
// Calls `f` for each point of `c`: x, y, and the band's lo and hi (NaN where there is none).
void forEachPoint(const FigureCurve& c, const std::function<void(double x, double y, double lo, double hi)>& f);

// Writes `text` to `path` atomically; false with `error` (the figure writers' one file write).
bool writeFigureText(const QString& path, const QString& text, QString* error);

// The y axis' ends as values (a symmetric-log axis' ends transformed back).
double shownY(const FigureData& d, double axisY);

// "<comment> <title>: <what>, written by Attention Dynamics Explorer." and the reproduction
// text, each line behind `comment` ("%" or "#").
QString figureHeading(const QString& comment, const QString& title, const QString& what,
                      const QString& metadata);

// A matplotlib script's start: the shebang, the heading, `dataNote` (comment lines), its usage,
// the imports (`imports` after pyplot's) and HERE / DATA (<stem>.csv beside it).
QString mplScriptStart(const QString& title, const QString& metadata, const QString& dataNote,
                       const QString& stem, const QString& imports);
// Its end: main() saves the figure (and shows it with --show), then the main guard.
QString mplScriptEnd();
// The figure's size in inches (the width in cm asked for, else the pixel size at 100 dpi, the
// height by the size's aspect) and type size in points, as SIZE_IN and FONT_PT.
QString mplSizeLines(const FigureOptions& o);
// A PGFPlots figure at the options' type size (fontPt > 0; else `tex` as it is): the picture's
// font the document's at that size (\begin{tikzpicture}[font=\fontsize{P}{1.2P}\selectfont]),
// its smaller labels in proportion (\footnotesize 0.8, \scriptsize 0.7, \small 0.9 of it).
QString pgfTypeSize(QString tex, const FigureOptions& o);

// The papers' notation in a label: at plain[i], a '_' or '^', the text it sets lower or higher
// ("_x", "_{ab}", and with `word` a signed word: "^t", "^−t"); `i` is left on its last
// character. The writers set it in their own languages (latexText, mplText).
QString scriptText(const QString& plain, qsizetype& i, bool word);

}  // namespace ade::ui
