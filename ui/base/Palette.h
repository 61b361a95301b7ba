#pragma once
// Run colours and line styles. Twelve colours: eight chosen for colour-vision deficiencies
// (Okabe & Ito's blue, vermillion and bluish green, with darker purple, ochre, violet and grey in
// place of their yellow, orange and sky blue) and four more hues (forest green, crimson, magenta,
// maroon), each with a contrast of at least 3:1 against white (WCAG 2), so a curve stays visible
// on a white chart and in print. After the twelve, a run gets a darker or lighter shade of the
// same hue (never a colour already given) plus a second cue, a line style (runPenStyle; the
// exported figures add a marker shape, runMarker), so runs stay apart in grey-scale too.
#include <QColor>

namespace ade::ui {

int paletteSize();                     // 12 base colours
QColor paletteColor(int index);        // distinct for 0 .. 3 * paletteSize() - 1, then cycles
// Presentation mode's palette: the same hues, each (and each shade) with a contrast of at least
// 4.5:1 against white, for projectors that wash light colours out.
QColor projectorColor(int index);
QColor seriesColor(int index, bool projector);  // projectorColor or paletteColor
Qt::PenStyle paletteStyle(int index);  // metrics: solid, dash, dot, dash-dot, dash-dot-dot

// The second cue of run `index` (its colour index): solid line and square for the first twelve
// runs, then dash / circle, dot / triangle, ...
Qt::PenStyle runPenStyle(int index);
enum class RunMarker { Square, Circle, Triangle, Diamond };
RunMarker runMarker(int index);

// WCAG 2 contrast ratio of two colours (1 to 21), from their relative luminances.
double relativeLuminance(const QColor& c);
double contrastRatio(const QColor& a, const QColor& b);

}  // namespace ade::ui
