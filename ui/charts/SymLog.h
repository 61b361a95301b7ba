#pragma once
// The symmetric-log y axis of signed quantities that span decades (the Villani expression):
// y -> sign(y) log10(1 + |y|), linear within about ±1 and logarithmic beyond, so spikes of
// either sign over many decades and values near zero are all readable on one axis. The curve's
// points are transformed; the axis is a QCategoryAxis whose labels name the untransformed
// values (0, ±1, ±10, ±10², ...). Shared by the live charts and the exported figures.
#include <QCategoryAxis>
#include <QString>

#include <cmath>
#include <vector>

namespace ade::ui {

inline double symLog(double y) {
    return std::copysign(std::log10(1.0 + std::abs(y)), y);
}

// Appends the transform of y's values past out.size() (y only grows, or is refilled: a shorter
// y starts again).
inline void extendSymLog(const std::vector<double>& y, std::vector<double>& out) {
    if (out.size() > y.size()) out.clear();
    out.reserve(y.size());
    for (std::size_t i = out.size(); i < y.size(); ++i)
        out.push_back(symLog(y[i]));
}

// "10⁵"-style text for ±10^k.
inline QString symLogLabel(int k, bool negative) {
    static const char16_t* sup[] = {u"⁰", u"¹", u"²", u"³", u"⁴", u"⁵", u"⁶", u"⁷", u"⁸", u"⁹"};
    QString s = k == 0 ? QStringLiteral("1") : QStringLiteral("10");
    if (k >= 2)
        for (QChar c : QString::number(k))
            s += QString::fromUtf16(sup[c.digitValue()]);
    return (negative ? QStringLiteral("−") : QString()) + s;
}

// Labels at 0 and ±10^k inside [lo, hi] (transformed units), about six of them.
inline void setSymLogLabels(QCategoryAxis* axis, double lo, double hi) {
    for (const QString& l : axis->categoriesLabels())
        axis->remove(l);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const int decades = static_cast<int>(std::ceil(std::max(std::abs(lo), std::abs(hi))));
    const int step = std::max(1, (2 * decades + 1) / 6);
    std::vector<int> ks;
    for (int k = 0; k <= decades; k += step)
        ks.push_back(k);
    std::vector<std::pair<double, QString>> marks;
    for (auto it = ks.rbegin(); it != ks.rend(); ++it)
        marks.emplace_back(-symLog(std::pow(10.0, *it)), symLogLabel(*it, true));
    marks.emplace_back(0.0, QStringLiteral("0"));
    for (int k : ks)
        marks.emplace_back(symLog(std::pow(10.0, k)), symLogLabel(k, false));
    for (const auto& [v, text] : marks)
        if (v >= lo && v <= hi) axis->append(text, v);
    axis->setStartValue(lo);
}

}  // namespace ade::ui
