#pragma once
// The inside views as figures: each panel (matrices, attention, factor plane) of a RunStore's
// run at an iteration, painted with the panels' own code into PNG, SVG or PDF (written
// atomically, like the charts' figures), or into a QImage (a frame of an animation). The GUI's
// export and `attention-explorer-cli figure --panels` both call this.
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>

#include "base/FigureFile.h"

class QPainter;

namespace ade::ui {

class ProblemCache;
class RunStore;

enum class InsidePanel { Matrices, Attention, FactorPlane };
// "matrices", "attention", "factor-plane" (file names and the CLI's --panels).
QString insidePanelId(InsidePanel panel);
bool parseInsidePanel(const QString& text, InsidePanel* out);

// What to draw: the store's run `runId` (0: the first visible run) at `iteration` (-1: latest).
struct InsideFrameSpec {
    InsidePanel panel = InsidePanel::Matrices;
    int runId = 0;
    long iteration = -1;
    int sortFeature = -1;  // attention: token order by this feature (-1: position)
};

// Paints one panel into `area` (the problem built synchronously through `problems`).
void paintInsidePanel(QPainter& p, const QRectF& area, const RunStore& store,
                      ProblemCache& problems, const InsideFrameSpec& spec);


bool renderInsidePanel(const RunStore& store, ProblemCache& problems, const InsideFrameSpec& spec,
                       QSize size, FigureFormat format, const QString& path,
                       const QString& metadata, QString* error);

// A frame renderer for animations: the panel at an iteration, as an image of `size`.
std::function<QImage(long)> insideFrameRenderer(const RunStore& store, ProblemCache& problems,
                                                InsideFrameSpec spec, QSize size);

}  // namespace ade::ui
