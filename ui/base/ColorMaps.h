#pragma once
// Colour maps and axis helpers the inside views share (heatmaps, attention, factor plane).
// Diverging: purple – white – orange (ColorBrewer's PuOr, safe for the common colour-vision
// deficiencies and in grey-scale by lightness), for signed entries on a scale symmetric around 0.
// Sequential: white – blue (ColorBrewer's Blues), for weights in [0, max].
#include <QColor>
#include <QRectF>
#include <QString>

#include <vector>

class QPainter;

namespace ade::ui {

// value / scale in [-1, 1] (clamped) to a colour; 0 is white.
QColor divergingColor(double value, double scale);
// value / scale in [0, 1] (clamped) to a colour; 0 is white.
QColor sequentialColor(double value, double scale);
// Viridis (perceptually uniform, readable with colour-vision deficiencies): its nine anchors,
// and u in [0, 1] (clamped) to a colour (the loss landscape's map).
const std::vector<QColor>& viridisStops();
QColor viridisColor(double u);
// The colour at t in [0, 1] (clamped) of the piecewise-linear map through `stops` (two or more).
QColor colourAlong(const std::vector<QColor>& stops, double t);

// About `count` round tick values covering [lo, hi].
std::vector<double> niceTicks(double lo, double hi, int count = 5);
// A compact number for labels and tooltips: 4 significant digits, exponent when needed.
QString formatValue(double v);

// A vertical colour bar in `rect` from lo (bottom) to hi (top) with ticks at lo, 0 (when inside)
// and hi and a caption above; `diverging` picks the map.
void drawColorBar(QPainter& p, const QRectF& rect, double lo, double hi, bool diverging,
                  const QString& caption);

}  // namespace ade::ui
