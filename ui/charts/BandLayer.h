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
#include <QList>
#include <QPointF>
#include <QPolygonF>
#include <QRectF>
#include <QString>

#include "charts/PlotMapping.h"

#include <functional>
#include <map>

namespace ade::ui {

class BandLayer final : public PlotLayer {
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

    const std::map<QString, Band>& bands() const { return bands_; }

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) override;

  private:
    void remapAll() override;
    void mapFrom(Band& b, qsizetype from) const;

    std::map<QString, Band> bands_;
};

}  // namespace ade::ui
