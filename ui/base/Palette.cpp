#include "base/Palette.h"

#include <algorithm>
#include <cmath>

namespace ade::ui {

namespace {
// Contrast against white: 5.2, 3.9, 3.4, 4.6, 21, 5.6, 8.1, 4.3 (checked in tests/ui).
const QColor kBase[] = {
    QColor(0x00, 0x72, 0xB2),  // blue
    QColor(0xD5, 0x5E, 0x00),  // vermillion
    QColor(0x00, 0x9E, 0x73),  // bluish green
    QColor(0xC4, 0x45, 0x8F),  // reddish purple
    QColor(0x00, 0x00, 0x00),  // black
    QColor(0x7D, 0x66, 0x08),  // ochre
    QColor(0x5E, 0x3C, 0x99),  // violet
    QColor(0x7A, 0x7A, 0x7A),  // grey
    // Four more hues, so that twelve groups (a lesson's comparison, a sweep's points) each get
    // a colour of their own before any shade: at least 33 apart in CIE L*a*b* from the eight and
    // each other, contrast 4.4, 4.7, 4.6, 15.2.
    QColor(0x22, 0x8B, 0x22),  // forest green
    QColor(0xE6, 0x00, 0x4C),  // crimson
    QColor(0xC8, 0x00, 0xD9),  // magenta
    QColor(0x55, 0x00, 0x00),  // maroon
};
constexpr int kBlack = 4, kGrey = 7;  // the achromatic two get greys for shades
constexpr int kBaseCount = static_cast<int>(sizeof(kBase) / sizeof(kBase[0]));
// The projector palette: the same hues in the same order, darker where needed so that every
// colour keeps a WCAG contrast of at least 4.5:1 against the white plot (a projector washes
// light colours out): 5.2, 5.2, 5.4, 6.2, 21, 6.4, 8.1, 6.9; with their shades the 24 range
// from 4.9 to 21 (checked in tests/ui).
const QColor kProjector[] = {
    QColor(0x00, 0x72, 0xB2),  // blue
    QColor(0xB8, 0x4A, 0x00),  // vermillion
    QColor(0x00, 0x79, 0x5B),  // bluish green
    QColor(0xA8, 0x32, 0x7A),  // reddish purple
    QColor(0x00, 0x00, 0x00),  // black
    QColor(0x76, 0x5C, 0x00),  // ochre
    QColor(0x5E, 0x3C, 0x99),  // violet
    QColor(0x5A, 0x5A, 0x5A),  // grey
    QColor(0x21, 0x85, 0x21),  // forest green
    QColor(0xE6, 0x00, 0x4C),  // crimson
    QColor(0xC8, 0x00, 0xD9),  // magenta
    QColor(0x55, 0x00, 0x00),  // maroon
};
// Shades 1 and 2 of the projector's black and grey: six greys evenly apart in lightness, all
// dark enough for 4.5:1 (mixing as for the other hues would make two of them alike).
const QColor kProjectorGreys[2][2] = {{QColor(0x1C, 0x1C, 0x1C), QColor(0x2F, 0x2F, 0x2F)},
                                      {QColor(0x71, 0x71, 0x71), QColor(0x44, 0x44, 0x44)}};
static_assert(sizeof(kProjector) / sizeof(kProjector[0]) == sizeof(kBase) / sizeof(kBase[0]));
constexpr int kShades = 3;

int wrap(int i, int n) {
    return ((i % n) + n) % n;
}

QColor mix(const QColor& c, const QColor& towards, double t) {
    return QColor::fromRgbF(static_cast<float>(c.redF() + (towards.redF() - c.redF()) * t),
                            static_cast<float>(c.greenF() + (towards.greenF() - c.greenF()) * t),
                            static_cast<float>(c.blueF() + (towards.blueF() - c.blueF()) * t));
}

// Colour `index` of the palette `bases`: the base colours, then shades of them.
QColor shadeOf(const QColor* bases, int index) {
    const int i = wrap(index, kBaseCount * kShades);
    const QColor base = bases[i % kBaseCount];
    const int shade = i / kBaseCount;
    if (shade == 0) return base;
    // Darker shades keep (and raise) the contrast against white. The achromatic two get greys
    // between and beside them instead (contrast still >= 3.2), so no shade repeats another.
    if (base == QColor(Qt::black)) return mix(base, Qt::white, shade == 1 ? 0.12 : 0.24);
    if (i % kBaseCount == kGrey)
        return shade == 1 ? mix(base, Qt::white, 0.15) : mix(base, Qt::black, 0.25);
    return mix(base, Qt::black, shade == 1 ? 0.35 : 0.6);
}
}  // namespace

int paletteSize() {
    return kBaseCount;
}

QColor paletteColor(int index) {
    return shadeOf(kBase, index);
}

QColor projectorColor(int index) {
    const int i = wrap(index, kBaseCount * kShades);
    const int hue = i % kBaseCount, shade = i / kBaseCount;
    if (shade > 0 && (hue == kBlack || hue == kGrey))
        return kProjectorGreys[hue == kBlack ? 0 : 1][shade - 1];
    return shadeOf(kProjector, index);
}

QColor seriesColor(int index, bool projector) {
    return projector ? projectorColor(index) : paletteColor(index);
}

Qt::PenStyle paletteStyle(int index) {
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                          Qt::DashDotDotLine};
    const int n = static_cast<int>(sizeof(styles) / sizeof(styles[0]));
    return styles[wrap(index, n)];
}

Qt::PenStyle runPenStyle(int index) {
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                          Qt::DashDotLine};
    return styles[std::max(index, 0) / kBaseCount % 4];
}

RunMarker runMarker(int index) {
    static const RunMarker markers[] = {RunMarker::Square, RunMarker::Circle, RunMarker::Triangle,
                                        RunMarker::Diamond};
    return markers[std::max(index, 0) / kBaseCount % 4];
}

double relativeLuminance(const QColor& c) {
    auto lin = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const QColor rgb = c.toRgb();
    return 0.2126 * lin(rgb.redF()) + 0.7152 * lin(rgb.greenF()) + 0.0722 * lin(rgb.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace ade::ui
