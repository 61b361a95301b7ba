#pragma once
// Animation frames of the charts: the default charts of a RunStore's visible runs in a grid,
// each with the time cursor's vertical line at the frame's iteration. A FrameRenderer for
// AnimationExport, the same in the window and headless (`attention-explorer-cli animate`).
#include <QImage>
#include <QSize>

#include <memory>
#include <vector>

#include "inspect/AnimationExport.h"
#include "inspect/InsideFigure.h"

class QWidget;

namespace ade::ui {

class ChartPanel;
class RunStore;
struct RunRecord;

class ChartFrames {
  public:
    // The store must outlive this. `size` is the frame's size in logical pixels.
    ChartFrames(const RunStore& store, QSize size);
    ~ChartFrames();
    QImage operator()(long iteration);
    int chartCount() const { return static_cast<int>(panels_.size()); }

  private:
    const RunStore& store_;
    std::unique_ptr<QWidget> widget_;
    std::vector<ChartPanel*> panels_;
};

// What an animation's frames show: the charts (with the cursor at the frame's iteration) and/or
// inside views of run `runId` (0: the first visible run) at the frame's iteration. More than one
// panel: a grid, two columns, in this order (charts first).
struct AnimationPanels {
    bool charts = true;
    std::vector<InsidePanel> inside;
    int runId = 0;
    int count() const { return (charts ? 1 : 0) + static_cast<int>(inside.size()); }
};
// "charts", "matrices", "attention", "factor-plane", comma-separated (the CLI's --panels);
// false with `error` on an unknown or empty list.
bool parseAnimationPanels(const QString& text, AnimationPanels* out, QString* error);

// The frames of an animation (GUI and CLI), `size` each.
FrameRenderer animationFrameRenderer(const RunStore& store, QSize size,
                                     const AnimationPanels& panels = {});

// The snapshot iterations of a run, oldest first: the frames of its animation.
std::vector<long> snapshotIterations(const RunRecord& run);

}  // namespace ade::ui
