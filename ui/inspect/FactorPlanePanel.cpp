#include "inspect/FactorPlanePanel.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "base/ColorMaps.h"
#include "inspect/HoverText.h"

namespace ade::ui {

namespace {

void drawHyperbola(QPainter& p, const PlaneFrame& f, double c) {
    QPainterPath path;
    const double x0 = std::max(c / f.range, f.range * 1e-3);
    const int steps = 120;
    for (int k = 0; k <= steps; ++k) {
        // Log-spaced in x so the curve is smooth near both axes.
        const double x = x0 * std::pow(f.range / x0, static_cast<double>(k) / steps);
        const QPointF pt = f.map(x, std::min(c / x, f.range));
        k == 0 ? path.moveTo(pt) : path.lineTo(pt);
    }
    p.drawPath(path);
}

}  // namespace

PlaneFrame paintFactorPlane(QPainter& p, const QRectF& area, const FactorPlaneScene& scene) {
    PlaneFrame f;
    p.save();
    p.fillRect(area, Qt::white);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetricsF fm(p.font());
    double top = area.top() + 4;
    p.setPen(Qt::black);
    if (!scene.heading.isEmpty()) {
        QFont bold = p.font();
        const QFont normal = p.font();
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(QRectF(area.left() + 6, top, area.width() - 12, fm.height() + 2),
                   Qt::AlignLeft | Qt::AlignVCenter, scene.heading);
        p.setFont(normal);
        top += fm.height() + 6;
    }
    double range = 0;
    for (const auto& r : scene.runs)
        for (std::size_t k = 0; k < r.x.size(); ++k)
            if (std::isfinite(r.x[k]) && std::isfinite(r.y[k]))
                range = std::max({range, r.x[k], r.y[k]});
    if (scene.runs.empty() || !(range > 0)) {
        p.drawText(QRectF(area.left(), top, area.width(), area.bottom() - top),
                   Qt::AlignCenter | Qt::TextWordWrap, scene.note);
        p.restore();
        return f;
    }
    const std::vector<double> ticks0 = niceTicks(0, range * 1.05, 5);
    f.range = ticks0.empty() ? range * 1.05 : std::max(range * 1.05, ticks0.back());
    const std::vector<double> ticks = niceTicks(0, f.range, 5);
    // Square plot (the diagonal at 45°), the legend to its right.
    double legendW = 0;
    for (const auto& r : scene.runs) legendW = std::max(legendW, fm.horizontalAdvance(r.name));
    legendW = std::min(legendW + 40, area.width() * 0.35);
    const double leftAxis = fm.horizontalAdvance(QStringLiteral("00.000")) + fm.height() + 10;
    const double bottomAxis = 2 * fm.height() + 10;
    const double side = std::max(
        60.0, std::min(area.width() - leftAxis - legendW - 24, area.bottom() - top - bottomAxis - 8));
    f.plot = QRectF(area.left() + leftAxis, top + 4, side, side);
    // Grid and ticks.
    p.setPen(QPen(QColor(230, 230, 230), 0));
    for (double t : ticks) {
        p.drawLine(f.map(t, 0), f.map(t, f.range));
        p.drawLine(f.map(0, t), f.map(f.range, t));
    }
    p.setPen(Qt::black);
    for (double t : ticks) {
        const QPointF bx = f.map(t, 0), ly = f.map(0, t);
        p.drawText(QRectF(bx.x() - 40, bx.y() + 3, 80, fm.height()), Qt::AlignHCenter,
                   formatValue(t));
        p.drawText(QRectF(ly.x() - 60, ly.y() - fm.height() / 2, 56, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, formatValue(t));
    }
    p.drawText(QRectF(f.plot.left(), f.plot.bottom() + fm.height() + 4, f.plot.width(),
                      fm.height() + 2),
               Qt::AlignHCenter, scene.xLabel);
    p.save();
    p.translate(area.left() + fm.height() / 2 + 2, f.plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-side / 2, -fm.height() / 2, side, fm.height() + 2), Qt::AlignHCenter,
               scene.yLabel);
    p.restore();
    p.setClipRect(f.plot);
    // Level curves ‖L‖‖R‖ = c: grey at round values, each run's own through its marked point.
    QPen level(QColor(150, 150, 150), 1.0, Qt::DotLine);
    p.setPen(level);
    std::vector<double> levels;
    for (double t : ticks)
        if (t > 0 && t < f.range) levels.push_back(t * t);
    for (double c : levels) drawHyperbola(p, f, c);
    for (const auto& r : scene.runs)
        if (r.marker >= 0 && r.x[r.marker] * r.y[r.marker] > 0) {
            QColor c = r.color;
            c.setAlpha(110);
            p.setPen(QPen(c, 1.2, Qt::DashLine));
            drawHyperbola(p, f, r.x[r.marker] * r.y[r.marker]);
        }
    // The balanced diagonal.
    p.setPen(QPen(QColor(90, 90, 90), 1.2, Qt::DashDotLine));
    p.drawLine(f.map(0, 0), f.map(f.range, f.range));
    // Trajectories and markers.
    for (const auto& r : scene.runs) {
        // Solid up to the marked record, faint after it (the run's later path).
        QPainterPath past, future;
        bool startedPast = false, startedFuture = false;
        const std::size_t split = r.marker >= 0 ? static_cast<std::size_t>(r.marker) : r.x.size();
        for (std::size_t k = 0; k < r.x.size(); ++k) {
            if (!std::isfinite(r.x[k]) || !std::isfinite(r.y[k])) continue;
            const QPointF pt = f.map(r.x[k], r.y[k]);
            if (k <= split) {
                startedPast ? past.lineTo(pt) : past.moveTo(pt);
                startedPast = true;
            }
            if (k >= split) {
                startedFuture ? future.lineTo(pt) : future.moveTo(pt);
                startedFuture = true;
            }
        }
        QColor faint = r.color;
        faint.setAlpha(70);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(faint, 1.5));
        p.drawPath(future);
        p.setPen(QPen(r.color, 2.0));
        p.drawPath(past);
        if (!r.x.empty()) {
            p.setPen(QPen(r.color, 1.5));
            p.setBrush(Qt::white);
            p.drawEllipse(f.map(r.x.front(), r.y.front()), 4, 4);  // the start
        }
        if (r.marker >= 0) {
            p.setPen(QPen(Qt::black, 1.5));
            p.setBrush(r.color);
            p.drawEllipse(f.map(r.x[r.marker], r.y[r.marker]), 7, 7);
        }
    }
    p.setClipping(false);
    p.setPen(QPen(Qt::darkGray, 0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(f.plot);
    // Legend.
    double ly = f.plot.top() + 4;
    const double lx = f.plot.right() + 16;
    auto legendLine = [&](const QPen& pen, const QString& text, bool marker, QColor fill) {
        p.setPen(pen);
        p.drawLine(QPointF(lx, ly + fm.height() / 2), QPointF(lx + 22, ly + fm.height() / 2));
        if (marker) {
            p.setPen(QPen(Qt::black, 1.2));
            p.setBrush(fill);
            p.drawEllipse(QPointF(lx + 11, ly + fm.height() / 2), 4.5, 4.5);
            p.setBrush(Qt::NoBrush);
        }
        p.setPen(Qt::black);
        const QRectF box(lx + 28, ly, area.right() - lx - 30, 3 * fm.height());
        const QRectF used = p.boundingRect(box, Qt::TextWordWrap, text);
        p.drawText(box, Qt::TextWordWrap, text);
        ly += std::max(fm.height(), used.height()) + 4;
    };
    for (const auto& r : scene.runs)
        legendLine(QPen(r.color, 2.0), r.name, r.marker >= 0, r.color);
    ly += 6;
    legendLine(QPen(QColor(90, 90, 90), 1.2, Qt::DashDotLine),
               QObject::tr("balanced: %1 = %2").arg(scene.xLabel, scene.yLabel), false, {});
    // The factors' own names (W_Q, W_K; U, V; L, R) from the axis labels "‖W_Q‖_F".
    auto factorName = [](QString label) {
        if (label.startsWith(QStringLiteral("‖"))) label.remove(0, 1);
        if (label.endsWith(QStringLiteral("‖_F"))) label.chop(3);
        return label;
    };
    legendLine(level, QObject::tr("%1 · %2 = c: the orbit (e^t %3, e^−t %4)")
                          .arg(scene.xLabel, scene.yLabel, factorName(scene.xLabel),
                               factorName(scene.yLabel)),
               false, {});
    legendLine(QPen(QColor(120, 120, 120), 1.2, Qt::DashLine),
               QObject::tr("the orbit through a run's marked point"), false, {});
    legendLine(QPen(Qt::NoPen), QObject::tr("○ start   ● at the shown iteration (faint: later)"), false, {});
    p.restore();
    return f;
}

FactorPlanePanel::FactorPlanePanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("factorPlanePanel"));
    setMouseTracking(true);
    setMinimumSize(320, 240);
}

