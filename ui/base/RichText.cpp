#include "base/RichText.h"

namespace ade::ui {

QString subscriptHtml(const QString& plain) {
    if (!plain.contains(QLatin1Char('_'))) return {};
    QString out;
    bool any = false;
    for (qsizetype i = 0; i < plain.size(); ++i) {
        const QChar c = plain[i];
        // A subscript follows a symbol, never a space or the start ("_" alone stays itself).
        if (c == QLatin1Char('_') && i > 0 && !plain[i - 1].isSpace() && i + 1 < plain.size() &&
            !plain[i + 1].isSpace()) {
            QString sub;
            if (plain[i + 1] == QLatin1Char('{')) {
                const qsizetype close = plain.indexOf(QLatin1Char('}'), i + 2);
                if (close < 0) {
                    out += QStringLiteral("_");
                    continue;
                }
                sub = plain.mid(i + 2, close - i - 2);
                i = close;
            } else {
                sub = plain.mid(i + 1, 1);
                ++i;
            }
            out += QStringLiteral("<sub>") + sub.toHtmlEscaped() + QStringLiteral("</sub>");
            any = true;
            continue;
        }
        out += QString(c).toHtmlEscaped();
    }
    return any ? out : QString();
}

QString richLabel(const QString& plain) {
    const QString html = subscriptHtml(plain);
    return html.isEmpty() ? plain.toHtmlEscaped() : html;
}

}  // namespace ade::ui
