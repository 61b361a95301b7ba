#pragma once
// The loss landscape's contour map: the objective on the (t, s) grid as a filled colour image
// with iso lines, named axes, a colour bar, the run's projected trajectory and the current
// iterate's marker. One function draws it into any QPainter (the panel's widget, PNG, SVG, PDF),
// so the GUI's export and `attention-explorer-cli figure --panels landscape` are the same
// picture.
#include <QPainter>
#include <QRectF>
#include <QString>

#include <optional>

#include "inspect/LandscapeJob.h"

namespace ade::ui {

enum class FigureFormat;

struct LandscapeMapOptions {
    bool dataLossOnly = false;            // draw the data loss instead of the full objective
    std::optional<long> markerIteration;  // the trajectory point at or before it is marked
    QString title;                        // empty: "<run>: loss landscape at iteration N"
};

// Axis names in the papers' language.
QString landscapeTAxisName(const ade::LandscapeResult& r);
QString landscapeSAxisName(const ade::LandscapeResult& r);

// Draws the map into `rect` of `p`.
void drawLandscapeMap(QPainter& p, const QRectF& rect, const LandscapeOutcome& o,
                      const LandscapeMapOptions& options);

// Writes the map as PNG (size × 2 pixels), SVG or PDF (atomic write). False with a message.
bool renderLandscapeMap(const LandscapeOutcome& o, const LandscapeMapOptions& options,
                        FigureFormat format, const QSize& size, const QString& path,
                        QString* error);

// Index of the trajectory point shown for `iteration` (the latest at or before it; -1 = none).
int landscapeMarkerIndex(const LandscapeOutcome& o, std::optional<long> iteration);

}  // namespace ade::ui
