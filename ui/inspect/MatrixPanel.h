#pragma once
// Heatmaps of a model's matrices (ade::MatrixView, from the experiment's inspection hook): one
// row per MatrixView::row, one diverging colour scale per row symmetric around 0 with its
// labelled colour bar, titles in the papers' symbols; hovering shows the entry (i, j) and its
// value. paintMatrices draws into any paint device (widget, PNG, SVG, PDF).
#include <QWidget>

#include <vector>

#include "training/Inspection.h"

namespace ade::ui {

struct MatrixScene {
    QString heading;  // run and iteration shown
    QString note;     // shown instead when there is nothing to draw
    std::vector<ade::MatrixView> views;
};

// Where each heatmap went (for hover).
struct HeatmapHit {
    QRectF rect;
    int view = -1;
};

std::vector<HeatmapHit> paintMatrices(QPainter& p, const QRectF& area, const MatrixScene& scene);

class MatrixPanel : public QWidget {
    Q_OBJECT
  public:
    explicit MatrixPanel(QWidget* parent = nullptr);
    void setScene(MatrixScene scene);
    const MatrixScene& scene() const { return scene_; }
    // The hover text at a point of the widget ("" outside every heatmap).
    QString toolTipAt(const QPointF& pos) const;
    // Where the last paint put each heatmap.
    const std::vector<HeatmapHit>& hits() const { return hits_; }

  protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;

  private:
    MatrixScene scene_;
    std::vector<HeatmapHit> hits_;
};

}  // namespace ade::ui
