#pragma once
// The base of the sweep views (one-key plot, heatmap, parallel coordinates): a widget that paints
// itself with one function of a painter and an area, so the screen and the exported PNG / SVG /
// PDF (renderPainting, like the inside views) are the same drawing. Hovering a config shows its
// values and mean ± sd; clicking one emits configActivated.
#include <QWidget>

#include "base/FigureFile.h"
#include "charts/FigureRenderer.h"
#include "charts/FigureHeatmap.h"
#include "sweep/SweepResults.h"

namespace ade::ui {

class SweepChart : public QWidget {
    Q_OBJECT
  public:
    explicit SweepChart(QWidget* parent = nullptr);

    void setResults(const SweepResults& results);
    const SweepResults& results() const { return results_; }
    // The config shown highlighted (a selected table row), -1 for none.
    void setSelected(int index);
    int selected() const { return selected_; }

    // Draws the view into `area` (screen, image, SVG and PDF alike).
    virtual void paintChart(QPainter& p, const QRectF& area) const = 0;
    // The config under `pos` when the view fills `area`, -1 when none.
    virtual int configAt(const QPointF& pos, const QRectF& area) const = 0;
    // The note under the title (e.g. why the x axis is linear); "" when none.
    virtual QString note() const { return {}; }
    // How many configs the view draws (points, cells or lines), for tests.
    virtual int drawnCount() const = 0;

    // The view as data for PGFPlots and matplotlib (SweepPaper.cpp): the one-key plot and
    // parallel coordinates as lines, the heatmap as a heatmap.
    virtual PaperFigure paperFigure() const = 0;
    // PNG (2x), SVG or PDF of the view at `size` (logical pixels), or PGFPlots / matplotlib with
    // its data (paperFigure); false with `error`.
    bool exportTo(FigureFormat format, const QString& path, QSize size = {1200, 800},
                  QString* error = nullptr) const;
    // The same with an Export dialog's options: size and PNG scale, type size (fontPt), title
    // and axis labels ("" the view's own) in every format, the paper width (widthCm) in
    // PGFPlots and matplotlib.
    bool exportTo(FigureFormat format, const QString& path, const FigureOptions& options,
                  QString* error = nullptr) const;
    QString hoverText(int index) const;  // values, mean ± sd over seeds, seeds done/failed

  signals:
    void configActivated(int index);  // clicked

  protected:
    virtual void resultsChanged() {}
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    QSize minimumSizeHint() const override { return {360, 240}; }

    // Shared drawing: the title (and the note under it) at the top of `area`; returns the rest.
    QRectF drawTitle(QPainter& p, const QRectF& area, const QString& title) const;
    // A text when there is nothing to draw.
    void drawEmpty(QPainter& p, const QRectF& area, const QString& text) const;
    QFont chartFont(double scale = 1.0) const;  // the export's type size while it paints
    // An axis' title: the export's label while exportTo paints, else the view's own.
    QString xTitle(const QString& own) const { return export_.xLabel.isEmpty() ? own : export_.xLabel; }
    QString yTitle(const QString& own) const { return export_.yLabel.isEmpty() ? own : export_.yLabel; }

    SweepResults results_;
    int selected_ = -1;
    int hovered_ = -1;
    // What an export asks of the painting while exportTo paints (empty on screen).
    struct ExportTexts {
        QString title, xLabel, yLabel;
        double fontPt = 0;
    };
    mutable ExportTexts export_;
};

// Colours of the views: the best config's accent (Okabe & Ito's vermillion, distinct from the
// Blues map in every common colour-vision deficiency) and the map from "how good" (0 worst .. 1
// best) to a Blues shade dark enough to see on white.
QColor bestColor();
QColor goodnessColor(double goodness);
// An Optuna trial still running or waiting (no value yet): Okabe & Ito's bluish green, dotted.
QColor pendingTrialColor();

}  // namespace ade::ui
