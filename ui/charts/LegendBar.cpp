#include "charts/LegendBar.h"

#include <QEvent>
#include <QPainter>
#include <QStyleOptionToolButton>
#include <QStylePainter>
#include <QTextDocument>
#include <QToolButton>

#include <cmath>

#include "base/RichText.h"

namespace ade::ui {

bool sameLegendEntry(const LegendEntry& a, const LegendEntry& b) {
    return a.key == b.key && a.label == b.label && a.tip == b.tip && a.pen == b.pen &&
           a.swatch == b.swatch && a.band == b.band && a.hidden == b.hidden &&
           a.notation == b.notation;
}

namespace {

// A legend entry's button: its sample and its label, drawn as rich text when the label is
// notation with subscripts ("‖W_Q‖_F" as ‖W<sub>Q</sub>‖<sub>F</sub>); otherwise a plain tool
// button. text() stays the plain label (accessibility, tests).
class LegendButton : public QToolButton {
  public:
    using QToolButton::QToolButton;
    void setRich(const QString& html) {
        rich_ = html;
        doc_.setDefaultFont(font());
        doc_.setDocumentMargin(0);
        doc_.setHtml(html);
        updateGeometry();
        update();
    }
    bool rich() const { return !rich_.isEmpty() && !shortened_; }
    void setShortened(bool on) { shortened_ = on; }
    // The label's width as drawn.
    int labelWidth(const QString& plain) const {
        if (rich_.isEmpty()) return fontMetrics().horizontalAdvance(plain);
        return static_cast<int>(std::ceil(doc_.idealWidth()));
    }
    QSize sizeHint() const override {
        QSize s = QToolButton::sizeHint();
        if (rich_.isEmpty()) return s;
        s.setWidth(s.width() - fontMetrics().horizontalAdvance(text()) + labelWidth(text()));
        s.setHeight(std::max(s.height(), static_cast<int>(std::ceil(doc_.size().height())) + 4));
        return s;
    }

  protected:
    void changeEvent(QEvent* e) override {
        QToolButton::changeEvent(e);
        if (e->type() == QEvent::FontChange && !rich_.isEmpty()) setRich(rich_);
    }
    void paintEvent(QPaintEvent* e) override {
        if (!rich()) return QToolButton::paintEvent(e);
        QStylePainter p(this);
        QStyleOptionToolButton opt;
        initStyleOption(&opt);
        opt.text.clear();
        opt.icon = QIcon();
        p.drawComplexControl(QStyle::CC_ToolButton, opt);  // the hover panel only
        const QSize is = iconSize();
        const int x = 4, y = (height() - is.height()) / 2;
        p.drawPixmap(x, y, icon().pixmap(is, devicePixelRatioF()));
        const QSizeF ds = doc_.size();
        p.translate(x + is.width() + 4, (height() - ds.height()) / 2);
        doc_.drawContents(&p);
    }

