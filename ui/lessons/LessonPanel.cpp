#include "lessons/LessonPanel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QEvent>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>

#include <algorithm>
#include <QVBoxLayout>

namespace ade::ui {

LessonPanel::LessonPanel(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("lessonPanel"));
    setFrameShape(QFrame::NoFrame);
    setAutoFillBackground(true);
    // A pale band under the white charts: the caption reads as a slide's text, not as a chart.
    QPalette pal = palette();
    pal.setColor(QPalette::Window, QColor(0xf2, 0xf4, 0xf8));
    pal.setColor(QPalette::WindowText, QColor(0x10, 0x10, 0x10));
    setPalette(pal);

    position_ = new QLabel(this);
    position_->setObjectName(QStringLiteral("lessonPosition"));
    position_->setStyleSheet(QStringLiteral("color: #404650;"));
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("lessonTitle"));
    title_->setWordWrap(true);
    caption_ = new QLabel(this);
    caption_->setObjectName(QStringLiteral("lessonCaption"));
    caption_->setWordWrap(true);
    caption_->setTextFormat(Qt::PlainText);
    caption_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    captionScroll_ = new QScrollArea(this);
    captionScroll_->setObjectName(QStringLiteral("lessonCaptionScroll"));
    captionScroll_->setWidget(caption_);
    captionScroll_->setWidgetResizable(true);
    captionScroll_->setFrameShape(QFrame::NoFrame);
    captionScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    captionScroll_->viewport()->setAutoFillBackground(false);
    caption_->setAutoFillBackground(false);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("lessonStatus"));
    status_->setStyleSheet(QStringLiteral("color: #7a2e00;"));  // 8:1 on the band
    status_->setWordWrap(true);
    status_->hide();

    back_ = new QPushButton(tr("◀ Back"), this);
    back_->setObjectName(QStringLiteral("lessonBack"));
    back_->setToolTip(tr("The previous step (Page Up, or ← when no field has the focus)"));
    next_ = new QPushButton(tr("Next ▶"), this);
    next_->setObjectName(QStringLiteral("lessonNext"));
    next_->setToolTip(tr("The next step (Page Down, as a presentation clicker sends, or → "
                         "when no field has the focus)"));
    leave_ = new QPushButton(tr("Leave lesson"), this);
    leave_->setObjectName(QStringLiteral("lessonLeave"));
    leave_->setToolTip(tr("End the lesson (Esc); the runs and the charts stay"));
    for (QPushButton* b : {back_, next_, leave_})
        b->setFocusPolicy(Qt::NoFocus);  // the keys stay with the window (clicker, arrows)
    connect(back_, &QPushButton::clicked, this, &LessonPanel::backClicked);
    connect(next_, &QPushButton::clicked, this, &LessonPanel::nextClicked);
    connect(leave_, &QPushButton::clicked, this, &LessonPanel::leaveClicked);

    auto* top = new QHBoxLayout;
    top->addWidget(position_, 1);
    top->addWidget(back_);
    top->addWidget(next_);
    top->addWidget(leave_);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(16, 8, 16, 10);
    lay->setSpacing(4);
    lay->addLayout(top);
    lay->addWidget(title_);
    lay->addWidget(captionScroll_);
    lay->addWidget(status_);
    applyFonts();
    if (parent) parent->installEventFilter(this);  // the window's height caps the caption's
    captionScroll_->installEventFilter(this);      // and its width sets the lines it needs
    hide();
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize) fitCaption();
    return QFrame::eventFilter(watched, event);
}

void LessonPanel::fitCaption() {
    const int width = std::max(100, captionScroll_->width() - captionScroll_->verticalScrollBar()->sizeHint().width());
    const int whole = caption_->text().isEmpty() ? 0 : std::max(0, caption_->heightForWidth(width));
    const int line = caption_->fontMetrics().lineSpacing();
    const int windowHeight = window() ? window()->height() : 768;
    const int h = std::clamp(whole, std::min(whole, 2 * line), std::max(2 * line, windowHeight / 5));
    if (captionScroll_->minimumHeight() != h || captionScroll_->maximumHeight() != h)
        captionScroll_->setFixedHeight(h);
}

void LessonPanel::showStep(const QString& lesson, int index, int count, const QString& title,
                           const QString& caption) {
    position_->setText(tr("%1 · step %2 of %3").arg(lesson).arg(index + 1).arg(count));
    title_->setText(title);
    caption_->setText(caption);
    fitCaption();
    back_->setEnabled(index > 0);
    next_->setEnabled(index + 1 < count);
}

void LessonPanel::setStatus(const QString& text) {
    status_->setText(text);
    status_->setVisible(!text.isEmpty());
}

void LessonPanel::setLarge(bool on) {
    if (on == large_) return;
    large_ = on;
    applyFonts();
}

void LessonPanel::applyFonts() {
    // Relative to the window's font, as presentation mode's charts are (1.5x there).
    const QFont base = parentWidget() ? parentWidget()->font() : font();
    const double scale = large_ ? 1.5 : 1.1;
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * (large_ ? 1.1 : 1.0));
    position_->setFont(f);
    for (QPushButton* b : {back_, next_, leave_})
        b->setFont(f);
    QFont t = base;
    t.setPointSizeF(base.pointSizeF() * scale * 1.25);
    t.setBold(true);
    title_->setFont(t);
    QFont c = base;
    c.setPointSizeF(base.pointSizeF() * scale);
    caption_->setFont(c);
    status_->setFont(c);
    fitCaption();
}

QString LessonPanel::title() const {
    return title_->text();
}
QString LessonPanel::caption() const {
    return caption_->text();
}
QString LessonPanel::status() const {
    return status_->isVisibleTo(this) ? status_->text() : QString();
}
QString LessonPanel::position() const {
    return position_->text();
}

}  // namespace ade::ui
