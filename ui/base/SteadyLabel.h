#pragma once
// Text that changes many times a second (an iteration count, a rate, a claim's number) without
// laying the window out again. A label's new text asks its parents' layouts to run
// (QWidget::updateGeometry), and a layout that runs re-measures every word-wrapped label of the
// window: at 30 frames a second that was a third of the GUI thread's time. A widget of fixed
// size asks nothing, so a steady label keeps a fixed size that only grows: to the widest text it
// has shown (then its parents are asked once), never shrinking while its text flickers.
#include <QString>

class QLabel;

namespace ade::ui {

// Sets `text` on `label` (nothing when it is already shown) and keeps the label's fixed size at
// least its size hint: the window is laid out again only when the text needs more room than
// any text the label has shown before.
void setSteadyText(QLabel* label, const QString& text);

}  // namespace ade::ui
