#include "LegendBar.h"

#include <QHBoxLayout>
#include <QPainter>
#include <QToolButton>

namespace ade::ui {

namespace {
bool same(const LegendEntry& a, const LegendEntry& b) {
    return a.key == b.key && a.label == b.label && a.pen == b.pen && a.swatch == b.swatch &&
           a.hidden == b.hidden;
}

QIcon sample(const LegendEntry& e, qreal dpr) {
    const QSize size(26, 12);
    QPixmap pm(size * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    QColor c = e.pen.color();
    if (e.hidden) c.setAlpha(70);
    if (e.swatch) {
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawRoundedRect(QRectF(7, 1, 10, 10), 2, 2);
    } else {
        QPen pen = e.pen;
        pen.setColor(c);
        pen.setWidthF(std::max(2.0, pen.widthF()));
        pen.setCapStyle(Qt::FlatCap);
        p.setPen(pen);
        p.drawLine(QPointF(1, 6), QPointF(25, 6));
    }
    return QIcon(pm);
}
}  // namespace

LegendBar::LegendBar(QWidget* parent) : QWidget(parent) {
    layout_ = new QHBoxLayout(this);
    layout_->setContentsMargins(4, 0, 4, 2);
    layout_->setSpacing(2);
    layout_->addStretch(1);
}

void LegendBar::setEntries(const std::vector<LegendEntry>& entries) {
    if (entries.size() == entries_.size() &&
        std::equal(entries.begin(), entries.end(), entries_.begin(), same))
        return;
    entries_ = entries;
    while (layout_->count() > 1) {
        QLayoutItem* item = layout_->takeAt(0);
        delete item->widget();
        delete item;
    }
    int pos = 0;
    for (const LegendEntry& e : entries_) {
        auto* b = new QToolButton(this);
        b->setObjectName(QStringLiteral("legend:") + e.label);
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setIcon(sample(e, devicePixelRatioF()));
        b->setIconSize(QSize(26, 12));
        b->setText(e.label);
        QFont f = font();
        f.setStrikeOut(e.hidden);
        b->setFont(f);
        b->setToolTip(e.hidden ? tr("Show %1").arg(e.label) : tr("Hide %1").arg(e.label));
        const QString key = e.key;
        connect(b, &QToolButton::clicked, this, [this, key] { emit toggled(key); });
        layout_->insertWidget(pos++, b);
    }
}

}  // namespace ade::ui
