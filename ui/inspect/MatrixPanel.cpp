#include "inspect/MatrixPanel.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QImage>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "base/ColorMaps.h"
#include "inspect/HoverText.h"

namespace ade::ui {

namespace {

constexpr double kGap = 18, kBarWidth = 14, kBarArea = 86, kMaxCell = 40;

QImage heatmapImage(const Eigen::MatrixXd& m, double scale) {
    QImage img(static_cast<int>(m.cols()), static_cast<int>(m.rows()), QImage::Format_RGB32);
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            img.setPixel(static_cast<int>(j), static_cast<int>(i),
                         divergingColor(m(i, j), scale).rgb());
    return img;
}

double maxAbsFinite(const Eigen::MatrixXd& m) {
    double out = 0;
    for (Eigen::Index k = 0; k < m.size(); ++k)
        if (std::isfinite(m.data()[k])) out = std::max(out, std::abs(m.data()[k]));
    return out;
}

}  // namespace

std::vector<HeatmapHit> paintMatrices(QPainter& p, const QRectF& area, const MatrixScene& scene) {
    std::vector<HeatmapHit> hits;
    p.save();
    p.fillRect(area, Qt::white);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    QFont font = p.font();
    const QFontMetricsF fm(font);
    double top = area.top() + 4;
    p.setPen(Qt::black);
    if (!scene.heading.isEmpty()) {
        QFont bold = font;
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(QRectF(area.left() + 6, top, area.width() - 12, fm.height() + 2),
                   Qt::AlignLeft | Qt::AlignVCenter, scene.heading);
        p.setFont(font);
        top += fm.height() + 8;
    }
    if (scene.views.empty()) {
        p.drawText(QRectF(area.left(), top, area.width(), area.bottom() - top),
                   Qt::AlignCenter | Qt::TextWordWrap, scene.note);
        p.restore();
        return hits;
    }
    std::map<int, std::vector<int>> rows;
    for (int v = 0; v < static_cast<int>(scene.views.size()); ++v)
        rows[scene.views[v].row].push_back(v);
    const double left = area.left() + 6;
    const double width = area.width() - 12 - kBarArea;
    const double titleH = fm.height() + 4;
    // Each row gets the height its heatmaps need at the width's cell size (a 4 × 32 factor needs
    // less than a 32 × 32 product); rows share the height in that proportion when it is short.
    std::map<int, double> rowHeights;
    double needed = 0;
    for (const auto& [row, members] : rows) {
        double sumCols = 0, maxRows = 1;
        for (int v : members) {
            sumCols += static_cast<double>(scene.views[v].values.cols());
            maxRows = std::max(maxRows, static_cast<double>(scene.views[v].values.rows()));
        }
        const double gaps = kGap * static_cast<double>(members.size() - 1);
        const double cell = std::min(kMaxCell, (width - gaps) / std::max(1.0, sumCols));
        rowHeights[row] = titleH + 14 + std::max(40.0, cell * maxRows);
        needed += rowHeights[row];
    }
    const double available = area.bottom() - top;
    if (needed > available)
        for (auto& [row, h] : rowHeights) h *= available / needed;
    for (const auto& [row, rowMembers] : rows) {
        const auto& members = rowMembers;  // a lambda below uses it (clang 14: no bindings there)
        const double rowHeight = rowHeights[row];
        const double availH = std::max(10.0, rowHeight - titleH - 14);
        double sumCols = 0, maxRows = 1, scale = 0;
        for (int v : members) {
            sumCols += static_cast<double>(scene.views[v].values.cols());
            maxRows = std::max(maxRows, static_cast<double>(scene.views[v].values.rows()));
            scale = std::max(scale, maxAbsFinite(scene.views[v].values));
        }
        if (!(scale > 0)) scale = 1.0;
        const double gaps = kGap * static_cast<double>(members.size() - 1);
        double cell = std::min({kMaxCell, (width - gaps) / std::max(1.0, sumCols), availH / maxRows});
        // Each heatmap's slot is at least as wide as its title; shrink the cells if that overflows.
        auto slotWidths = [&](double c) {
            std::vector<double> w;
            double total = gaps;
            for (int v : members) {
                const double mw = c * static_cast<double>(scene.views[v].values.cols());
                w.push_back(std::max(mw, fm.horizontalAdvance(QString::fromStdString(scene.views[v].title)) + 6));
                total += w.back();
            }
            return std::make_pair(w, total);
        };
        auto [widths, total] = slotWidths(cell);
        if (total > width) {
            const double titlesOnly = total - cell * sumCols;
            cell = std::max(0.5, std::min(cell, (width - titlesOnly) / std::max(1.0, sumCols)));
            std::tie(widths, total) = slotWidths(cell);
        }
        double x = left;
        const double y = top + titleH;
        for (std::size_t k = 0; k < members.size(); ++k) {
            const ade::MatrixView& mv = scene.views[members[k]];
            const double mw = cell * static_cast<double>(mv.values.cols());
            const double mh = cell * static_cast<double>(mv.values.rows());
            const double slot = std::min(widths[k], left + width - x);
            p.setPen(Qt::black);
            p.drawText(QRectF(x, top, slot, titleH), Qt::AlignHCenter | Qt::AlignVCenter,
                       fm.elidedText(QString::fromStdString(mv.title), Qt::ElideRight, slot));
            const QRectF r(x + (slot - mw) / 2, y, mw, mh);
            if (mv.values.size() > 0) p.drawImage(r, heatmapImage(mv.values, scale));
            p.setPen(QPen(Qt::darkGray, 0));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r);
            p.setPen(Qt::darkGray);
            p.drawText(QRectF(r.left() - 20, r.bottom() + 1, r.width() + 40, fm.height()),
                       Qt::AlignHCenter | Qt::AlignTop,
                       QStringLiteral("%1 × %2").arg(mv.values.rows()).arg(mv.values.cols()));
            hits.push_back({r, members[k]});
            x += slot + kGap;
        }
        const double barH = std::clamp(cell * maxRows, 40.0, availH);
        drawColorBar(p, QRectF(area.right() - kBarArea + 8, y + 4, kBarWidth, barH - 4), -scale,
                     scale, true, QStringLiteral("entry"));
        top += rowHeight;
    }
    p.restore();
    return hits;
}

