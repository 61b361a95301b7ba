#include "charts/Ticks.h"

#include <QCategoryAxis>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace ade::ui {

double tickStep(double lo, double hi, int maxTicks) {
    const double span = hi - lo;
    if (!(span > 0) || !std::isfinite(span) || maxTicks < 1) return 0;
    // The smallest 1-2-5 step that keeps the count at or under maxTicks.
    const double raw = span / std::max(1, maxTicks - 1);
    double z = std::pow(10.0, std::floor(std::log10(raw)));
    for (int guard = 0; guard < 8; ++guard, z *= 10)
        for (double m : {1.0, 2.0, 5.0}) {
            const double step = m * z;
            if (step < raw * (1 - 1e-12)) continue;
            const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
            if (last - first + 1 <= maxTicks) return step;
        }
    return 0;
}

std::vector<Tick> ticksWithStep(double lo, double hi, double step) {
    std::vector<Tick> out;
    if (!(step > 0) || !(hi >= lo)) return out;
    const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
    if (last - first > 1000) return out;
    for (double k = first; k <= last; ++k) {
        const double v = k == 0 ? 0.0 : k * step;  // a multiple of the step, not a sum of steps
        out.push_back({v, tickText(v, step)});
    }
    return out;
}

QString tickText(double v, double step) {
    if (!(step > 0) || std::abs(v) < step * 1e-6) return QStringLiteral("0");
    const double mag = std::max(std::abs(v), step);
    QString s;
    if (mag >= 1e6 || step < 1e-4) {
        // Scientific: the mantissa keeps the digits that tell two ticks apart.
        const int e = static_cast<int>(std::floor(std::log10(std::abs(v)) + 1e-12));
        const int es = static_cast<int>(std::floor(std::log10(step) + 1e-12));
        const int digits = std::clamp(e - es, 0, 15);
        s = QString::number(v, 'e', digits);
    } else {
        // Decimals of the step: 0.25 -> 2, 0.5 -> 1, 20 -> 0.
        int decimals = 0;
        for (double t = step; decimals < 15 && std::abs(t - std::round(t)) > 1e-9 * std::max(1.0, t);
             t *= 10)
            ++decimals;
        s = QString::number(v, 'f', decimals);
    }
    if (s.startsWith(QLatin1Char('-'))) s.replace(0, 1, QChar(0x2212));
    return s;
}

std::vector<Tick> fittingTicks(double lo, double hi, double pixels, const QFont& font,
                               bool horizontal) {
    const QFontMetricsF fm(font);
    if (!horizontal) {
        // About two and a half lines per tick: labels well apart, at most eight.
        const int n = std::clamp(static_cast<int>(pixels / (fm.height() * 2.5)), 2, 8);
        return ticksWithStep(lo, hi, tickStep(lo, hi, n));
    }
    const double gap = fm.horizontalAdvance(QStringLiteral("MM"));
    for (int n = std::clamp(static_cast<int>(pixels / 40), 2, 12); n >= 2; --n) {
        std::vector<Tick> ticks = ticksWithStep(lo, hi, tickStep(lo, hi, n));
        double widest = 0;
        for (const Tick& t : ticks)
            widest = std::max(widest, fm.horizontalAdvance(t.text));
        // Each label is centred on its tick: neighbours need their width plus a gap apart.
        const double spacing = ticks.size() > 1 ? pixels * (ticks[1].value - ticks[0].value) / (hi - lo) : pixels;
        if (n == 2 || spacing >= widest + gap) return ticks;
    }
    return {};
}

bool setAxisTicks(QCategoryAxis* axis, const std::vector<Tick>& ticks) {
    const QStringList labels = axis->categoriesLabels();
    bool same = labels.size() == static_cast<qsizetype>(ticks.size()) &&
                axis->labelsPosition() == QCategoryAxis::AxisLabelsPositionOnValue;
    for (std::size_t i = 0; same && i < ticks.size(); ++i)
        same = labels[static_cast<qsizetype>(i)] == ticks[i].text &&
               axis->endValue(ticks[i].text) == ticks[i].value;
    if (same) return false;
    for (const QString& l : labels)
        axis->remove(l);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const double lo = axis->min();
    for (const Tick& t : ticks)
        axis->append(t.text, t.value);
    axis->setStartValue(lo);
    return true;
}

}  // namespace ade::ui
