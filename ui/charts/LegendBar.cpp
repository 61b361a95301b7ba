#include "LegendBar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>

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
    // The chart decides the width; long legends elide rather than widen the grid column.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    auto* rows = new QVBoxLayout(this);
    rows->setContentsMargins(4, 0, 4, 2);
    rows->setSpacing(0);
    for (QHBoxLayout** row : {&metrics_, &runs_}) {
        *row = new QHBoxLayout;
        (*row)->setSpacing(2);
        (*row)->addStretch(1);
        rows->addLayout(*row);
    }
}

void LegendBar::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() != QEvent::FontChange || entries_.empty()) return;
    std::vector<LegendEntry> keep;
    keep.swap(entries_);
    setEntries(keep);
}

void LegendBar::setEntries(const std::vector<LegendEntry>& entries) {
    if (entries.size() == entries_.size() &&
        std::equal(entries.begin(), entries.end(), entries_.begin(), same))
        return;
    entries_ = entries;
    for (QHBoxLayout* row : {metrics_, runs_})
        while (row->count() > 1) {
            QLayoutItem* item = row->takeAt(0);
            // Later: the clicked button itself may be the one being replaced.
            item->widget()->setObjectName(QString());
            item->widget()->hide();
            item->widget()->deleteLater();
            delete item;
        }
    int metricPos = 0, runPos = 0;
    for (const LegendEntry& e : entries_) {
        auto* b = new QToolButton(this);
        b->setObjectName(QStringLiteral("legend:") + e.label);
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setIcon(sample(e, devicePixelRatioF()));
        b->setIconSize(QSize(26, 12));
        b->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
        b->setText(e.label);
        QFont f = font();
        f.setStrikeOut(e.hidden);
        b->setFont(f);
        b->setToolTip(e.hidden ? tr("Show %1").arg(e.label) : tr("Hide %1").arg(e.label));
        const QString key = e.key;
        connect(b, &QToolButton::clicked, this, [this, key] { emit toggled(key); });
        if (e.swatch)
            runs_->insertWidget(runPos++, b);
        else
            metrics_->insertWidget(metricPos++, b);
    }
}

}  // namespace ade::ui