MatrixPanel::MatrixPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("matrixPanel"));
    setMouseTracking(true);
    setMinimumSize(320, 240);
}

void MatrixPanel::setScene(MatrixScene scene) {
    scene_ = std::move(scene);
    update();
}

QString MatrixPanel::toolTipAt(const QPointF& pos) const {
    for (const HeatmapHit& h : hits_) {
        if (!h.rect.contains(pos)) continue;
        const ade::MatrixView& v = scene_.views[h.view];
        const auto rows = v.values.rows(), cols = v.values.cols();
        if (rows == 0 || cols == 0) return {};
        const auto i = std::clamp<Eigen::Index>(
            static_cast<Eigen::Index>((pos.y() - h.rect.top()) / h.rect.height() * rows), 0,
            rows - 1);
        const auto j = std::clamp<Eigen::Index>(
            static_cast<Eigen::Index>((pos.x() - h.rect.left()) / h.rect.width() * cols), 0,
            cols - 1);
        return tr("%1, entry (%2, %3) = %4\n%5")
            .arg(QString::fromStdString(v.title))
            .arg(i + 1)
            .arg(j + 1)
            .arg(formatValue(v.values(i, j)))
            .arg(QString::fromStdString(v.meaning));
    }
    return {};
}

void MatrixPanel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    hits_ = paintMatrices(p, rect(), scene_);
}

bool MatrixPanel::event(QEvent* e) {
    return showHoverText(this, e, [this](QPoint at) { return toolTipAt(at); }) ||
           QWidget::event(e);
}

}  // namespace ade::ui
