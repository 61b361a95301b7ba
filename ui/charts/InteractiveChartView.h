#pragma once
// QChartView with the interactions of the live charts and a paint timer (for --stats).
#include <QChartView>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QWheelEvent>

#include <functional>

#include "base/FrameStats.h"

namespace ade::ui {

// Wheel zooms, Shift- or middle-drag pans, left-drag zooms into a rectangle, double-click fits.
class InteractiveChartView final : public QChartView {
  public:
    InteractiveChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
        setRubberBand(QChartView::RectangleRubberBand);
        setRenderHint(QPainter::Antialiasing, true);
        setMouseTracking(true);
        // Repaint only what changed (Qt's default): a frame of a streaming run touches the
        // short tail series, not the axis labels, grid and background (5x less paint work than
        // FullViewportUpdate). Updates are still coalesced into one paint event per frame.
        setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
    }
    std::function<void()> onInteract, onFit;
    std::function<void(double, double)> onPaint;  // wall and thread CPU milliseconds
    std::function<void(const QPointF&)> onHover;  // pointer moved, no button held (scene pos)
    std::function<void()> onLeave;

  protected:
    void paintEvent(QPaintEvent* e) override {
        QElapsedTimer t;
        t.start();
        const double cpu0 = FrameStats::threadCpuMs();
        QChartView::paintEvent(e);
        if (onPaint) onPaint(t.nsecsElapsed() / 1e6, FrameStats::threadCpuMs() - cpu0);
    }
    void wheelEvent(QWheelEvent* e) override {
        chart()->zoom(e->angleDelta().y() > 0 ? 1.25 : 0.8);
        if (onInteract) onInteract();
        e->accept();
    }
    void mousePressEvent(QMouseEvent* e) override {
        if (e->button() == Qt::MiddleButton ||
            (e->button() == Qt::LeftButton && (e->modifiers() & Qt::ShiftModifier))) {
            panning_ = true;
            last_ = e->position();
            e->accept();
            return;
        }
        pressPos_ = e->position();
        QChartView::mousePressEvent(e);
    }
    void mouseMoveEvent(QMouseEvent* e) override {
        if (panning_) {
            const QPointF d = e->position() - last_;
            chart()->scroll(-d.x(), d.y());
            last_ = e->position();
            if (onInteract) onInteract();
            e->accept();
            return;
        }
        QChartView::mouseMoveEvent(e);
        if (e->buttons() == Qt::NoButton && onHover) onHover(mapToScene(e->position().toPoint()));
    }
    void leaveEvent(QEvent* e) override {
        if (onLeave) onLeave();
        QChartView::leaveEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        if (panning_) {
            panning_ = false;
            e->accept();
            return;
        }
        QChartView::mouseReleaseEvent(e);
        // A plain click is no zoom: keep following the data.
        const bool dragged = (e->position() - pressPos_).manhattanLength() > 4;
        if (onInteract && (dragged || e->button() == Qt::RightButton)) onInteract();
    }
    void mouseDoubleClickEvent(QMouseEvent* e) override {
        if (onFit) onFit();
        e->accept();
    }

  private:
    bool panning_ = false;
    QPointF last_, pressPos_;
};

}  // namespace ade::ui
