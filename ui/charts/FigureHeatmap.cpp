#include "charts/FigureHeatmap.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "base/ColorMaps.h"
#include "base/FigureFile.h"
#include "charts/FigureMpl.h"
#include "charts/FigurePgf.h"
#include "charts/FigureRenderer.h"
#include "io/Files.h"

namespace ade::ui {

int HeatmapFigure::rowCount() const {
    int rows = 0;
    for (const HeatmapPanel& p : panels)
        rows = std::max(rows, p.row + 1);
    return rows;
}

int HeatmapFigure::columnCount() const {
    std::map<int, int> perRow;
    int most = 0;
    for (const HeatmapPanel& p : panels)
        most = std::max(most, ++perRow[p.row]);
    return most;
}

std::vector<QColor> heatmapStops(HeatmapColours colours) {
    // The maps are piecewise linear between these stops (ColorMaps.cpp), so sampling them at
    // the stops' positions gives the stops themselves.
    std::vector<QColor> stops;
    if (colours == HeatmapColours::Viridis) return viridisStops();  // the landscape's map
    if (colours == HeatmapColours::Diverging)
        for (int i = 0; i <= 6; ++i)
            stops.push_back(divergingColor(-1.0 + i / 3.0, 1.0));
    else
        for (int i = 0; i <= 4; ++i)
            stops.push_back(sequentialColor(i / 4.0, 1.0));
    return stops;
}

QString heatmapColoursName(HeatmapColours colours) {
    switch (colours) {
        case HeatmapColours::Diverging: return QStringLiteral("diverging");
        case HeatmapColours::Sequential: return QStringLiteral("sequential");
        case HeatmapColours::Viridis: return QStringLiteral("viridis");
    }
    return {};
}

QColor heatmapColour(const HeatmapPanel& p, double v) {
    if (!std::isfinite(v) || (p.logColour && !(v > 0))) return QColor(0, 0, 0, 0);
    const double lo = p.logColour ? std::log10(std::max(p.lo, 1e-300)) : p.lo;
    const double hi = p.logColour ? std::log10(std::max(p.hi, 1e-300)) : p.hi;
    const double x = p.logColour ? std::log10(v) : v;
    return colourAlong(heatmapStops(p.colours), hi > lo ? (x - lo) / (hi - lo) : 0.5);
}

std::vector<Tick> colourBarTicks(const HeatmapPanel& p, double points) {
    if (!p.logColour || !(p.lo > 0) || !(p.hi > p.lo)) return {};
    QFont font;
    font.setPointSizeF(8);  // a paper's tick labels
    return colourScaleTicks(p.lo, p.hi, true, std::max(40.0, points), font);
}

std::vector<Tick> colourScaleTicks(double lo, double hi, bool log, double pixels, const QFont& font) {
    if (log) return logTicks(lo, hi, pixels, font, false);
    return fittingTicks(lo, hi, pixels, font, false);
}

double colourBarPoints(const HeatmapFigure& f, const HeatmapPanel& p, const FigureOptions& o) {
    // The panel's share of the width less the labels and the bar (as FigureHeatmapPgf lays it
    // out), times its aspect ratio.
    const double total = o.widthCm > 0 ? o.widthCm : kOneColumnCm;
    const int cols = std::max(1, f.columnCount());
    const double plotCm = std::max(1.0, (total - 2.4 - cols * 1.8) / cols);
    const double aspect = std::clamp(double(p.rows) / std::max(1, p.cols), 0.35, 2.0);
    return plotCm * aspect / 2.54 * 72;
}

QString mathTickText(const QString& text) {
    static const QString sup = QString::fromUtf8("⁰¹²³⁴⁵⁶⁷⁸⁹");
    QString out;
    bool math = false, inExp = false;
    for (QChar c : text) {
        const qsizetype digit = sup.indexOf(c);
        if (digit >= 0 || c == QChar(0x207B)) {  // a superscript digit or minus
            if (!inExp) out += QStringLiteral("^{");
            inExp = math = true;
            out += digit >= 0 ? QChar(char16_t(u'0' + digit)) : QChar(u'-');
            continue;
        }
        if (inExp) out += '}', inExp = false;
        if (c == QChar(0x00D7)) {
            out += QStringLiteral("\\times ");
            math = true;
        } else if (c == QChar(0x2212)) {
            out += '-';
            math = true;
        } else {
            out += c;
        }
    }
    if (inExp) out += '}';
    return math ? '$' + out + '$' : out;
}

bool writePaperFigure(const PaperFigure& figure, const FigureOptions& options,
                      FigureFormat format, const QString& path, QString* error) {
    if (format != FigureFormat::Pgf && format != FigureFormat::Mpl) {
        if (error) *error = QObject::tr("%1: not a PGFPlots or matplotlib format").arg(path);
        return false;
    }
    const bool pgf = format == FigureFormat::Pgf;
    if (figure.lines) {
        FigureData d = *figure.lines;
        if (!options.title.isEmpty()) d.title = options.title;
        if (!options.xLabel.isEmpty()) d.xLabel = options.xLabel;
        if (!options.yLabel.isEmpty()) d.yLabel = options.yLabel;
        return pgf ? writePgfFigure(d, options, path, error) : writeMplFigure(d, options, path, error);
    }
    if (figure.maps && !figure.maps->panels.empty()) {
        HeatmapFigure f = *figure.maps;
        if (!options.title.isEmpty()) f.title = options.title;
        for (HeatmapPanel& p : f.panels) {  // every panel's axes (one row of one key each)
            if (!options.xLabel.isEmpty()) p.xLabel = options.xLabel;
            if (!options.yLabel.isEmpty()) p.yLabel = options.yLabel;
        }
        return pgf ? writePgfHeatmaps(f, options, path, error) : writeMplHeatmaps(f, options, path, error);
    }
    if (error) *error = QObject::tr("%1: the view has nothing to draw").arg(path);
    return false;
}

}  // namespace ade::ui
