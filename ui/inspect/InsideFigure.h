#pragma once
// The inside views as figures: each panel (matrices, attention, factor plane) of a RunStore's
// run at an iteration, painted with the panels' own code into PNG, SVG or PDF (written
// atomically, like the charts' figures), or into a QImage (a frame of an animation); as
// PGFPlots or matplotlib, the panel's data (InsideFigurePaper). The GUI's
// export and `attention-explorer-cli figure --panels` both call this.
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

#include "base/FigureFile.h"

class QPainter;
class QWidget;

namespace ade {
class Problem;
}

namespace ade::ui {

class ProblemCache;
struct FigureOptions;
class RunStore;
struct RunRecord;

enum class InsidePanel { Matrices, Attention, FactorPlane };

// What a panel's painter gets: the run (nullptr: none), its problem (nullptr: `pending` says
// why), the iteration (-1: the latest snapshot) and the attention's token order.
struct InsidePaintInput {
    const RunStore& store;
    const RunRecord* run;
    ade::Problem* problem;
    long iteration;
    QString pending;
    int sortFeature;
    // An export's title and axis labels in place of the panel's own ("" keeps its own).
    QString title = {}, xLabel = {}, yLabel = {};
};

// The inside panels, one row each (a new panel is a row here and its widget in InsideView): its
// id (file names and the CLI's --panels), its name with a mnemonic (the animation dialog's box),
// the box's object name and tooltip, and how it is painted for a figure or a frame.
struct InsidePanelInfo {
    InsidePanel panel;
    const char* id;
    QString name;
    const char* boxName;
    QString tip;
    void (*paint)(QPainter& p, const QRectF& area, const InsidePaintInput& in);
    QWidget* (*makeWidget)(QWidget* parent);  // its tab in the inside view (InsideView)
};
const std::vector<InsidePanelInfo>& insidePanels();
const InsidePanelInfo& insidePanelInfo(InsidePanel panel);

// "matrices", "attention", "factor-plane" (file names and the CLI's --panels).
QString insidePanelId(InsidePanel panel);
bool parseInsidePanel(const QString& text, InsidePanel* out);

// What to draw: the store's run `runId` (0: the first visible run) at `iteration` (-1: latest).
struct InsideFrameSpec {
    InsidePanel panel = InsidePanel::Matrices;
    int runId = 0;
    long iteration = -1;
    int sortFeature = -1;  // attention: token order by this feature (-1: position)
    // The Export dialog's title and axis labels (the factor plane's axes), "" the panel's own.
    QString title, xLabel, yLabel;
};

// Paints one panel into `area` (the problem built synchronously through `problems`).
void paintInsidePanel(QPainter& p, const QRectF& area, const RunStore& store,
                      ProblemCache& problems, const InsideFrameSpec& spec);

// The panel as PNG, SVG or PDF (painted), or as PGFPlots / matplotlib with its data
// (InsideFigurePaper.h); written atomically. False with `error`.
// `options`: size, metadata, type size (fontPt > 0: the panel's labels in that size), the
// paper width (widthCm, for PGFPlots and matplotlib), title and axis labels ("" the panel's).
bool renderInsidePanel(const RunStore& store, ProblemCache& problems, const InsideFrameSpec& spec,
                       const FigureOptions& options, FigureFormat format, const QString& path,
                       QString* error);

// A frame renderer for animations: the panel at an iteration, as an image of `size`.
std::function<QImage(long)> insideFrameRenderer(const RunStore& store, ProblemCache& problems,
                                                InsideFrameSpec spec, QSize size);

}  // namespace ade::ui
