#pragma once
// The inside panels' hover: on a tool-tip event, the text `textAt` gives for the pointer's
// place is shown beside it (an empty text hides the tip). Returns whether the event was one.
#include <QEvent>
#include <QHelpEvent>
#include <QToolTip>
#include <QWidget>

namespace ade::ui {

template <class TextAt>
bool showHoverText(QWidget* widget, QEvent* e, TextAt textAt) {
    if (e->type() != QEvent::ToolTip) return false;
    auto* he = static_cast<QHelpEvent*>(e);
    const QString text = textAt(he->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(he->globalPos(), text, widget);
    return true;
}

}  // namespace ade::ui
