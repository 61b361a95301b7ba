#pragma once
// The exported figures' axes and clipping. Every axis is drawn in its own units (log10 of the
// value on a log axis, the symmetric-log transform on a symlog one) on a linear axis whose labels
// sit at round values (Ticks.h): 1-2-5 steps on a linear axis, on a log one the live charts'
// own ticks and texts (logTicks, logTickText: "0.001 … 1000" as decimals, beyond as powers). Curves are cut to the plot's rectangle before they are
// handed to the chart: QSvgGenerator ignores the chart's clip, so an SVG of a zoomed chart would
// otherwise draw curves over the tick labels.
#include <QFont>
#include <QList>
#include <QPointF>
#include <QRectF>

#include <vector>

#include "charts/Ticks.h"

namespace ade::ui {

// The pieces of the polyline `points` inside `rect` (its segments cut where they cross the
// edges; a point on an edge is inside). Empty when no part is inside.
QList<QList<QPointF>> clipPolyline(const QList<QPointF>& points, const QRectF& rect);

// A band's lower and upper edges (same x) cut to `rect`: x restricted to its width (edges
// interpolated at the ends), y clamped to its height, which is the band clipped to the rectangle.
void clipBand(QList<QPointF>& lo, QList<QPointF>& hi, const QRectF& rect);

}  // namespace ade::ui
