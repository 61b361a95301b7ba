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

namespace {

QString superscript(int n) {
    static const char16_t digits[] = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
    QString out;
    const QString plain = QString::number(std::abs(n));
    if (n < 0) out += QChar(0x207B);  // superscript minus
    for (QChar c : plain)
        out += QChar(digits[c.digitValue()]);
    return out;
}

// Whether `ticks` fit `pixels` of axis: vertically about two lines apart, horizontally each
// label's width plus a gap (positions are log10 values over [a, b]).
bool ticksFit(const std::vector<Tick>& ticks, double a, double b, double pixels,
              const QFontMetricsF& fm, bool horizontal) {
    if (ticks.size() < 2) return true;
    double closest = b - a;
    for (std::size_t i = 1; i < ticks.size(); ++i)
        closest = std::min(closest, ticks[i].value - ticks[i - 1].value);
    const double spacing = pixels * closest / (b - a);
    if (!horizontal) return spacing >= fm.height() * 2.0;
    double widest = 0;
    for (const Tick& t : ticks)
        widest = std::max(widest, fm.horizontalAdvance(t.text));
    return spacing >= widest + fm.horizontalAdvance(QStringLiteral("M"));
}

}  // namespace

QString logTickText(double v, bool powers) {
    if (!(v > 0) || !std::isfinite(v)) return QString();
    const int e = static_cast<int>(std::floor(std::log10(v) + 1e-9));
    const double m = v / std::pow(10.0, e);
    const bool whole = std::abs(m - std::round(m)) < 1e-6;
    if (!powers && e >= -3 && e <= 4) {
        const int decimals = std::max(0, -e + (whole ? 0 : 1));
        return QString::number(v, 'f', decimals);
    }
    const QString power = QStringLiteral("10") + superscript(e);
    if (whole && std::round(m) == 1) return power;
    return (whole ? QString::number(std::round(m)) : QString::number(m, 'g', 3)) +
           QChar(0x00D7) + power;
}

std::vector<Tick> logTicks(double lo, double hi, double pixels, const QFont& font,
                           bool horizontal) {
    std::vector<Tick> out;
    if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return out;
    const QFontMetricsF fm(font);
    const double a = std::log10(lo), b = std::log10(hi);
    auto at = [&](const std::vector<double>& values) {
        std::vector<Tick> t;
        for (double v : values)
            if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back({std::log10(v), logTickText(v)});
        return t;
    };
    const int first = static_cast<int>(std::ceil(a - 1e-9)), last = static_cast<int>(std::floor(b + 1e-9));
    // Powers of ten every k decades, the fewest k that fit.
    std::vector<Tick> powers;
    for (int k : {1, 2, 3, 5, 10, 20, 50}) {
        std::vector<double> values;
        for (int e = first; e <= last; ++e)
            if (e % k == 0) values.push_back(std::pow(10.0, e));
        powers = at(values);
        if (ticksFit(powers, a, b, pixels, fm, horizontal)) break;
    }
    // One style per axis: decimals while every label has a short one, else all as powers.
    auto styled = [&](std::vector<Tick> ticks) {
        const bool decimal = std::all_of(ticks.begin(), ticks.end(), [](const Tick& t) {
            return t.value >= -3 - 1e-9 && t.value < 5 - 1e-9;
        });
        if (!decimal)
            for (Tick& t : ticks)
                t.text = logTickText(std::pow(10.0, t.value), true);
        return ticks;
    };
    if (powers.size() >= 3 || (powers.size() >= 2 && last - first > 1)) return styled(powers);
    // A decade or two: 1, 2 and 5 times the powers, or 1 and 3, if they fit.
    for (const std::vector<double>& mantissas :
         {std::vector<double>{1, 2, 5}, std::vector<double>{1, 3}}) {
        std::vector<double> values;
        for (int e = first - 1; e <= last; ++e)
            for (double m : mantissas)
                values.push_back(m * std::pow(10.0, e));
        std::vector<Tick> t = at(values);
        if (t.size() >= 3 && ticksFit(t, a, b, pixels, fm, horizontal)) return styled(t);
    }
    // Zoomed inside a decade: round linear steps of the values, placed on the log axis.
    std::vector<Tick> linear = fittingTicks(lo, hi, pixels, font, horizontal);
    for (Tick& t : linear)
        t.value = std::log10(t.value);
    std::erase_if(linear, [](const Tick& t) { return !std::isfinite(t.value); });
    if (linear.size() >= 2 || powers.empty()) return linear;
    return styled(powers);
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
