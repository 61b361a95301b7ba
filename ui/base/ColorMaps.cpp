#include "base/ColorMaps.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ade::ui {

QColor colourAlong(const std::vector<QColor>& stops, double t) {
    t = std::clamp(t, 0.0, 1.0) * static_cast<double>(stops.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(t), stops.size() - 2);
    const double f = t - static_cast<double>(i);
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                            static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                            static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
}

const std::vector<QColor>& viridisStops() {
    static const std::vector<QColor> stops = {
        QColor(68, 1, 84),    QColor(71, 44, 122), QColor(59, 81, 139),
        QColor(44, 113, 142), QColor(33, 144, 141), QColor(39, 173, 129),
        QColor(92, 200, 99),  QColor(170, 220, 50), QColor(253, 231, 37)};
    return stops;
}

QColor viridisColor(double u) { return colourAlong(viridisStops(), u); }

QColor divergingColor(double value, double scale) {
    // PuOr, negative purple to positive orange.
    static const std::vector<QColor> stops = {QColor(0x2d, 0x00, 0x4b), QColor(0x80, 0x73, 0xac),
                                              QColor(0xd8, 0xda, 0xeb), QColor(0xff, 0xff, 0xff),
                                              QColor(0xfe, 0xe0, 0xb6), QColor(0xe0, 0x82, 0x14),
                                              QColor(0x7f, 0x3b, 0x08)};
    if (!(scale > 0) || !std::isfinite(value)) return std::isfinite(value) ? Qt::white : Qt::gray;
    return colourAlong(stops, 0.5 + 0.5 * value / scale);
}

QColor sequentialColor(double value, double scale) {
    static const std::vector<QColor> stops = {QColor(0xff, 0xff, 0xff), QColor(0xc6, 0xdb, 0xef),
                                              QColor(0x6b, 0xae, 0xd6), QColor(0x21, 0x71, 0xb5),
                                              QColor(0x08, 0x30, 0x6b)};
    if (!(scale > 0) || !std::isfinite(value)) return std::isfinite(value) ? Qt::white : Qt::gray;
    return colourAlong(stops, value / scale);
}

std::vector<double> niceTicks(double lo, double hi, int count) {
    std::vector<double> out;
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
    const double raw = (hi - lo) / std::max(1, count);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    for (double v = std::ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step)
        out.push_back(std::abs(v) < 1e-12 * step ? 0.0 : v);
    return out;
}

QString formatValue(double v) {
    if (v == 0.0) return QStringLiteral("0");
    const double a = std::abs(v);
    if (a >= 1e-3 && a < 1e5) return QString::number(v, 'g', 4);
    return QString::number(v, 'e', 2);
}

void drawColorBar(QPainter& p, const QRectF& rect, double lo, double hi, bool diverging,
                  const QString& caption) {
    const int steps = std::max(2, static_cast<int>(rect.height()));
    const double scale = diverging ? std::max(std::abs(lo), std::abs(hi)) : hi;
    for (int k = 0; k < steps; ++k) {
        const double v = lo + (hi - lo) * (k + 0.5) / steps;
        const double y = rect.bottom() - rect.height() * (k + 1) / steps;
        p.fillRect(QRectF(rect.left(), y, rect.width(), rect.height() / steps + 0.5),
                   diverging ? divergingColor(v, scale) : sequentialColor(v, scale));
    }
    p.setPen(QPen(Qt::darkGray, 0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(rect);
    const QFontMetricsF fm(p.font());
    p.setPen(Qt::black);
    std::vector<double> marks = {lo, hi};
    if (lo < 0 && hi > 0) marks.push_back(0.0);
    for (double v : marks) {
        const double y = rect.bottom() - rect.height() * (v - lo) / (hi - lo);
        p.drawLine(QPointF(rect.right(), y), QPointF(rect.right() + 4, y));
        p.drawText(QPointF(rect.right() + 6, y + fm.ascent() / 2 - 1), formatValue(v));
    }
    if (!caption.isEmpty())
        p.drawText(QRectF(rect.left() - 40, rect.top() - 1.5 * fm.height() - 4, rect.width() + 80,
                          fm.height()),
                   Qt::AlignCenter, caption);
}

}  // namespace ade::ui
