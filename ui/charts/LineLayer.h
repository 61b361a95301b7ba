#pragma once
// The curves of one live chart, painted by one graphics item over the seed bands (issue 30:
// the live view at scale).
//
// A Qt Charts QLineSeries builds a path of all its points and strokes a hit-test outline of it
// at every replace(), then strokes the whole path at every paint, however little of it the
// frame changed; a streaming chart split each curve into a settled head and a short tail to
// keep that in bounds. Here a curve is a point list in axis units: a frame maps its new points
// once and repaints the strip of the plot they changed, and a paint draws only the segments over
// the exposed strip; a new range or plot area maps every curve again, with no stroking. Dashed
// curves are cut into dashes along their length in pixels from their first point, so a strip
// paints the dashes a whole paint would.
#include <QList>
#include <QPen>
#include <QPointF>
#include <QPolygonF>
#include <QString>

#include <map>
#include <vector>

#include "charts/PlotMapping.h"

namespace ade::ui {

class LineLayer final : public PlotLayer {
  public:
    // Over the bands (BandLayer, 3.5) and the grid, where Qt Charts puts its series (4).
    LineLayer(QGraphicsItem* chart, std::function<PlotMapping()> mapping);

    struct Line {
        QList<QPointF> points;    // axis units, x non-decreasing
        QPolygonF px;             // mapped
        std::vector<double> arc;  // length in pixels from the first point (dashes)
        QPen pen;
        QString name;             // as in the legend
        bool visible = true;
        bool under = false;       // drawn before the others (a smoothed curve's faint raw data)
    };
    // Sets a curve's points; repaints the rectangle its changed points cover, old and new.
    void setLine(const QString& key, const QList<QPointF>& points);
    void setStyle(const QString& key, const QPen& pen, const QString& name, bool visible, bool under);
    void remove(const QString& key);

    const std::map<QString, Line>& lines() const { return lines_; }
    const Line* line(const QString& name) const;  // by the name the legend shows

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) override;

  private:
    void remapAll() override;
    void mapFrom(Line& l, qsizetype from) const;
    static void drawStrip(QPainter* p, const Line& l, qsizetype from, qsizetype to);

    std::map<QString, Line> lines_;
};

}  // namespace ade::ui