  private:
    QString rich_;
    QTextDocument doc_;
    bool shortened_ = false;
};

QIcon sample(const LegendEntry& e, qreal dpr) {
    const QSize size(26, 12);
    QPixmap pm(size * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    QColor c = e.pen.color();
    if (e.hidden) c.setAlpha(70);
    if (e.band || (e.swatch && e.pen.style() != Qt::SolidLine)) {
        // A mean over seeds: its band (light) with the line through it; a run past the eighth
        // colour: its line style, the cue besides the shade.
        if (e.band) {
            QColor light = c;
            light.setAlpha(e.hidden ? 25 : 70);
            p.fillRect(QRectF(1, 2, 24, 8), light);
        }
        QPen pen = e.pen;
        pen.setColor(c);
        pen.setWidthF(2.0);
        pen.setCapStyle(Qt::FlatCap);
        p.setPen(pen);
        p.drawLine(QPointF(1, 6), QPointF(25, 6));
    } else if (e.swatch) {
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
    // The chart decides the width; the legend takes the height its lines need.
    QSizePolicy policy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void LegendBar::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() != QEvent::FontChange || entries_.empty()) return;
    std::vector<LegendEntry> keep;
    keep.swap(entries_);
    setEntries(keep);
}

void LegendBar::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    flow(width(), true);
}

QSize LegendBar::sizeHint() const {
    return {width() > 0 ? width() : 400, heightForWidth(width() > 0 ? width() : 400)};
}

QSize LegendBar::minimumSizeHint() const {
    return {0, heightForWidth(width() > 0 ? width() : 400)};
}

int LegendBar::lineHeight() const {
    return buttons_.empty() ? fontMetrics().height() + 8 : buttons_.front()->sizeHint().height();
}

int LegendBar::heightForWidth(int w) const {
    return flow(w, false);
}

int LegendBar::flow(int width, bool apply) const {
    const int margin = 4, gap = 2;
    int x = margin, y = 0, lineHeight = 0;
    bool metricsDone = false;
    for (std::size_t i = 0; i < buttons_.size(); ++i) {
        QToolButton* b = buttons_[i];
        // Runs start a line of their own after the metrics.
        if (entries_[i].swatch && !metricsDone) {
            metricsDone = true;
            if (x > margin) {
                x = margin;
                y += lineHeight;
                lineHeight = 0;
            }
        }
        // The button's width for its full label (its text may be a shortened one).
        const QString& full = entries_[i].label;
        const QFontMetrics fm = b->fontMetrics();
        auto* lb = static_cast<LegendButton*>(b);
        const int chrome = b->sizeHint().width() - lb->labelWidth(b->text());
        QSize size(chrome + lb->labelWidth(full), b->sizeHint().height());
        const int room = std::max(40, width - 2 * margin);
        if (x > margin && x + size.width() > width - margin) {  // wrap
            x = margin;
            y += lineHeight;
            lineHeight = 0;
        }
        const bool shorten = size.width() > room;  // the one case that cuts a label
        if (shorten) size.setWidth(room);
        if (apply) {
            const QString shown =
                shorten ? fm.elidedText(full, Qt::ElideRight, std::max(10, room - chrome)) : full;
            if (b->text() != shown) b->setText(shown);
            lb->setShortened(shorten);  // a cut label is drawn as plain text
            b->setGeometry(QRect(QPoint(x, y), size));
        }
        x += size.width() + gap;
        lineHeight = std::max(lineHeight, size.height());
    }
    return buttons_.empty() ? 0 : y + lineHeight + 2;
}

void LegendBar::setEntries(const std::vector<LegendEntry>& entries) {
    if (entries.size() == entries_.size() &&
        std::equal(entries.begin(), entries.end(), entries_.begin(), sameLegendEntry))
        return;
    entries_ = entries;
    for (QToolButton* b : buttons_) {
        // Later: the clicked button itself may be the one being replaced.
        b->setObjectName(QString());
        b->hide();
        b->deleteLater();
    }
    buttons_.clear();
    for (const LegendEntry& e : entries_) {
        auto* b = new LegendButton(this);
        b->setObjectName(QStringLiteral("legend:") +
                         (e.key.startsWith(QStringLiteral("m:")) ? e.key.mid(2) : e.label));
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setIcon(sample(e, devicePixelRatioF()));
        b->setIconSize(QSize(26, 12));
        b->setText(e.label);
        QFont f = font();
        f.setStrikeOut(e.hidden);
        b->setFont(f);
        if (e.notation)
            if (const QString html = subscriptHtml(e.label); !html.isEmpty())
                b->setRich(e.hidden ? QStringLiteral("<s>") + html + QStringLiteral("</s>") : html);
        QString tip = e.hidden ? tr("Show %1").arg(e.label) : tr("Hide %1").arg(e.label);
        if (!e.tip.isEmpty()) tip = QStringLiteral("%1\n%2").arg(e.tip, tip);
        if (e.key.startsWith(QStringLiteral("note:"))) tip = e.tip;  // explains, hides nothing
        b->setToolTip(tip);
        const QString key = e.key;
        connect(b, &QToolButton::clicked, this, [this, key] { emit toggled(key); });
        b->show();
        buttons_.push_back(b);
    }
    updateGeometry();
    flow(width(), true);
}

}  // namespace ade::ui
