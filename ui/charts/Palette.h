#pragma once
// Colour-blind-safe palette (Okabe & Ito, 2008) and distinct line styles, so curves stay
// distinguishable in grey-scale prints and for every common colour-vision deficiency.
#include <QColor>

namespace ade::ui {

QColor paletteColor(int index);        // cycles through the 8 Okabe-Ito colours (black last)
Qt::PenStyle paletteStyle(int index);  // solid, dash, dot, dash-dot, dash-dot-dot

}  // namespace ade::ui
