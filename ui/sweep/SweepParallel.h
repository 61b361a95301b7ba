#pragma once
// The view for three or more keys: parallel coordinates, one vertical axis per key and one for
// the objective (rightmost), each config a polyline through its values. Lines are coloured by
// how good the config is (Blues, darker = better; drawn best last so the good ones stay on top),
// the best one in vermillion and thicker; configs without a finished seed in grey, dashed. Of an
// Optuna study, a trial still running or waiting (no value yet, not a failure) is dotted in
// bluish green (Okabe & Ito's), its line ending at the last key; a failed trial grey, dashed.
#include "sweep/SweepAxes.h"
#include "sweep/SweepChart.h"

namespace ade::ui {

class SweepParallel : public SweepChart {
    Q_OBJECT
  public:
    explicit SweepParallel(QWidget* parent = nullptr);

    void paintChart(QPainter& p, const QRectF& area) const override;
    int configAt(const QPointF& pos, const QRectF& area) const override;
    QString note() const override { return note_; }
    PaperFigure paperFigure() const override;
    int drawnCount() const override { return static_cast<int>(results_.configs.size()); }
    int axisCount() const { return static_cast<int>(results_.keys.size()) + 1; }
    // The polyline of config `index` when the view fills `area` (tests, hit testing).
    QPolygonF polyline(int index, const QRectF& area) const;
    // The pen of config `index`'s line on screen (before hover and selection): its colour by
    // goodness, the best's, a failed config's grey dashes, a running trial's green dots.
    QPen linePen(int index) const;

  protected:
    void resultsChanged() override;

  private:
    struct Axis {
        QString title;
        SweepScale scale;   // numeric keys and the metric
        QStringList categories;  // choice keys (evenly spaced)
        std::vector<double> marks;  // the values present, labelled when few (else nice ticks)
    };
    std::vector<Axis> axes(const QRectF& plot) const;
    QRectF plotRect(const QRectF& area, const QFontMetricsF& fm) const;
    QPolygonF line(int index, const std::vector<Axis>& ax, const QRectF& plot) const;
    double goodness(int index) const;

    QString note_;
    double lo_ = 0, hi_ = 1;  // the metric's range over the configs
};

}  // namespace ade::ui
