#pragma once
// The attention of one held-out sequence (ade::AttentionView): rows = query tokens i, columns =
// key tokens j, a sequential colour map from 0 to the largest weight shown, the teacher's / a
// limit's attention beside it on the same scale when there is one; tokens sortable by a feature
// (the same order for queries and keys); hovering shows the weight.
#include <QWidget>

#include <optional>
#include <vector>

#include "training/Inspection.h"

class QComboBox;
class QLabel;

namespace ade::ui {

struct AttentionScene {
    QString heading;
    QString note;  // shown when there is no attention view
    std::optional<ade::AttentionView> view;
    int sortFeature = -1;  // index into view->features; -1: token order
};

// Token order for the scene: ascending feature value (stable), or 0..n-1.
std::vector<int> attentionOrder(const AttentionScene& scene);

struct AttentionHit {
    QRectF rect;
    bool reference = false;
};
std::vector<AttentionHit> paintAttention(QPainter& p, const QRectF& area,
                                         const AttentionScene& scene);

class AttentionPanel : public QWidget {
    Q_OBJECT
  public:
    explicit AttentionPanel(QWidget* parent = nullptr);
    // Keeps the chosen sort feature when the new view offers the same features.
    void setScene(AttentionScene scene);
    const AttentionScene& scene() const { return scene_; }
    QComboBox* sortBox() const { return sort_; }
    QString toolTipAt(const QPointF& pos) const;  // in canvas coordinates
    const std::vector<AttentionHit>& hits() const { return hits_; }

  private:
    class Canvas;
    Canvas* canvas_;
    QComboBox* sort_;
    QLabel* sortLabel_;  // with sort_: shown only for a model that has attention
    AttentionScene scene_;
    std::vector<AttentionHit> hits_;
};

}  // namespace ade::ui
