#pragma once
// A chart as a PGFPlots figure for a LaTeX paper: <name>.tex, a tikzpicture to \input, with its
// data tables beside it (<name>-1.dat, ...: every record of each curve inside the x range, no
// cap). Fonts are the document's (no font is set), the axes log where the chart's are, bands
// over seeds are `fill between` their min and max, the legend is PGFPlots' own. The document
// needs \usepackage{pgfplots} and \usepgfplotslibrary{fillbetween} (the file's header says so).
#include <QString>

#include "charts/FigureData.h"

namespace ade::ui {

struct FigureOptions;

// Writes `path` (the .tex) and its tables beside it, atomically each; false with `error`.
bool writePgfFigure(const FigureData& data, const FigureOptions& options, const QString& path,
                    QString* error);

// Plain text with the papers' notation ("‖W_Q‖_F", "L_n(θ)") as LaTeX text: special characters
// escaped, "_x" as a subscript, "^x" (a signed word, a braced group) as a superscript, Greek letters and symbols in math mode; any character pdflatex
// would not know without extra packages is replaced by '?'.
QString latexText(const QString& plain);
// The same for a name ("precond_seed3"): every character as itself, '_' too.
QString latexLiteral(const QString& name);
// A curve's legend label: its run's name as it is, " · ", its metric's notation.
QString latexLabel(const FigureCurve& curve);

}  // namespace ade::ui
