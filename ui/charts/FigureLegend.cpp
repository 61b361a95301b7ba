#include "charts/FigureLegend.h"

#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QPainter>
#include <QTextDocument>

#include <algorithm>

#include "base/RichText.h"

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

// A label as laid out: the plain part escaped, the notation with real subscripts.
void prepare(QTextDocument& doc, const QFont& font, const QString& html, double width) {
    doc.setDefaultFont(font);
    doc.setDocumentMargin(0);
    doc.setHtml(html);
    if (width > 0) doc.setTextWidth(width);
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
    const double gap = fm.height() * 0.5;
    const double sample = sampleLength();
    at_.clear();
    html_.clear();
    textWidth_.clear();
    double x = 0, y = 0, widest = 0, rowHeight = 0;
    for (const FigureLegendEntry& e : entries_) {
        const QString html = QStringLiteral("<span style=\"white-space: pre-wrap\">") +
                             e.label.toHtmlEscaped() + richLabel(e.notation) +
                             QStringLiteral("</span>");
        const double room = std::max(40.0, maxWidth - (e.pen.style() == Qt::NoPen ? 0 : sample + gap));
        QTextDocument doc;
        prepare(doc, font_, html, 0);
        double tw = 0;
        if (doc.idealWidth() > room) {  // too long for the room: wrapped, never cut
            tw = room;
            prepare(doc, font_, html, tw);
        }
        const QSizeF ts(tw > 0 ? tw : doc.idealWidth(), doc.size().height());
        const double w = (e.pen.style() == Qt::NoPen ? 0 : sample + gap) + ts.width();
        const double h = std::max(ts.height(), fm.height()) + fm.height() * 0.35;
        if (rows && x > 0 && x + w > maxWidth) {
            x = 0;
            y += rowHeight;
            rowHeight = 0;
        }
        at_.emplace_back(x, y);
        html_.push_back(html);
        textWidth_.push_back(tw);
        widest = std::max(widest, x + w);
        if (rows) {
            x += w + 2 * gap;
            rowHeight = std::max(rowHeight, h);
        } else {
            y += h;
        }
    }
    size_ = QSizeF(widest, rows ? y + rowHeight : y);
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
    auto drawLabel = [&](std::size_t i, const QPointF& at) {
        QTextDocument doc;
        prepare(doc, font_, QStringLiteral("<span style=\"color: %1\">").arg(text_.name()) +
                               html_[i] + QStringLiteral("</span>"),
                textWidth_[i]);
        p->save();
        p->translate(at);
        doc.drawContents(p);
        p->restore();
    };
    for (std::size_t i = 0; i < entries_.size() && i < at_.size(); ++i) {
        const FigureLegendEntry& e = entries_[i];
        const QPointF o = at_[i];
        const double mid = o.y() + h * 0.6;
        if (e.pen.style() == Qt::NoPen) {  // a note: its text from the samples' left edge
            drawLabel(i, o);
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
        drawLabel(i, QPointF(o.x() + sample + gap, o.y()));
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
