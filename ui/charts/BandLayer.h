#pragma once
// The seed groups' min–max bands of one live chart, painted by one graphics item under the
// chart's lines (issue 30: fewer chart items per run).
//
// A QAreaSeries is three Qt Charts items (the area and its two bounding lines), and each of
// them maps and strokes its whole outline again whenever a point changes or the axes move:
// with the head-and-tail split of a streaming band that was four strokes and two path builds
// per group and metric at every frame, about two thirds of the chart refresh. Here a band is
// two point lists in axis units: a frame maps the new points once and repaints the strip of
// the plot they changed; a new range or plot area maps every band again, with no stroking.
#include <QBrush>
#include <QGraphicsItem>
#include <QList>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QString>

#include <functional>
#include <map>

namespace ade::ui {

// Where axis units land in the item's coordinates (the chart's): the plot area and each axis'
// range, linear or logarithmic (as Qt Charts' domains map them).
struct PlotMapping {
    QRectF plot;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    bool logX = false, logY = false;
    bool operator==(const PlotMapping&) const = default;
    QPointF map(const QPointF& v) const;
};

class BandLayer final : public QGraphicsItem {
  public:
    // `mapping` reads the chart's current plot area and axes.
    BandLayer(QGraphicsItem* chart, std::function<PlotMapping()> mapping);

    struct Band {
        QList<QPointF> lo, hi;  // axis units, x non-decreasing
        QPolygonF loPx, hiPx;   // mapped
        QBrush brush;
        bool visible = true;
    };
    // Sets a band's bounds; repaints the rectangle its changed points cover, old and new.
    void setBand(const QString& key, const QList<QPointF>& lo, const QList<QPointF>& hi);
    void setStyle(const QString& key, const QBrush& brush, bool visible);
    void remove(const QString& key);
    void clear();
    // Maps every band again when the plot area or an axis moved (and repaints them all).
    void syncMapping();

    const std::map<QString, Band>& bands() const { return bands_; }
    QRectF lastDirty() const { return lastDirty_; }  // what the last setBand repainted

    QRectF boundingRect() const override { return mapping_.plot; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) override;

  private:
    void mapFrom(Band& b, qsizetype from) const;

    std::function<PlotMapping()> mappingOf_;
    PlotMapping mapping_;
    std::map<QString, Band> bands_;
    QRectF lastDirty_;
};

}  // namespace ade::ui
