// Heatmaps as a matplotlib script: <name>.py with <name>.csv beside it (panel, row, col, x, y,
// value: every cell; a trajectory's points with row -1), redrawn with pcolormesh in the views'
// colour maps, a colour bar per panel, the panels in the view's rows.
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

#include "charts/FigureHeatmap.h"
#include "charts/FigureMpl.h"
#include "charts/FigureRenderer.h"

namespace ade::ui {

namespace {

QString csvCell(double v) {
    return std::isfinite(v) ? QString::number(v, 'g', 17) : QString();
}

QString pyList(const QStringList& items) {
    QStringList quoted;
    for (const QString& s : items)
        quoted << pyString(mplText(s));
    return '[' + quoted.join(QStringLiteral(", ")) + ']';
}

QString pyNumbers(const std::vector<double>& v) {
    QStringList out;
    for (double x : v)
        out << (std::isfinite(x) ? QString::number(x, 'g', 17) : QStringLiteral("float(\"nan\")"));
    return '[' + out.join(QStringLiteral(", ")) + ']';
}

QString stops(HeatmapColours c) {
    QStringList names;
    for (const QColor& q : heatmapStops(c))
        names << QStringLiteral("\"%1\"").arg(q.name());
    return '[' + names.join(QStringLiteral(", ")) + ']';
}

}  // namespace

bool writeMplHeatmaps(const HeatmapFigure& f, const FigureOptions& o, const QString& path,
                      QString* error) {
    const QFileInfo info(path);
    const QString stem = info.completeBaseName();
    QString csv = QStringLiteral("panel,row,col,x,y,value\n");
    QString panels;
    int n = 0;
    for (const HeatmapPanel& p : f.panels) {
        for (int r = 0; r < p.rows; ++r)
            for (int c = 0; c < p.cols; ++c)
                csv += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                           .arg(n).arg(r).arg(c)
                           .arg(csvCell(p.xs.empty() ? c + 1.0 : p.xs[c]), csvCell(p.ys.empty() ? r + 1.0 : p.ys[r]),
                                csvCell(p.at(r, c)));
        for (std::size_t i = 0; i < p.pathX.size() && i < p.pathY.size(); ++i)
            csv += QStringLiteral("%1,-1,%2,%3,%4,\n").arg(n).arg(i).arg(csvCell(p.pathX[i]), csvCell(p.pathY[i]));
        panels += QStringLiteral("    dict(title=%1, row=%2, rows=%3, cols=%4, xlabel=%5, ylabel=%6, ydown=%7,\n"
                                 "         cmap=\"%8\", lo=%9, hi=%10, log=%11, clabel=%12,\n")
                      .arg(pyString(mplText(p.title))).arg(p.row).arg(p.rows).arg(p.cols)
                      .arg(pyString(mplText(p.xLabel)), pyString(mplText(p.yLabel)),
                           p.yDown ? QStringLiteral("True") : QStringLiteral("False"),
                           heatmapColoursName(p.colours),
                           csvCell(p.lo), csvCell(p.hi), p.logColour ? QStringLiteral("True") : QStringLiteral("False"),
                           pyString(mplText(p.colourLabel)));
        // A log colour bar's ticks at round values (never "10^0.5"), as the PGFPlots figure's.
        std::vector<double> tickValues;
        QStringList tickTexts;
        for (const Tick& t : colourBarTicks(p, colourBarPoints(f, p, o))) {
            tickValues.push_back(std::pow(10.0, t.value));
            tickTexts << pyString(mathTickText(t.text));  // TeX math as it is (no mplText)
        }
        panels += QStringLiteral("         xcats=%1, ycats=%2, xs=%3, ys=%4, marker=%5,\n"
                                 "         cticks=%6, cticklabels=%7),\n")
                      .arg(pyList(p.xCategories), pyList(p.yCategories),
                           p.xs.empty() ? QStringLiteral("None") : pyNumbers(p.xs),
                           p.ys.empty() ? QStringLiteral("None") : pyNumbers(p.ys))
                      .arg(p.pathMarker)
                      .arg(pyNumbers(tickValues), '[' + tickTexts.join(QStringLiteral(", ")) + ']');
        ++n;
    }
    if (!writeFigureText(info.absoluteDir().filePath(stem + ".csv"), csv, error)) return false;

    QString s = mplScriptStart(
        f.title.isEmpty() ? f.id : f.title, o.metadata,
        QStringLiteral("# Its data is %1.csv beside it: panel, row, col, x, y, value (every cell; row -1: the\n"
                       "# points of a trajectory drawn over the map). Restyle anything below.\n").arg(stem),
        stem,
        QStringLiteral("import textwrap  # noqa: E402\n\n"
                       "import numpy as np  # noqa: E402\n"
                       "from matplotlib.colors import LinearSegmentedColormap, LogNorm, Normalize  # noqa: E402\n"));
    s += QStringLiteral("TITLE = %1\n").arg(f.title.isEmpty() ? QStringLiteral("None") : pyString(QString(f.title).replace('$', QStringLiteral("\\$"))));
    s += mplSizeLines(o);
    s += QStringLiteral("# The explorer's colour maps (ColorBrewer's PuOr and Blues, viridis).\nCMAPS = {\n");
    for (HeatmapColours c : {HeatmapColours::Diverging, HeatmapColours::Sequential, HeatmapColours::Viridis})
        s += QStringLiteral("    \"%1\": LinearSegmentedColormap.from_list(\"%1\", %2),\n")
                 .arg(heatmapColoursName(c), stops(c));
    s += QStringLiteral("}\n");
    s += QStringLiteral("PANELS = [\n") + panels + QStringLiteral("]\n\n");
    s += QStringLiteral(
        "\ndef read(path):\n"
        "    \"\"\"Per panel: its values as a rows x cols array (NaN: no value) and its path.\"\"\"\n"
        "    grids = [np.full((p[\"rows\"], p[\"cols\"]), np.nan) for p in PANELS]\n"
        "    paths = [([], []) for _ in PANELS]\n"
        "    with open(path, newline=\"\", encoding=\"utf-8\") as f:\n"
        "        for row in csv.DictReader(f):\n"
        "            k, r = int(row[\"panel\"]), int(row[\"row\"])\n"
        "            if r < 0:\n"
        "                paths[k][0].append(float(row[\"x\"]))\n"
        "                paths[k][1].append(float(row[\"y\"]))\n"
        "            elif row[\"value\"]:\n"
        "                grids[k][r, int(row[\"col\"])] = float(row[\"value\"])\n"
        "    return grids, paths\n\n\n"
        "def edges(centres, n):\n"
        "    \"\"\"Cell edges around the centres (1..n when there are none).\"\"\"\n"
        "    c = np.arange(1, n + 1, dtype=float) if centres is None else np.asarray(centres, float)\n"
        "    if len(c) < 2:\n"
        "        return np.array([c[0] - 0.5, c[0] + 0.5])\n"
        "    mid = (c[1:] + c[:-1]) / 2\n"
        "    return np.concatenate([[2 * c[0] - mid[0]], mid, [2 * c[-1] - mid[-1]]])\n\n\n"
        "def wrap(text, width):\n"
        "    \"\"\"Long titles and labels on several lines (a paper's column is narrow).\"\"\"\n"
        "    return \"\\n\".join(textwrap.wrap(text, max(12, width))) if text else text\n\n\n"
        "def main():\n"
        "    out = next((a for a in sys.argv[1:] if not a.startswith(\"--\")),\n"
        "               os.path.join(HERE, \"%1_mpl.pdf\"))\n"
        "    plt.rcParams.update({\"font.size\": FONT_PT, \"axes.titlesize\": FONT_PT * 1.1})\n"
        "    rows = max(p[\"row\"] for p in PANELS) + 1\n"
        "    cols = max(sum(1 for p in PANELS if p[\"row\"] == r) for r in range(rows))\n"
        "    fig, axes = plt.subplots(rows, cols, figsize=SIZE_IN, layout=\"constrained\", squeeze=False)\n"
        "    grids, paths = read(DATA)\n"
        "    used = set()\n"
        "    for p, grid, path in zip(PANELS, grids, paths):\n"
        "        col = sum(1 for q in used if q[0] == p[\"row\"])\n"
        "        used.add((p[\"row\"], col))\n"
        "        ax = axes[p[\"row\"]][col]\n"
        "        norm = LogNorm(p[\"lo\"], p[\"hi\"]) if p[\"log\"] else Normalize(p[\"lo\"], p[\"hi\"])\n"
        "        mesh = ax.pcolormesh(edges(p[\"xs\"], p[\"cols\"]), edges(p[\"ys\"], p[\"rows\"]),\n"
        "                             np.ma.masked_invalid(grid), cmap=CMAPS[p[\"cmap\"]], norm=norm)\n"
        "        if path[0]:\n"
        "            ax.plot(path[0], path[1], color=\"black\", linewidth=1)\n"
        "            if 0 <= p[\"marker\"] < len(path[0]):\n"
        "                ax.plot(path[0][p[\"marker\"]], path[1][p[\"marker\"]], \"o\", color=\"white\",\n"
        "                        markeredgecolor=\"black\")\n"
        "        if p[\"xcats\"]:\n"
        "            ax.set_xticks(range(1, len(p[\"xcats\"]) + 1), p[\"xcats\"], rotation=30, ha=\"right\")\n"
        "        if p[\"ycats\"]:\n"
        "            ax.set_yticks(range(1, len(p[\"ycats\"]) + 1), p[\"ycats\"])\n"
        "        if p[\"ydown\"]:\n"
        "            ax.invert_yaxis()\n"
        "        if p[\"xs\"] is None and p[\"ys\"] is None and not p[\"xcats\"]:\n"
        "            ax.set_aspect(\"equal\")\n"
        "        ax.set_title(wrap(p[\"title\"], 48 // cols))\n"
        "        ax.set_xlabel(wrap(p[\"xlabel\"], 40 // cols))\n"
        "        ax.set_ylabel(wrap(p[\"ylabel\"], 30))\n"
        "        bar = fig.colorbar(mesh, ax=ax, label=wrap(p[\"clabel\"], 24), shrink=0.9)\n"
        "        if p[\"cticks\"]:  # a log scale: round values only\n"
        "            bar.set_ticks(p[\"cticks\"], labels=p[\"cticklabels\"])\n"
        "            bar.minorticks_off()\n"
        "    for r in range(rows):\n"
        "        for c in range(cols):\n"
        "            if (r, c) not in used:\n"
        "                axes[r][c].axis(\"off\")\n"
        "    if TITLE:\n"
        "        fig.suptitle(wrap(TITLE, 60))\n").arg(stem);
    s += mplScriptEnd();
    return writeFigureText(path, s, error);
}

}  // namespace ade::ui