void FactorPlanePanel::setScene(FactorPlaneScene scene) {
    scene_ = std::move(scene);
    update();
}

void FactorPlanePanel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    frame_ = paintFactorPlane(p, rect(), scene_);
}

bool FactorPlanePanel::event(QEvent* e) {
    return showHoverText(this, e, [this](QPoint at) { return toolTipAt(at); }) ||
           QWidget::event(e);
}

QString FactorPlanePanel::toolTipAt(QPoint at) const {
    // The nearest recorded point within 12 px: run, iteration and both norms.
    double best = 144;
    QString text;
    for (const auto& r : scene_.runs)
        for (std::size_t k = 0; k < r.x.size(); ++k) {
            const QPointF d = frame_.map(r.x[k], r.y[k]) - QPointF(at);
            const double d2 = d.x() * d.x() + d.y() * d.y();
            if (d2 < best) {
                best = d2;
                text = tr("%1, iteration %2: %3 = %4, %5 = %6, product %7")
                           .arg(r.name)
                           .arg(k < r.iterations.size() ? r.iterations[k] : long(k))
                           .arg(scene_.xLabel, formatValue(r.x[k]), scene_.yLabel,
                                formatValue(r.y[k]), formatValue(r.x[k] * r.y[k]));
            }
        }
    return text;
}

}  // namespace ade::ui
