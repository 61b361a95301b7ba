#pragma once
// The exported figures' axes and clipping. Every axis is drawn in its own units (log10 of the
// value on a log axis, the symmetric-log transform on a symlog one) on a linear axis whose labels
// sit at round values (Ticks.h): 1-2-5 steps on a linear axis, powers of ten (or 1, 2, 5 × 10^k
// within a few decades) on a log one. Curves are cut to the plot's rectangle before they are
// handed to the chart: QSvgGenerator ignores the chart's clip, so an SVG of a zoomed chart would
// otherwise draw curves over the tick labels.
#include <QFont>
#include <QList>
#include <QPointF>
#include <QRectF>

#include <vector>

#include "charts/Ticks.h"

namespace ade::ui {

// Ticks of a log axis whose ends are 10^lo and 10^hi (lo, hi in decades): positions in decades,
// texts naming the values ("10⁻³", "0.2", "5"); at most about `maxTicks`.
std::vector<Tick> logAxisTicks(double lo, double hi, int maxTicks);

// "1e-05" as "10⁻⁵" (a power of ten), else the number as tickText writes it.
QString powerOfTenText(int k);

// The pieces of the polyline `points` inside `rect` (its segments cut where they cross the
// edges; a point on an edge is inside). Empty when no part is inside.
QList<QList<QPointF>> clipPolyline(const QList<QPointF>& points, const QRectF& rect);

// A band's lower and upper edges (same x) cut to `rect`: x restricted to its width (edges
// interpolated at the ends), y clamped to its height, which is the band clipped to the rectangle.
void clipBand(QList<QPointF>& lo, QList<QPointF>& hi, const QRectF& rect);

}  // namespace ade::ui
