#pragma once
// The one figure writer: any painting (a function of a painter and its area) as PNG, SVG or PDF,
// rendered in memory and written atomically (ade::writeFileAtomic): on any failure, a full disk
// included, the previous file stays and no temporary is left. Charts (charts/FigureRenderer),
// the inside views (inspect/InsideFigure, LandscapeMap) and the sweep views (sweep/SweepChart)
// all export through it.
#include <QByteArray>
#include <QRectF>
#include <QSize>
#include <QString>

#include <functional>

class QPainter;

namespace ade::ui {

// Pgf and Mpl are a chart's data with a PGFPlots .tex or a matplotlib .py that draws it
// (charts/FigurePgf, FigureMpl): charts only; a painting cannot be written so (renderPainting
// says so).
enum class FigureFormat { Png, Svg, Pdf, Pgf, Mpl };

bool parseFigureFormat(const QString& text, FigureFormat* out);  // "png", "svg", "pdf", "pgf", "mpl"
QString figureSuffix(FigureFormat f);  // png, svg, pdf, tex, py
// Whether the format is a drawing (PNG, SVG, PDF), which every figure can be written as.
bool isPaintedFormat(FigureFormat f);

// `paint` draws into the logical area (0, 0, size): PNG at size * scale pixels on white, SVG with
// that view box, PDF one page of that size in points. `title` and `metadata` (the reproduction
// text) are embedded. False with `error`.
bool renderPainting(const std::function<void(QPainter&, const QRectF&)>& paint, QSize size,
                    double scale, FigureFormat format, const QString& path, const QString& title,
                    const QString& metadata, QString* error);

// The last step of every figure export: `bytes` (a rendered PNG, SVG or PDF) written to `path`
// atomically, or "cannot render PATH" when rendering failed. False with a message.
bool writeRenderedFigure(bool rendered, const QByteArray& bytes, const QString& path,
                         QString* error);

}  // namespace ade::ui
