#include "charts/FigureMpl.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

#include <cmath>
#include <string>

#include "charts/FigureRenderer.h"
#include "charts/FigureText.h"
#include "io/Files.h"

namespace ade::ui {

namespace {

QString csvNumber(double v) {
    return std::isfinite(v) ? QString::number(v, 'g', 17) : QString();
}

QString lineStyle(Qt::PenStyle s) {
    switch (s) {
        case Qt::DashLine: return QStringLiteral("\"--\"");
        case Qt::DotLine: return QStringLiteral("\":\"");
        case Qt::DashDotLine: return QStringLiteral("\"-.\"");
        case Qt::DashDotDotLine: return QStringLiteral("(0, (6, 2, 1.5, 2, 1.5, 2))");
        default: return QStringLiteral("\"-\"");
    }
}

// Mathtext knows these by name; a Greek letter inside a subscript is written so.
QString mathChar(QChar c) {
    static const char16_t* from = u"αβγδεηθκλμνπρστφχψωΣΔΘΛΠΦΨΩ";
    static const char* names[] = {"alpha", "beta",  "gamma", "delta", "epsilon", "eta",   "theta",
                                  "kappa", "lambda", "mu",   "nu",    "pi",      "rho",   "sigma",
                                  "tau",   "phi",   "chi",   "psi",   "omega",   "Sigma", "Delta",
                                  "Theta", "Lambda", "Pi",   "Phi",   "Psi",     "Omega"};
    for (int i = 0; from[i]; ++i)
        if (from[i] == c.unicode()) return QStringLiteral("\\") + QString::fromLatin1(names[i]) + ' ';
    if (c == '$') return QStringLiteral("\\$");
    if (c.unicode() < 128 && (c.isLetterOrNumber() || QStringLiteral("+-*/=().,").contains(c))) return QString(c);
    if (c == QChar(0x2212)) return QStringLiteral("-");
    return QStringLiteral("?");
}

}  // namespace

QString pyString(const QString& s) {
    QString out = QStringLiteral("\"");
    for (QChar c : s) {
        if (c == '\\' || c == '"')
            out += '\\', out += c;
        else if (c == '\n')
            out += QStringLiteral("\\n");
        else
            out += c;
    }
    return out + '"';
}

QString mplText(const QString& plain) {
    QString out;
    for (qsizetype i = 0; i < plain.size(); ++i) {
        const QChar c = plain[i];
        if (c == '_' && i + 1 < plain.size()) {
            const QString sub = scriptText(plain, i, false);
            QString m;
            for (QChar s : sub)
                m += mathChar(s);
            out += QStringLiteral("$_{") + m.trimmed() + QStringLiteral("}$");
            continue;
        }
        out += c == '$' ? QStringLiteral("\\$") : QString(c);
    }
    return out;
}

QString mplLabel(const FigureCurve& c) {
    QString run = c.run;
    run.replace('$', QStringLiteral("\\$"));
    return c.notation.isEmpty() ? run : run + QStringLiteral(" · ") + mplText(c.notation);
}

bool writeMplFigure(const FigureData& d, const FigureOptions& o, const QString& path,
                    QString* error) {
    const QFileInfo info(path);
    const QString stem = info.completeBaseName();
    QString csv = QStringLiteral("curve,x,y,lo,hi\n");
    QString curves;
    forEachCurve(d, [&](const CurveDraw& k) {
        const FigureCurve& c = k.curve;
        const QString n = QString::number(k.n - 1);
        forEachPoint(c, [&](double x, double y, double lo, double hi) {
            csv += QStringLiteral("%1,%2,%3,%4,%5\n").arg(n, csvNumber(x), csvNumber(y), csvNumber(lo), csvNumber(hi));
        });
        static const char* markers[] = {"s", "o", "^", "D"};
        curves += QStringLiteral("    dict(label=%1, color=\"%2\", linestyle=%3, marker=%4, band=%5, faint=%6, width=%7),\n")
                      .arg(k.legend ? pyString(mplLabel(c)) : QStringLiteral("None"), c.color.name(),
                           lineStyle(c.faint ? Qt::SolidLine : c.style),
                           c.marker >= 0 && c.marker < 4 ? QStringLiteral("\"%1\"").arg(QLatin1String(markers[c.marker]))
                                                         : QStringLiteral("None"),
                           k.band ? QStringLiteral("True") : QStringLiteral("False"),
                           c.faint ? QStringLiteral("True") : QStringLiteral("False"),
                           QString::number(c.width));
        return true;
    });
    if (!writeFigureText(info.absoluteDir().filePath(stem + ".csv"), csv, error)) return false;
    QString legend = QStringLiteral("None");
    if (o.legend & Qt::AlignRight) legend = QStringLiteral("dict(loc=\"upper left\", bbox_to_anchor=(1.02, 1))");
    else if (o.legend & Qt::AlignLeft) legend = QStringLiteral("dict(loc=\"upper right\", bbox_to_anchor=(-0.15, 1))");
    else if (o.legend & Qt::AlignTop) legend = QStringLiteral("dict(loc=\"lower center\", bbox_to_anchor=(0.5, 1.08))");
    else if (o.legend & Qt::AlignBottom) legend = QStringLiteral("dict(loc=\"upper center\", bbox_to_anchor=(0.5, -0.18))");

    QString s = mplScriptStart(
        d.title, o.metadata,
        QStringLiteral("# Its data, every record of each curve, is %1.csv beside it (curve, x, y, lo, hi; lo and hi:\n"
                       "# the band over seeds). Restyle anything below.\n").arg(stem),
        stem, QString());
    s += QStringLiteral("TITLE = %1\nXLABEL = %2\nYLABEL = %3\n").arg(pyString(mplText(d.title)), pyString(mplText(d.xLabel)), pyString(mplText(d.yLabel)));
    s += QStringLiteral("XSCALE = \"%1\"\nYSCALE = \"%2\"\n")
             .arg(d.logX ? "log" : "linear", d.logY ? "log" : d.symLogY ? "symlog" : "linear");
    s += QStringLiteral("XLIM = (%1, %2)\nYLIM = (%3, %4)\n")
             .arg(csvNumber(d.x0), csvNumber(d.x1), csvNumber(shownY(d, d.y0)), csvNumber(shownY(d, d.y1)));
    s += mplSizeLines(o);
    s += QStringLiteral("LINE_WIDTH = %1\nLEGEND = %2\n").arg(o.widthCm > 0 ? 1.0 : 1.8).arg(legend);
    if (d.bands)
        s += QStringLiteral("BAND_NOTE = %1\n").arg(pyString(d.bandNote.isEmpty() ? QObject::tr("lines: mean over seeds; bands: min–max") : d.bandNote));
    else
        s += QStringLiteral("BAND_NOTE = None\n");
    {
        QStringList at, labels;
        for (const Tick& t : d.xTicks) {
            at << csvNumber(t.value);
            labels << pyString(mplText(t.text));
        }
        s += QStringLiteral("XTICKS = %1\nXTICKLABELS = [%2]\n")
                 .arg(d.xTicks.empty() ? QStringLiteral("None") : '[' + at.join(QStringLiteral(", ")) + ']',
                      labels.join(QStringLiteral(", ")));
    }
    s += QStringLiteral("CURVES = [\n") + curves + QStringLiteral("]\n\n");
    s += QStringLiteral(
        "\ndef read(path):\n"
        "    \"\"\"Per curve: lists x, y, lo, hi (None where a value is missing).\"\"\"\n"
        "    data = [dict(x=[], y=[], lo=[], hi=[]) for _ in CURVES]\n"
        "    with open(path, newline=\"\", encoding=\"utf-8\") as f:\n"
        "        for row in csv.DictReader(f):\n"
        "            d = data[int(row[\"curve\"])]\n"
        "            for k in (\"x\", \"y\", \"lo\", \"hi\"):\n"
        "                d[k].append(float(row[k]) if row[k] else float(\"nan\"))\n"
        "    return data\n\n\n"
        "def main():\n"
        "    out = next((a for a in sys.argv[1:] if not a.startswith(\"--\")),\n"
        "               os.path.join(HERE, \"%1_mpl.pdf\"))\n"
        "    plt.rcParams.update({\"font.size\": FONT_PT, \"axes.titlesize\": FONT_PT * 1.15,\n"
        "                         \"legend.fontsize\": FONT_PT * 0.85})\n"
        "    fig, ax = plt.subplots(figsize=SIZE_IN, layout=\"constrained\")\n"
        "    data = read(DATA)\n"
        "    for c, d in zip(CURVES, data):\n"
        "        if c[\"band\"]:\n"
        "            ax.fill_between(d[\"x\"], d[\"lo\"], d[\"hi\"], color=c[\"color\"], alpha=0.22,\n"
        "                            linewidth=0)\n"
        "    for c, d in zip(CURVES, data):\n"
        "        ax.plot(d[\"x\"], d[\"y\"], color=c[\"color\"], linestyle=c[\"linestyle\"],\n"
        "                linewidth=LINE_WIDTH * (0.6 if c[\"faint\"] else c[\"width\"]),\n"
        "                alpha=0.25 if c[\"faint\"] else 1, marker=c[\"marker\"],\n"
        "                markevery=max(1, len(d[\"x\"]) // 10),\n"
        "                label=None if c[\"faint\"] else c[\"label\"])\n"
        "    ax.set_xscale(XSCALE)\n"
        "    if YSCALE == \"symlog\":\n"
        "        ax.set_yscale(\"symlog\", linthresh=1)\n"
        "    else:\n"
        "        ax.set_yscale(YSCALE)\n"
        "    ax.set_xlim(*XLIM)\n"
        "    if XTICKS is not None:\n"
        "        ax.set_xticks(XTICKS, XTICKLABELS)\n"
        "    ax.set_ylim(*YLIM)\n"
        "    ax.set_title(TITLE)\n"
        "    ax.set_xlabel(XLABEL)\n"
        "    ax.set_ylabel(YLABEL)\n"
        "    ax.grid(True, which=\"major\", color=\"0.9\")\n"
        "    if LEGEND is not None:\n"
        "        handles, labels = ax.get_legend_handles_labels()\n"
        "        if BAND_NOTE:\n"
        "            handles.append(plt.Line2D([], [], linestyle=\"none\"))\n"
        "            labels.append(BAND_NOTE)\n"
        "        ax.legend(handles, labels, frameon=False, **LEGEND)\n").arg(stem);
    s += mplScriptEnd();
    return writeFigureText(path, s, error);
}

}  // namespace ade::ui
