#pragma once
// Animation frames of the charts: the default charts of a RunStore's visible runs in a grid,
// each with the time cursor's vertical line at the frame's iteration. A FrameRenderer for
// AnimationExport, the same in the window and headless (`attention-explorer-cli animate`).
#include <QImage>
#include <QSize>

#include <memory>
#include <vector>

#include "inspect/AnimationExport.h"

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

// The frames of an animation (GUI and CLI): the charts with the cursor at each iteration.
FrameRenderer animationFrameRenderer(const RunStore& store, QSize size);

// The snapshot iterations of a run, oldest first: the frames of its animation.
std::vector<long> snapshotIterations(const RunRecord& run);

}  // namespace ade::ui
