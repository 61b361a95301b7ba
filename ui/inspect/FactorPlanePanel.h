#pragma once
// The factor plane (‖L‖_F, ‖R‖_F): every visible run's trajectory from its metric columns, in the
// run's colour, the balanced diagonal ‖L‖ = ‖R‖, level curves of the product ‖L‖‖R‖ = c (the
// hyperbolas the orbit (e^t L, e^{-t} R) moves along), each run's point at the time cursor's
// iteration marked. paintFactorPlane draws into any paint device.
#include <QColor>
#include <QWidget>

#include <vector>

namespace ade::ui {

struct PlaneTrajectory {
    QString name;
    QColor color;
    std::vector<double> x, y;
    std::vector<long> iterations;
    int marker = -1;  // index of the marked record (-1: none)
};

struct FactorPlaneScene {
    QString heading;
    QString note;  // shown when there is nothing to draw
    QString xLabel, yLabel;
    std::vector<PlaneTrajectory> runs;
};

// The plot's data-to-widget mapping (for tests and hover).
struct PlaneFrame {
    QRectF plot;
    double range = 1.0;  // both axes show [0, range]
    QPointF map(double x, double y) const {
        return {plot.left() + plot.width() * x / range, plot.bottom() - plot.height() * y / range};
    }
};

PlaneFrame paintFactorPlane(QPainter& p, const QRectF& area, const FactorPlaneScene& scene);

class FactorPlanePanel : public QWidget {
    Q_OBJECT
  public:
    explicit FactorPlanePanel(QWidget* parent = nullptr);
    void setScene(FactorPlaneScene scene);
    const FactorPlaneScene& scene() const { return scene_; }
    const PlaneFrame& frame() const { return frame_; }
    // The hover text at a point of the panel ("" = nothing within 12 px).
    QString toolTipAt(QPoint at) const;

  protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

  private:
    FactorPlaneScene scene_;
    PlaneFrame frame_;
};

}  // namespace ade::ui
