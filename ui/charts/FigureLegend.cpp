#include "charts/FigureLegend.h"

#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QPainter>

#include <algorithm>

namespace ade::ui {

namespace {
void drawMarker(QPainter* p, int marker, const QPointF& c, double r, const QColor& colour) {
    p->setPen(Qt::NoPen);
    p->setBrush(colour);
    switch (marker) {
        case 0:
            p->drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r));
            break;
        case 1:
            p->drawEllipse(c, r, r);
            break;
        case 2:
            p->drawPolygon(QPolygonF({QPointF(c.x(), c.y() - r), QPointF(c.x() + r, c.y() + r),
                                      QPointF(c.x() - r, c.y() + r)}));
            break;
        default:
            p->drawPolygon(QPolygonF({QPointF(c.x(), c.y() - r), QPointF(c.x() + r, c.y()),
                                      QPointF(c.x(), c.y() + r), QPointF(c.x() - r, c.y())}));
            break;
    }
}
}  // namespace

FigureLegendItem::FigureLegendItem(std::vector<FigureLegendEntry> entries, const QFont& font,
                                   const QColor& text, QGraphicsItem* parent)
    : QGraphicsItem(parent), entries_(std::move(entries)), font_(font), text_(text) {
    setZValue(50);
}

double FigureLegendItem::sampleLength() const {
    return 4.0 * QFontMetricsF(font_).height();
}

QSizeF FigureLegendItem::layout(double maxWidth, bool rows) {
    prepareGeometryChange();
    const QFontMetricsF fm(font_);
    const double line = fm.height() * 1.35, gap = fm.height() * 0.5;
    const double sample = sampleLength();
    at_.clear();
    shown_.clear();
    double x = 0, y = 0, widest = 0;
    for (const FigureLegendEntry& e : entries_) {
        const QString label = fm.elidedText(e.label, Qt::ElideRight,
                                            std::max(40.0, maxWidth - sample - gap));
        const double w = sample + gap + fm.horizontalAdvance(label);
        if (rows && x > 0 && x + w > maxWidth) {
            x = 0;
            y += line;
        }
        at_.emplace_back(x, y);
        shown_.push_back(label);
        widest = std::max(widest, x + w);
        if (rows)
            x += w + 2 * gap;
        else
            y += line;
    }
    size_ = QSizeF(widest, rows ? y + line : y);
    return size_;
}

QRectF FigureLegendItem::boundingRect() const {
    return QRectF(QPointF(0, 0), size_);
}

void FigureLegendItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    const QFontMetricsF fm(font_);
    const double h = fm.height(), gap = h * 0.5, sample = sampleLength();
    p->setRenderHint(QPainter::Antialiasing);
    p->setFont(font_);
    for (std::size_t i = 0; i < entries_.size() && i < at_.size(); ++i) {
        const FigureLegendEntry& e = entries_[i];
        const QPointF o = at_[i];
        const double mid = o.y() + h * 0.6;
        if (e.pen.style() == Qt::NoPen) {  // a note: its text from the samples' left edge
            p->setPen(text_);
            p->drawText(QPointF(o.x(), o.y() + fm.ascent() + h * 0.1), shown_[i]);
            continue;
        }
        if (e.band.style() != Qt::NoBrush)
            p->fillRect(QRectF(o.x(), mid - h * 0.4, sample, h * 0.8), e.band);
        QPen pen = e.pen;
        pen.setCapStyle(Qt::FlatCap);
        p->setPen(pen);
        p->drawLine(QPointF(o.x(), mid), QPointF(o.x() + sample, mid));
        if (e.marker >= 0)
            drawMarker(p, e.marker, QPointF(o.x() + sample / 2, mid),
                       std::max(3.0, pen.widthF() * 1.8), pen.color());
        p->setPen(text_);
        p->drawText(QPointF(o.x() + sample + gap, o.y() + fm.ascent() + h * 0.1), shown_[i]);
    }
}

FigureLegendItem* addFigureLegend(QChart* chart, std::vector<FigureLegendEntry> entries,
                                  Qt::Alignment alignment, const QSizeF& size, const QFont& font,
                                  const QColor& text) {
    chart->legend()->hide();
    if (entries.empty()) return nullptr;
    auto* item = new FigureLegendItem(std::move(entries), font, text, chart);
    const double pad = QFontMetricsF(font).height() * 0.8;
    const bool rows = alignment & (Qt::AlignTop | Qt::AlignBottom);
    QMargins m = chart->margins();
    if (rows) {
        const QSizeF s = item->layout(size.width() - 2 * pad, true);
        const double x = std::max(pad, (size.width() - s.width()) / 2);
        if (alignment & Qt::AlignTop) {
            // Below the title: the title takes about two label lines.
            const double top = QFontMetricsF(chart->titleFont()).height() * 1.6;
            item->setPos(x, top);
            m.setTop(m.top() + static_cast<int>(s.height() + pad));
        } else {
            item->setPos(x, size.height() - s.height() - pad);
            m.setBottom(m.bottom() + static_cast<int>(s.height() + pad));
        }
    } else {
        const QSizeF s = item->layout(size.width() * 0.38, false);
        const double top = std::max(pad, (size.height() - s.height()) / 2);
        if (alignment & Qt::AlignLeft) {
            item->setPos(pad, top);
            m.setLeft(m.left() + static_cast<int>(s.width() + 2 * pad));
        } else {
            item->setPos(size.width() - s.width() - pad, top);
            m.setRight(m.right() + static_cast<int>(s.width() + 2 * pad));
        }
    }
    chart->setMargins(m);
    return item;
}

}  // namespace ade::ui
