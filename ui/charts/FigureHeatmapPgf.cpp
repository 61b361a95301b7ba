// Heatmaps as a PGFPlots figure: one `groupplot` of the panels (rows as the view has them), each
// a `matrix plot*` of its table <name>-<n>.dat (x y v: every cell, no cap) with the view's
// colour map and a colour bar; a trajectory over a map is <name>-<n>-path.dat.
#include <QBuffer>
#include <QDir>
#include <QImage>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

#include "charts/FigureHeatmap.h"
#include "charts/FigurePgf.h"
#include "base/FigureFile.h"
#include "charts/FigureRenderer.h"

namespace ade::ui {

namespace {

// The most cells a `matrix plot*` may have: pdflatex's main memory (5,000,000 words in TeX
// Live) runs out between 64 × 64 and 128 × 128; larger maps are embedded as images.
constexpr long kMaxMatrixPlotCells = 64 * 64;

QString texNumber(double v) {
    return std::isfinite(v) ? QString::number(v, 'g', 10) : QStringLiteral("nan");
}

// The coordinate of cell `i` along an axis of `n` cells (`at` its centres, else 1..n) and the
// axis' ends (half a cell beyond the outer centres).
double centre(const std::vector<double>& at, int i) {
    return at.empty() ? i + 1.0 : at[static_cast<std::size_t>(i)];
}
std::pair<double, double> ends(const std::vector<double>& at, int n) {
    if (at.size() < 2) return {0.5, n + 0.5};
    const double first = at.front() - 0.5 * (at[1] - at[0]);
    const double last = at.back() + 0.5 * (at.back() - at[at.size() - 2]);
    return {std::min(first, last), std::max(first, last)};
}

QString colormap(const QString& name, HeatmapColours c) {
    QString s = QStringLiteral("colormap={%1}{").arg(name);
    for (const QColor& q : heatmapStops(c))
        s += QStringLiteral("rgb255=(%1,%2,%3) ").arg(q.red()).arg(q.green()).arg(q.blue());
    return s.trimmed() + '}';
}

QString tickList(const QString& axis, const QStringList& categories) {
    QStringList at, labels;
    for (int i = 0; i < categories.size(); ++i) {
        at << QString::number(i + 1);
        labels << QStringLiteral("{%1}").arg(latexText(categories[i]));
    }
    return axis + QStringLiteral("tick={") + at.join(',') + QStringLiteral("}, ") + axis +
           QStringLiteral("ticklabels={") + labels.join(',') + '}';
}

}  // namespace

bool writePgfHeatmaps(const HeatmapFigure& f, const FigureOptions& o, const QString& path,
                      QString* error) {
    const QFileInfo info(path);
    const QString stem = info.completeBaseName();
    const QDir dir = info.absoluteDir();
    const int rows = f.rowCount(), cols = std::max(1, f.columnCount());
    // Each panel's plot area: its share of the width less the gaps between panels (their y
    // labels) and the colour bar at the row's end.
    bool yLabels = false;
    for (const HeatmapPanel& p : f.panels)
        yLabels = yLabels || !p.yLabel.isEmpty() || !p.yCategories.isEmpty() || !p.ys.empty();
    const double sepCm = yLabels ? 1.8 : 1.0;
    const QString total = o.widthCm > 0 ? QStringLiteral("%1cm").arg(o.widthCm, 0, 'f', 2)
                                        : QStringLiteral("\\linewidth");
    // Every panel's y labels (the first panel's too: they stand left of the figure's box, over
    // the neighbouring column otherwise) and the colour bar with its ticks and label.
    const QString width = QStringLiteral("(%1-%2cm)/%3").arg(total).arg(2.4 + cols * sepCm, 0, 'f', 2).arg(cols);

    QString plots;
    int n = 0;
    for (int row = 0; row < rows; ++row) {
        int inRow = 0;
        for (std::size_t k = 0; k < f.panels.size(); ++k) {
            const HeatmapPanel& p = f.panels[k];
            if (p.row != row) continue;
            ++n;
            ++inRow;
            // One colour bar for panels of a row on one scale: at the last of them.
            const HeatmapPanel* next = nullptr;
            for (std::size_t j = k + 1; j < f.panels.size() && !next; ++j)
                if (f.panels[j].row == row) next = &f.panels[j];
            const bool ownBar = !next || next->lo != p.lo || next->hi != p.hi ||
                                next->colours != p.colours || next->logColour != p.logColour;
            // The table: every cell, x varying fastest (mesh/ordering=x varies).
            QString t = QStringLiteral("x y v\n");
            for (int r = 0; r < p.rows; ++r)
                for (int c = 0; c < p.cols; ++c) {
                    const double v = p.at(r, c);
                    const double meta = p.logColour ? (v > 0 ? std::log10(v) : NAN) : v;
                    t += texNumber(centre(p.xs, c)) + ' ' + texNumber(centre(p.ys, r)) + ' ' + texNumber(meta) + '\n';
                }
            const QString file = QStringLiteral("%1-%2.dat").arg(stem).arg(n);
            if (!writeFigureText(dir.filePath(file), t, error)) return false;

            const auto [x0, x1] = ends(p.xs, p.cols);
            const auto [y0, y1] = ends(p.ys, p.rows);
            const double lo = p.logColour ? std::log10(std::max(p.lo, 1e-300)) : p.lo;
            double hi = p.logColour ? std::log10(std::max(p.hi, 1e-300)) : p.hi;
            if (!(hi > lo)) hi = lo + 1;
            const double aspect = std::clamp(double(p.rows) / std::max(1, p.cols), 0.35, 2.0);
            QStringList axis;
            axis << QStringLiteral("title={%1}").arg(latexText(p.title))
                 << (p.title.size() > 24 ? QStringLiteral("title style={text width={%1}, align=center, font=\\small}").arg(width)
                                         : QStringLiteral("title style={font=\\small}"))
                 << QStringLiteral("width={%1}, height={(%1)*%2}").arg(width).arg(aspect, 0, 'f', 3)
                 << QStringLiteral("colormap name=ade") + heatmapColoursName(p.colours)
                 << QStringLiteral("point meta min=%1, point meta max=%2").arg(texNumber(lo), texNumber(hi))
                 << QStringLiteral("xmin=%1, xmax=%2, ymin=%3, ymax=%4").arg(texNumber(x0), texNumber(x1), texNumber(y0), texNumber(y1));
            if (ownBar) {
                QString bar = QStringLiteral("colorbar, colorbar style={width=0.25cm, ylabel={%1}, "
                                             "ylabel style={font=\\footnotesize}, yticklabel style={font=\\footnotesize}")
                                  .arg(latexText(p.colourLabel));
                // A log scale's ticks at round values (never "10^0.5"), placed at their logarithm.
                const std::vector<Tick> ticks = colourBarTicks(p, colourBarPoints(f, p, o));
                if (!ticks.empty()) {
                    QStringList at, labels;
                    for (const Tick& t : ticks) {
                        at << texNumber(t.value);
                        labels << QStringLiteral("{%1}").arg(mathTickText(t.text));
                    }
                    bar += QStringLiteral(", ytick={%1}, yticklabels={%2}").arg(at.join(','), labels.join(','));
                }
                axis << bar + '}';
            }
            if (p.yDown) axis << QStringLiteral("y dir=reverse");
            if (!p.xLabel.isEmpty()) axis << QStringLiteral("xlabel={%1}").arg(latexText(p.xLabel));
            if (!p.yLabel.isEmpty()) axis << QStringLiteral("ylabel={%1}").arg(latexText(p.yLabel));
            // Index axes (a matrix's rows and columns): every index while few, else a round step.
            auto indexTicks = [](const char* axisName, int count) {
                return count > 12 ? QStringLiteral("%1tick distance=%2").arg(QLatin1String(axisName)).arg(std::ceil(count / 6.0))
                                  : QStringLiteral("%1tick={1,...,%2}").arg(QLatin1String(axisName)).arg(count);
            };
            if (!p.xCategories.isEmpty())
                axis << tickList(QStringLiteral("x"), p.xCategories)
                     << QStringLiteral("xticklabel style={rotate=30, anchor=north east, font=\\scriptsize}");
            else if (p.xs.empty())
                axis << indexTicks("x", p.cols);
            if (!p.yCategories.isEmpty())
                axis << tickList(QStringLiteral("y"), p.yCategories)
                     << QStringLiteral("yticklabel style={font=\\scriptsize}");
            else if (p.ys.empty())
                axis << indexTicks("y", p.rows);
            axis << QStringLiteral("tick label style={font=\\footnotesize}, axis on top");
            plots += QStringLiteral("\\nextgroupplot[\n  ") + axis.join(QStringLiteral(",\n  ")) + QStringLiteral("]\n");
            // A missing value (a sweep's empty cell) has no colour in a matrix plot: an image.
            const bool gaps = std::any_of(p.values.begin(), p.values.end(), [&](double v) {
                return !std::isfinite(v) || (p.logColour && !(v > 0));
            });
            if (!gaps && static_cast<long>(p.rows) * p.cols <= kMaxMatrixPlotCells) {
                plots += QStringLiteral("\\addplot [matrix plot*, mesh/cols=%1, mesh/rows=%2, point meta=explicit] "
                                        "table [x=x, y=y, meta=v] {./\\explorerfigdir %3};\n")
                             .arg(p.cols).arg(p.rows).arg(file);
            } else {
                // Too many cells for TeX's memory, or gaps: the cells as an image, one pixel
                // each, in the same colours (the table beside it still has every value).
                QImage image(p.cols, p.rows, QImage::Format_ARGB32);
                for (int r = 0; r < p.rows; ++r)
                    for (int c = 0; c < p.cols; ++c)  // the image's top row is the axis' top
                        image.setPixelColor(c, p.yDown ? r : p.rows - 1 - r, heatmapColour(p, p.at(r, c)));
                const QString png = QStringLiteral("%1-%2.png").arg(stem).arg(n);
                QByteArray bytes;
                QBuffer buffer(&bytes);
                buffer.open(QIODevice::WriteOnly);
                if (!writeRenderedFigure(image.save(&buffer, "PNG"), bytes, dir.filePath(png), error)) return false;
                plots += QStringLiteral("\\addplot graphics [xmin=%1, xmax=%2, ymin=%3, ymax=%4, includegraphics={interpolate=false}] "
                                        "{\\explorerfigdir %5};\n")
                             .arg(texNumber(x0), texNumber(x1), texNumber(y0), texNumber(y1), png);
                // The colour bar needs a plot with point meta: an invisible one.
                plots += QStringLiteral("\\addplot [draw=none, mark=none, point meta=explicit, forget plot] "
                                        "coordinates {(%1,%2) [%3] (%1,%2) [%4]};\n")
                             .arg(texNumber(x0), texNumber(y0), texNumber(lo), texNumber(hi));
            }
            if (!p.pathX.empty()) {
                QString pt = QStringLiteral("x y\n");
                for (std::size_t i = 0; i < p.pathX.size() && i < p.pathY.size(); ++i)
                    pt += texNumber(p.pathX[i]) + ' ' + texNumber(p.pathY[i]) + '\n';
                const QString pathFile = QStringLiteral("%1-%2-path.dat").arg(stem).arg(n);
                if (!writeFigureText(dir.filePath(pathFile), pt, error)) return false;
                plots += QStringLiteral("\\addplot [black, thick, mark=none] table [x=x, y=y] {./\\explorerfigdir %1};\n")
                             .arg(pathFile);
                if (p.pathMarker >= 0 && p.pathMarker < static_cast<int>(p.pathX.size()))
                    plots += QStringLiteral("\\addplot [only marks, mark=*, mark size=2pt, fill=white, draw=black] "
                                            "coordinates {(%1,%2)};\n")
                                 .arg(texNumber(p.pathX[p.pathMarker]), texNumber(p.pathY[p.pathMarker]));
            }
        }
        for (; inRow < cols; ++inRow)
            plots += QStringLiteral("\\nextgroupplot[group/empty plot, width={%1}, height={%1}]\n").arg(width);
    }

    QString tex;
    tex += figureHeading(QStringLiteral("%"), f.title.isEmpty() ? f.id : f.title,
                         QStringLiteral("a PGFPlots figure"), o.metadata);
    tex += QStringLiteral(
        "% The document's preamble needs:\n"
        "%   \\usepackage{pgfplots}\n"
        "%   \\usepgfplotslibrary{groupplots}\n"
        "%   \\pgfplotsset{compat=1.16}\n"
        "% Include it with \\input{%1.tex}; its data tables\n"
        "% (%1-1.dat, ...: x y v, every cell) lie beside it. From another folder, say where:\n"
        "% \\def\\explorerfigdir{figures/} before \\input{figures/%1.tex}. Fonts are the document's.\n")
               .arg(stem);
    tex += QStringLiteral("\\providecommand{\\explorerfigdir}{}%\n");
    tex += QStringLiteral("\\begin{tikzpicture}\n");
    // The explorer's colour maps (ColorMaps: PuOr, Blues; the landscape's viridis).
    QStringList maps;
    for (HeatmapColours c : {HeatmapColours::Diverging, HeatmapColours::Sequential, HeatmapColours::Viridis})
        maps << colormap(QStringLiteral("ade") + heatmapColoursName(c), c);
    tex += QStringLiteral("\\pgfplotsset{") + maps.join(QStringLiteral(",\n  ")) + QStringLiteral("}\n");
    tex += QStringLiteral("\\begin{groupplot}[group style={group size=%1 by %2, horizontal sep=%3cm, "
                          "vertical sep=1.4cm}, scale only axis, enlargelimits=false]\n")
               .arg(cols).arg(rows).arg(sepCm);
    tex += plots;
    tex += QStringLiteral("\\end{groupplot}\n");
    if (!f.title.isEmpty())
        tex += QStringLiteral("\\node [anchor=south] at (current bounding box.north) {%1};\n").arg(latexLiteral(f.title));
    tex += QStringLiteral("\\end{tikzpicture}%\n");
    return writeFigureText(path, pgfTypeSize(tex, o), error);
}

}  // namespace ade::ui
