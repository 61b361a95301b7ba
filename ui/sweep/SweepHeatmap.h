#pragma once
// The two-key view: a heatmap of the objective's mean over seeds, the first key across, the
// second up, each cell one config. Colours from the sequential Blues map (ColorMaps; dark = high,
// on a log scale when the values are positive and span >= 10x) with a colour bar; the best cell
// framed in vermillion; the mean printed in every cell where it fits; hover shows mean ± sd.
#include "sweep/SweepAxes.h"
#include "sweep/SweepChart.h"

namespace ade::ui {

class SweepHeatmap : public SweepChart {
    Q_OBJECT
  public:
    explicit SweepHeatmap(QWidget* parent = nullptr);

    void paintChart(QPainter& p, const QRectF& area) const override;
    int configAt(const QPointF& pos, const QRectF& area) const override;
    QString note() const override { return note_; }
    PaperFigure paperFigure() const override;
    int drawnCount() const override;
    int markedBest() const { return results_.best(); }  // the config whose cell is framed
    int columns() const { return static_cast<int>(cols_.size()); }
    int rows() const { return static_cast<int>(rows_.size()); }
    // Config of cell (column, row), -1 when that combination has no result.
    int cell(int column, int row) const;
    bool valuesShown() const { return valuesShown_; }  // set by the last paint

  protected:
    void resultsChanged() override;

  private:
    struct Layout {
        QRectF grid, bar;
        double cw = 0, ch = 0;
    };
    Layout layout(const QRectF& area, const QFontMetricsF& fm) const;
    double shade(double v) const;  // value -> 0..1 on the colour scale

    QStringList cols_, rows_;
    std::vector<int> cells_;  // cols × rows, config index or -1
    double lo_ = 0, hi_ = 1;
    bool log_ = false;
    QString note_;
    mutable bool valuesShown_ = false;
};

}  // namespace ade::ui
