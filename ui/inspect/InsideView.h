#pragma once
// "Inside the model": the host of the inside views, a tab per panel (Matrices, Attention, Factor
// plane; more through addPanel). They show the time cursor's focus run (or the first visible
// run) at its iteration, and follow a running run live at most kRefreshHz times a second (the
// heatmaps are not recomputed when the parameters shown did not change). Export… opens the
// export dialog of the current panel (charts/FigureExportDialog: PNG, SVG, PDF, PGFPlots,
// matplotlib; width in pixels or cm / columns, type size, title, axis labels where it has axes).
#include <QElapsedTimer>
#include <QTabWidget>

#include <optional>
#include <utility>
#include <vector>

#include "base/FrameStats.h"
#include "inspect/InsideFigure.h"

class QTimer;

namespace ade::ui {

class AttentionPanel;
class FactorPlanePanel;
class FigureExportDialog;
class MatrixPanel;
class ProblemCache;
class RunStore;
class TimeCursor;

class InsideView : public QTabWidget {
    Q_OBJECT
  public:
    static constexpr int kRefreshHz = 4;

    InsideView(RunStore* store, TimeCursor* cursor, QWidget* parent = nullptr);
    ~InsideView() override;

    // Another inside view as a tab (the loss landscape).
    void addPanel(QWidget* panel, const QString& title);

    MatrixPanel* matrices() const { return matrices_; }
    AttentionPanel* attention() const { return attention_; }
    FactorPlanePanel* factorPlane() const { return plane_; }
    ProblemCache* problems() const { return problems_; }
    // The panel of the current tab (nullopt for an added panel).
    std::optional<InsidePanel> currentPanel() const;
    QWidget* panelWidget(InsidePanel panel) const;  // its tab (nullptr: none)
    // Redraws now (the throttled path calls this).
    void refresh();
    // Writes the current panel (or `panel`) to `path` in `format` at `size`.
    bool exportPanel(InsidePanel panel, FigureFormat format, const QString& path, QSize size,
                     QString* error);
    // Export…: the current panel's export dialog, open (window-modal, deleted when closed);
    // nullptr when the current tab is no panel of the table.
    FigureExportDialog* exportCurrent();
    // Refresh times on the GUI thread (the window's --stats).
    const FrameStats& frameStats() const { return frames_; }
    int refreshes() const { return refreshes_; }

  protected:
    void showEvent(QShowEvent* e) override;
    // Times the panels' paints (FrameStats::paintInFrame).
    bool eventFilter(QObject* watched, QEvent* e) override;

  private:
    void schedule();

    RunStore* store_;
    TimeCursor* cursor_;
    ProblemCache* problems_;
    std::vector<std::pair<InsidePanel, QWidget*>> panels_;  // the table's order
    MatrixPanel* matrices_;
    AttentionPanel* attention_;
    FactorPlanePanel* plane_;
    QTimer* timer_;
    QElapsedTimer sinceRefresh_;
    FrameStats frames_;
    int refreshes_ = 0;
    bool timingPaint_ = false;
    // What the heatmaps and attention show now: recomputed only when this changes.
    const void* shownParams_ = nullptr;
    long shownIteration_ = -2;
    int shownRun_ = -1;
    bool shownReady_ = false;
};

}  // namespace ade::ui
