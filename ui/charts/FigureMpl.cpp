#include "charts/FigureMpl.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

#include <cmath>
#include <string>

#include "charts/FigureRenderer.h"
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

bool mplWrite(const QString& path, const QString& text, QString* error) {
    std::string err;
    if (ade::writeFileAtomic(path.toStdString(), text.toStdString(), &err)) return true;
    if (error) *error = QString::fromStdString(err);
    return false;
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
            QString sub;
            if (plain[i + 1] == '{' && plain.indexOf('}', i + 2) > 0) {
                const qsizetype close = plain.indexOf('}', i + 2);
                sub = plain.mid(i + 2, close - i - 2);
                i = close;
            } else {
                sub = plain.mid(i + 1, 1);
                ++i;
            }
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
    int n = 0;
    for (const FigureCurve& c : d.curves) {
        for (std::size_t i = 0; i < c.x.size(); ++i)
            csv += QStringLiteral("%1,%2,%3,%4,%5\n")
                       .arg(QString::number(n), csvNumber(c.x[i]), csvNumber(i < c.y.size() ? c.y[i] : NAN),
                            c.lo.empty() ? QString() : csvNumber(c.lo[i]),
                            c.hi.empty() ? QString() : csvNumber(c.hi[i]));
        static const char* markers[] = {"s", "o", "^", "D"};
        curves += QStringLiteral("    dict(label=%1, color=\"%2\", linestyle=%3, marker=%4, band=%5, faint=%6, width=%7),\n")
                      .arg(c.legend ? pyString(mplLabel(c)) : QStringLiteral("None"), c.color.name(),
                           lineStyle(c.faint ? Qt::SolidLine : c.style),
                           c.marker >= 0 && c.marker < 4 ? QStringLiteral("\"%1\"").arg(QLatin1String(markers[c.marker]))
                                                         : QStringLiteral("None"),
                           !c.lo.empty() && !c.faint ? QStringLiteral("True") : QStringLiteral("False"),
                           c.faint ? QStringLiteral("True") : QStringLiteral("False"),
                           QString::number(c.width));
        ++n;
    }
    std::string err;
    if (!ade::writeFileAtomic(info.absoluteDir().filePath(stem + ".csv").toStdString(), csv.toStdString(), &err)) {
        if (error) *error = QString::fromStdString(err);
        return false;
    }
    // The figure's size in inches: the width asked for in cm, else the pixel size at 100 dpi.
    const double aspect = double(o.size.height()) / std::max(1, o.size.width());
    const double widthIn = o.widthCm > 0 ? o.widthCm / 2.54 : o.size.width() / 100.0;
    const double fontPt = o.fontPt > 0 ? o.fontPt : (o.widthCm > 0 ? 8 : 12);
    QString legend = QStringLiteral("None");
    if (o.legend & Qt::AlignRight) legend = QStringLiteral("dict(loc=\"upper left\", bbox_to_anchor=(1.02, 1))");
    else if (o.legend & Qt::AlignLeft) legend = QStringLiteral("dict(loc=\"upper right\", bbox_to_anchor=(-0.15, 1))");
    else if (o.legend & Qt::AlignTop) legend = QStringLiteral("dict(loc=\"lower center\", bbox_to_anchor=(0.5, 1.08))");
    else if (o.legend & Qt::AlignBottom) legend = QStringLiteral("dict(loc=\"upper center\", bbox_to_anchor=(0.5, -0.18))");
    const double y0 = d.symLogY ? std::copysign(std::pow(10, std::abs(d.y0)) - 1, d.y0) : d.y0;
    const double y1 = d.symLogY ? std::copysign(std::pow(10, std::abs(d.y1)) - 1, d.y1) : d.y1;

    QString s;
    s += QStringLiteral("#!/usr/bin/env python3\n");
    s += QStringLiteral("# %1: the figure as a matplotlib script, written by Attention Dynamics Explorer.\n").arg(d.title);
    for (const QString& line : o.metadata.split('\n', Qt::SkipEmptyParts))
        s += QStringLiteral("# ") + line + '\n';
    s += QStringLiteral(
        "# Its data, every record of each curve, is %1.csv beside it (curve, x, y, lo, hi; lo and hi:\n"
        "# the band over seeds). Restyle anything below.\n"
        "# Usage: python3 %1.py [OUT.pdf|OUT.png|OUT.svg]   (default: %1_mpl.pdf beside this file)\n"
        "import csv\nimport os\nimport sys\n\nimport matplotlib\n\n"
        "if \"--show\" not in sys.argv:\n    matplotlib.use(\"Agg\")\n"
        "import matplotlib.pyplot as plt  # noqa: E402\n\n"
        "HERE = os.path.dirname(os.path.abspath(__file__))\n"
        "DATA = os.path.join(HERE, \"%1.csv\")\n").arg(stem);
    s += QStringLiteral("TITLE = %1\nXLABEL = %2\nYLABEL = %3\n").arg(pyString(mplText(d.title)), pyString(mplText(d.xLabel)), pyString(mplText(d.yLabel)));
    s += QStringLiteral("XSCALE = \"%1\"\nYSCALE = \"%2\"\n")
             .arg(d.logX ? "log" : "linear", d.logY ? "log" : d.symLogY ? "symlog" : "linear");
    s += QStringLiteral("XLIM = (%1, %2)\nYLIM = (%3, %4)\n").arg(csvNumber(d.x0), csvNumber(d.x1), csvNumber(y0), csvNumber(y1));
    s += QStringLiteral("SIZE_IN = (%1, %2)\nFONT_PT = %3\nLINE_WIDTH = %4\nLEGEND = %5\n")
             .arg(widthIn, 0, 'f', 3).arg(widthIn * aspect, 0, 'f', 3).arg(fontPt).arg(o.widthCm > 0 ? 1.0 : 1.8).arg(legend);
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
        "        ax.legend(handles, labels, frameon=False, **LEGEND)\n"
        "    fig.savefig(out, dpi=200)\n"
        "    if \"--show\" in sys.argv:\n"
        "        plt.show()\n"
        "    print(\"wrote\", out)\n\n\n"
        "if __name__ == \"__main__\":\n"
        "    main()\n").arg(stem);
    return mplWrite(path, s, error);
}

}  // namespace ade::ui
