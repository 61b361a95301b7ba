#pragma once
// The papers' notation on screen: a metric's label is written as in the papers' plain-text
// form, "‖W_Q‖_F" or "L_n(θ)", and drawn with real subscripts ("‖W<sub>Q</sub>‖<sub>F</sub>").
// An underscore takes the next character, or a braced group ("x_{ij}"), as its subscript.
#include <QString>

namespace ade::ui {

// `plain` as HTML with <sub> for each "_x" / "_{...}"; "" when it has no subscript (then the
// plain text is what to show).
QString subscriptHtml(const QString& plain);
// As subscriptHtml, but the plain text escaped when it has no subscript: always HTML.
QString richLabel(const QString& plain);

}  // namespace ade::ui
