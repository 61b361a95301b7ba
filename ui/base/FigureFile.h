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

enum class FigureFormat { Png, Svg, Pdf };

bool parseFigureFormat(const QString& text, FigureFormat* out);  // "png", "svg", "pdf"
QString figureSuffix(FigureFormat f);

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
