#include "Palette.h"

namespace ade::ui {

QColor paletteColor(int index) {
    static const QColor colors[] = {
        QColor(0x00, 0x72, 0xB2),  // blue
        QColor(0xE6, 0x9F, 0x00),  // orange
        QColor(0x00, 0x9E, 0x73),  // bluish green
        QColor(0xCC, 0x79, 0xA7),  // reddish purple
        QColor(0xD5, 0x5E, 0x00),  // vermillion
        QColor(0x56, 0xB4, 0xE9),  // sky blue
        QColor(0xF0, 0xE4, 0x42),  // yellow (weak on white: used late)
        QColor(0x00, 0x00, 0x00),  // black
    };
    const int n = static_cast<int>(sizeof(colors) / sizeof(colors[0]));
    return colors[((index % n) + n) % n];
}

Qt::PenStyle paletteStyle(int index) {
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                          Qt::DashDotDotLine};
    const int n = static_cast<int>(sizeof(styles) / sizeof(styles[0]));
    return styles[((index % n) + n) % n];
}

}  // namespace ade::ui
