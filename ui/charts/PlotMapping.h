#pragma once
// Where a live chart's curves land: axis units to the chart item's coordinates, as Qt Charts'
// domains map them, and the index helpers the layers that draw without Qt Charts series share
// (BandLayer: the seed groups' bands; LineLayer: the curves).
#include <QGraphicsItem>
#include <QList>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>

#include <functional>

namespace ade::ui {

// The plot area and each axis' range, linear or logarithmic.
struct PlotMapping {
    QRectF plot;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    bool logX = false, logY = false;
    bool operator==(const PlotMapping&) const = default;
    // Far outside the plot a point is held `limit` plot sizes away: the rasteriser clips it and
    // no coordinate overflows (a value <= 0 on a log axis goes to -limit).
    QPointF map(const QPointF& v, double limit = 10) const;
};

namespace plotpx {
// How many leading points two lists share.
qsizetype commonPrefix(const QList<QPointF>& a, const QList<QPointF>& b);
// For points in x order: the index before the first at or past x (a polyline from there
// reaches just outside a strip starting at x), and one past the first after x.
qsizetype firstAt(const QPolygonF& p, double x);
qsizetype pastAt(const QPolygonF& p, double x);
// The bounding rectangle of the points from index `from` on (what a change from there covers).
QRectF boundsFrom(const QPolygonF& p, qsizetype from);
}  // namespace plotpx

// A graphics item of a chart that draws in the plot from its own mapped points: it maps points
// once, again only when the plot area or an axis moved, and repaints the strip they changed.
class PlotLayer : public QGraphicsItem {
  public:
    // Maps every point again when the plot area or an axis moved (and repaints the layer). The
    // owner calls it once the axes are set, before it hands over a frame's points: setting
    // points maps them with the mapping of the last call.
    void syncMapping();
    QRectF boundingRect() const override { return mapping_.plot; }
    QRectF lastDirty() const { return lastDirty_; }  // what the last change repainted

  protected:
    // `mapping` reads the chart's current plot area and axes; `z` orders the layer among Qt
    // Charts' items (grid and axes at 2 and 3).
    PlotLayer(QGraphicsItem* chart, std::function<PlotMapping()> mapping, double z);
    virtual void remapAll() = 0;
    // Repaints `dirty` grown by `margin` (antialiased edges, pen widths, caps) inside the plot.
    void repaint(const QRectF& dirty, double margin);

    std::function<PlotMapping()> mappingOf_;
    PlotMapping mapping_;
    QRectF lastDirty_;
};

}  // namespace ade::ui
