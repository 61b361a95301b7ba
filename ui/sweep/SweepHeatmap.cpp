#include "sweep/SweepHeatmap.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "base/ColorMaps.h"

namespace ade::ui {

SweepHeatmap::SweepHeatmap(QWidget* parent) : SweepChart(parent) {
    setObjectName(QStringLiteral("sweepHeatmap"));
}

int SweepHeatmap::cell(int column, int row) const {
    if (column < 0 || row < 0 || column >= cols_.size() || row >= rows_.size()) return -1;
    return cells_[static_cast<std::size_t>(row * cols_.size() + column)];
}

int SweepHeatmap::drawnCount() const {
    return static_cast<int>(std::count_if(cells_.begin(), cells_.end(), [this](int i) {
        return i >= 0 && std::isfinite(results_.configs[i].mean);
    }));
}

void SweepHeatmap::resultsChanged() {
    cols_.clear(), rows_.clear(), cells_.clear(), note_.clear();
    if (results_.keys.size() < 2) return;
    cols_ = results_.distinct(results_.keys[0]);
    rows_ = results_.distinct(results_.keys[1]);
    cells_.assign(static_cast<std::size_t>(cols_.size() * rows_.size()), -1);
    // One config per cell: with several runs in the plan, the first run's (said in the note).
    std::string label;
    std::vector<double> means;
    for (int i = 0; i < static_cast<int>(results_.configs.size()); ++i) {
        const auto& c = results_.configs[i];
        if (label.empty()) label = c.label;
        if (c.label != label) {
            note_ = tr("run %1 only (the plan has several runs)").arg(QString::fromStdString(label));
            continue;
        }
        const int col = cols_.indexOf(results_.text(i, results_.keys[0]));
        const int row = rows_.indexOf(results_.text(i, results_.keys[1]));
        if (col < 0 || row < 0) continue;
        cells_[static_cast<std::size_t>(row * cols_.size() + col)] = i;
        if (std::isfinite(c.mean)) means.push_back(c.mean);
    }
    log_ = chooseAxis(means, results_.metric).log;
    if (!means.empty()) {
        const auto [a, b] = std::minmax_element(means.begin(), means.end());
        lo_ = *a, hi_ = *b;
    }
    QString best = results_.lowerIsBetter ? tr("lowest") : tr("highest");
    const QString scale = log_ ? tr("log colour scale") : tr("linear colour scale");
    note_ = note_.isEmpty() ? tr("best (%1) framed; %2").arg(best, scale)
                            : tr("%1; best (%2) framed; %3").arg(note_, best, scale);
}

double SweepHeatmap::shade(double v) const {
    if (!std::isfinite(v)) return NAN;
    if (!(hi_ > lo_)) return 0.6;
    const double t = log_ ? (std::log(v) - std::log(lo_)) / (std::log(hi_) - std::log(lo_))
                          : (v - lo_) / (hi_ - lo_);
    return 0.08 + 0.92 * std::clamp(t, 0.0, 1.0);
}

SweepHeatmap::Layout SweepHeatmap::layout(const QRectF& area, const QFontMetricsF& fm) const {
    Layout l;
    double rowLabel = 0;
    for (const QString& r : rows_)
        rowLabel = std::max(rowLabel, fm.horizontalAdvance(r));
    rowLabel = std::min(rowLabel, area.width() * 0.2);
    const double left = area.left() + fm.height() + 12 + rowLabel + 8;
    const double barW = 18, barLabel = fm.horizontalAdvance(QStringLiteral("0.0000e-00")) + 12;
    const double right = area.right() - barW - barLabel - 24;
    const double top = area.top() + fm.height() + 6;  // room for the colour bar's caption
    const double bottom = area.bottom() - 2 * fm.height() - 16;
    l.grid = QRectF(QPointF(left, top), QPointF(right, bottom));
    l.bar = QRectF(right + 16, top, barW, bottom - top);
    l.cw = cols_.isEmpty() ? 0 : l.grid.width() / cols_.size();
    l.ch = rows_.isEmpty() ? 0 : l.grid.height() / rows_.size();
    return l;
}

void SweepHeatmap::paintChart(QPainter& p, const QRectF& area) const {
    const QString k0 = results_.keys.size() > 0 ? keyLabel(results_.keys[0]) : QString();
    const QString k1 = results_.keys.size() > 1 ? keyLabel(results_.keys[1]) : QString();
    const QRectF rest =
        drawTitle(p, area, tr("%1 over %2 × %3").arg(results_.metricLabel, k0, k1));
    if (drawnCount() == 0) {
        drawEmpty(p, rest, tr("No finished runs yet: cells fill in as configs finish."));
        return;
    }
    p.setFont(chartFont());
    const QFontMetricsF fm(p.font());
    const Layout l = layout(rest, fm);
    const int best = results_.best();
    valuesShown_ = false;
    for (int r = 0; r < rows_.size(); ++r)
        for (int c = 0; c < cols_.size(); ++c) {
            // Row 0 at the bottom (the second key's smallest value), as on a y axis.
            const QRectF cellRect(l.grid.left() + c * l.cw, l.grid.bottom() - (r + 1) * l.ch,
                                  l.cw, l.ch);
            const int i = cell(c, r);
            const double mean = i >= 0 ? results_.configs[i].mean : NAN;
            if (!std::isfinite(mean)) {
                p.fillRect(cellRect, QColor(0xee, 0xee, 0xee));
                p.setPen(QColor(0x77, 0x77, 0x77));
                p.drawText(cellRect, Qt::AlignCenter,
                           i >= 0 && results_.configs[i].seedsFailed > 0 ? tr("failed")
                                                                         : QStringLiteral("—"));
                continue;
            }
            const double t = shade(mean);
            p.fillRect(cellRect, sequentialColor(t, 1.0));
            const QString text = formatValue(mean);
            if (fm.horizontalAdvance(text) + 6 < l.cw && fm.height() + 2 < l.ch) {
                p.setPen(t > 0.55 ? Qt::white : Qt::black);
                p.drawText(cellRect, Qt::AlignCenter, text);
                valuesShown_ = true;
            }
        }
    p.setPen(QPen(Qt::white, 1));
    for (int c = 1; c < cols_.size(); ++c)
        p.drawLine(QPointF(l.grid.left() + c * l.cw, l.grid.top()),
                   QPointF(l.grid.left() + c * l.cw, l.grid.bottom()));
    for (int r = 1; r < rows_.size(); ++r)
        p.drawLine(QPointF(l.grid.left(), l.grid.top() + r * l.ch),
                   QPointF(l.grid.right(), l.grid.top() + r * l.ch));
    p.setBrush(Qt::NoBrush);
    for (int r = 0; r < rows_.size(); ++r)
        for (int c = 0; c < cols_.size(); ++c) {
            const int i = cell(c, r);
            if (i < 0 || (i != best && i != selected_ && i != hovered_)) continue;
            const QRectF cr(l.grid.left() + c * l.cw, l.grid.bottom() - (r + 1) * l.ch, l.cw,
                            l.ch);
            if (i == best) {
                p.setPen(QPen(bestColor(), 4));
                p.drawRect(cr.adjusted(2, 2, -2, -2));
            }
            if (i == selected_ || i == hovered_) {
                p.setPen(QPen(Qt::black, 2, i == selected_ ? Qt::DashLine : Qt::SolidLine));
                p.drawRect(cr.adjusted(5, 5, -5, -5));
            }
        }
    // Labels: columns under the grid, rows left of it, key names as axis titles.
    p.setPen(Qt::black);
    double lastRight = -1e9;
    for (int c = 0; c < cols_.size(); ++c) {
        const double x = l.grid.left() + (c + 0.5) * l.cw;
        const double w = fm.horizontalAdvance(cols_[c]);
        if (x - w / 2 < lastRight + 4) continue;
        p.drawText(QPointF(x - w / 2, l.grid.bottom() + 4 + fm.ascent()), cols_[c]);
        lastRight = x + w / 2;
    }
    p.drawText(QRectF(l.grid.left(), l.grid.bottom() + 8 + fm.height(), l.grid.width(),
                      fm.height()),
               Qt::AlignHCenter, fm.elidedText(xTitle(k0), Qt::ElideRight, l.grid.width()));
    const double rowLabelW = l.grid.left() - rest.left() - fm.height() - 20;
    double lastTop = 1e9;
    for (int r = 0; r < rows_.size(); ++r) {
        const double y = l.grid.bottom() - (r + 0.5) * l.ch;
        if (y + fm.height() / 2 > lastTop) continue;
        p.drawText(QRectF(l.grid.left() - 8 - rowLabelW, y - fm.height() / 2, rowLabelW,
                          fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(rows_[r], Qt::ElideRight, rowLabelW));
        lastTop = y - fm.height() / 2;
    }
    p.save();
    p.translate(rest.left() + 4 + fm.ascent(), l.grid.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-l.grid.height() / 2, -fm.ascent(), l.grid.height(), fm.height()),
               Qt::AlignHCenter, fm.elidedText(yTitle(k1), Qt::ElideRight, l.grid.height()));
    p.restore();
    // Colour bar with the metric's values (log or linear, as the cells).
    const int steps = std::max(2, static_cast<int>(l.bar.height()));
    for (int k = 0; k < steps; ++k) {
        const double t = 0.08 + 0.92 * (k + 0.5) / steps;
        p.fillRect(QRectF(l.bar.left(), l.bar.bottom() - l.bar.height() * (k + 1) / steps,
                          l.bar.width(), l.bar.height() / steps + 0.5),
                   sequentialColor(t, 1.0));
    }
    p.setPen(QPen(Qt::darkGray, 0));
    p.drawRect(l.bar);
    SweepScale s;
    s.lo = lo_, s.hi = hi_ > lo_ ? hi_ : lo_ + 1, s.log = log_ && lo_ > 0;
    s.p0 = l.bar.bottom(), s.p1 = l.bar.top();
    p.setPen(Qt::black);
    std::vector<double> marks = s.ticks(std::max(2, static_cast<int>(l.bar.height() / 50)));
    if (marks.empty()) marks = {lo_, hi_};
    for (double v : marks) {
        const double y = s.map(v);
        if (y < l.bar.top() - 0.5 || y > l.bar.bottom() + 0.5) continue;
        p.drawLine(QPointF(l.bar.right(), y), QPointF(l.bar.right() + 4, y));
        p.drawText(QPointF(l.bar.right() + 6, y + fm.ascent() / 2 - 1), formatValue(v));
    }
    p.drawText(QRectF(l.bar.left() - 60, l.bar.top() - fm.height() - 4, l.bar.width() + 120,
                      fm.height()),
               Qt::AlignCenter, results_.metric);
}

int SweepHeatmap::configAt(const QPointF& pos, const QRectF& area) const {
    if (cols_.isEmpty() || rows_.isEmpty()) return -1;
    QImage scratch(1, 1, QImage::Format_ARGB32);
    QPainter p(&scratch);
    const QRectF rest = drawTitle(p, area, QString());
    p.setFont(chartFont());
    const Layout l = layout(rest, QFontMetricsF(p.font()));
    if (!l.grid.contains(pos)) return -1;
    const int c = static_cast<int>((pos.x() - l.grid.left()) / l.cw);
    const int r = static_cast<int>((l.grid.bottom() - pos.y()) / l.ch);
    return cell(c, r);
}

}  // namespace ade::ui
