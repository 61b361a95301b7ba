#include "charts/FigureText.h"

#include <algorithm>
#include <cmath>

#include "charts/FigureRenderer.h"
#include "io/Files.h"

#include <string>

namespace ade::ui {

bool forEachCurve(const FigureData& d, const std::function<bool(const CurveDraw&)>& f) {
    int n = 0;
    for (const FigureCurve& c : d.curves)
        if (!f({++n, c, !c.lo.empty() && !c.faint, !c.faint && c.legend})) return false;
    return true;
}

void forEachPoint(const FigureCurve& c, const std::function<void(double, double, double, double)>& f) {
    for (std::size_t i = 0; i < c.x.size(); ++i)
        f(c.x[i], i < c.y.size() ? c.y[i] : NAN, i < c.lo.size() ? c.lo[i] : NAN,
          i < c.hi.size() ? c.hi[i] : NAN);
}

bool writeFigureText(const QString& path, const QString& text, QString* error) {
    std::string err;
    if (ade::writeFileAtomic(path.toStdString(), text.toStdString(), &err)) return true;
    if (error) *error = QString::fromStdString(err);
    return false;
}

double shownY(const FigureData& d, double y) {
    return d.symLogY ? std::copysign(std::pow(10, std::abs(y)) - 1, y) : y;
}

QString figureHeading(const QString& comment, const QString& title, const QString& what,
                      const QString& metadata) {
    QString s = QStringLiteral("%1 %2: %3, written by Attention Dynamics Explorer.\n").arg(comment, title, what);
    for (const QString& line : metadata.split('\n', Qt::SkipEmptyParts))
        s += comment + ' ' + line + '\n';
    return s;
}

QString mplScriptStart(const QString& title, const QString& metadata, const QString& dataNote,
                       const QString& stem, const QString& imports) {
    QString s = QStringLiteral("#!/usr/bin/env python3\n");
    s += figureHeading(QStringLiteral("#"), title, QStringLiteral("the figure as a matplotlib script"), metadata);
    s += dataNote;
    s += QStringLiteral(
        "# Usage: python3 %1.py [OUT.pdf|OUT.png|OUT.svg]   (default: %1_mpl.pdf beside this file)\n"
        "import csv\nimport os\nimport sys\n\nimport matplotlib\n\n"
        "if \"--show\" not in sys.argv:\n    matplotlib.use(\"Agg\")\n"
        "import matplotlib.pyplot as plt  # noqa: E402\n").arg(stem);
    s += imports;
    s += QStringLiteral("\nHERE = os.path.dirname(os.path.abspath(__file__))\n"
                        "DATA = os.path.join(HERE, \"%1.csv\")\n").arg(stem);
    return s;
}

QString mplScriptEnd() {
    return QStringLiteral(
        "    # \"tight\": a legend below or beside the plot and long labels stay on the page.\n"
        "    fig.savefig(out, dpi=200, bbox_inches=\"tight\")\n"
        "    if \"--show\" in sys.argv:\n"
        "        plt.show()\n"
        "    print(\"wrote\", out)\n\n\n"
        "if __name__ == \"__main__\":\n"
        "    main()\n");
}

QString mplSizeLines(const FigureOptions& o) {
    const double aspect = double(o.size.height()) / std::max(1, o.size.width());
    const double widthIn = o.widthCm > 0 ? o.widthCm / 2.54 : o.size.width() / 100.0;
    const double fontPt = o.fontPt > 0 ? o.fontPt : (o.widthCm > 0 ? 8 : 12);
    return QStringLiteral("SIZE_IN = (%1, %2)\nFONT_PT = %3\n")
        .arg(widthIn, 0, 'f', 3).arg(widthIn * aspect, 0, 'f', 3).arg(fontPt);
}

QString pgfTypeSize(QString tex, const FigureOptions& o) {
    if (!(o.fontPt > 0)) return tex;
    auto size = [&o](double relative) {
        const double pt = o.fontPt * relative;
        return QStringLiteral("\\fontsize{%1}{%2}\\selectfont").arg(pt, 0, 'g', 3).arg(pt * 1.2, 0, 'g', 3);
    };
    // The sizes the writers name, relative to the document's 10 pt: tick labels and legends
    // (\footnotesize, 8 pt), categories (\scriptsize, 7 pt), panels' titles (\small, 9 pt).
    tex.replace(QStringLiteral("\\footnotesize"), size(0.8));
    tex.replace(QStringLiteral("\\scriptsize"), size(0.7));
    tex.replace(QStringLiteral("\\small"), size(0.9));
    tex.replace(QStringLiteral("\\begin{tikzpicture}\n"),
                QStringLiteral("\\begin{tikzpicture}[font=%1]\n").arg(size(1.0)));
    tex.replace(QStringLiteral("% Fonts are the document's"),
                QStringLiteral("% Fonts are the document's, at %1 pt (the export's type size)").arg(o.fontPt));
    tex.replace(QStringLiteral("Fonts are the document's.\n"),
                QStringLiteral("Fonts are the document's, at %1 pt.\n").arg(o.fontPt));
    return tex;
}

QString scriptText(const QString& plain, qsizetype& i, bool word) {
    if (plain[i + 1] == '{') {
        const qsizetype close = plain.indexOf('}', i + 2);
        if (close > 0) {
            const QString group = plain.mid(i + 2, close - i - 2);
            i = close;
            return group;
        }
    }
    qsizetype j = i + 2;  // a lone character
    if (word) {
        j = i + 1;
        if (plain[j] == QChar(0x2212) || plain[j] == '-') ++j;  // a sign, then a word
        while (j < plain.size() && plain[j].isLetterOrNumber()) ++j;
        if (j == i + 1) j = i + 2;
    }
    const QString text = plain.mid(i + 1, j - i - 1);
    i = j - 1;
    return text;
}

}  // namespace ade::ui
