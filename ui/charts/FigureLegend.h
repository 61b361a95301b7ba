#pragma once
// The legend of an exported figure, drawn by the figure itself: each entry's line sample is
// long enough (four times the label height) to tell solid from dashed or dotted at any size,
// carries the run's marker when it has one, and a group's entry shows its band behind the line.
// Qt Charts' own legend draws samples too short for that. Placed beside the plot (left or
// right: one column) or above / below it (entries flow in rows); the chart's margins make room.
#include <QBrush>
#include <QFont>
#include <QGraphicsItem>
#include <QPen>
#include <QString>

#include <vector>

class QChart;

namespace ade::ui {

struct FigureLegendEntry {
    QString label;
    QPen pen;           // the curve's pen (colour, width, style); Qt::NoPen: a note (text only)
    QBrush band;        // the band behind a group's mean; Qt::NoBrush for a single run
    int marker = -1;    // RunMarker of the run (as an int), -1 = no marker
    QString notation;   // drawn after `label`: a metric's notation, "_x" as a subscript
};

class FigureLegendItem : public QGraphicsItem {
  public:
    FigureLegendItem(std::vector<FigureLegendEntry> entries, const QFont& font,
                     const QColor& text, QGraphicsItem* parent = nullptr);
    const std::vector<FigureLegendEntry>& entries() const { return entries_; }
    double sampleLength() const;  // the line sample's length (px)
    // The size the entries take when laid out as a column or, with `rows`, flowed into rows of
    // at most `maxWidth`. Labels are never cut: one wider than `maxWidth` wraps onto more lines.
    QSizeF layout(double maxWidth, bool rows);
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override;

  private:
    std::vector<FigureLegendEntry> entries_;
    QFont font_;
    QColor text_;
    std::vector<QPointF> at_;  // each entry's top-left, after layout()
    std::vector<QString> html_;    // labels as drawn: rich text (subscripts)
    std::vector<double> textWidth_;  // each label's wrapping width (0: one line)
    QSizeF size_;
};

// Adds the legend to `chart` at `alignment` (Qt::AlignRight, Left, Top or Bottom) for a chart
// of `size`, hiding Qt's legend and giving the plot the rest of the room. Returns the item
// (owned by the chart), nullptr when there are no entries.
FigureLegendItem* addFigureLegend(QChart* chart, std::vector<FigureLegendEntry> entries,
                                  Qt::Alignment alignment, const QSizeF& size, const QFont& font,
                                  const QColor& text);

}  // namespace ade::ui
