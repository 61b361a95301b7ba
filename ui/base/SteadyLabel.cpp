#include "base/SteadyLabel.h"

#include <QLabel>

#include <algorithm>

namespace ade::ui {

void setSteadyText(QLabel* label, const QString& text) {
    if (label->text() == text) return;
    label->setText(text);
    const QSize hint = label->sizeHint();
    const bool fixed = label->minimumSize() == label->maximumSize();
    const QSize was = fixed ? label->minimumSize() : QSize(0, 0);
    const QSize want(std::max(was.width(), hint.width()), std::max(was.height(), hint.height()));
    if (!fixed || want != was) label->setFixedSize(want);
}

}  // namespace ade::ui
