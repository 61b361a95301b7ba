#pragma once
// Value axes the sweep views draw themselves: linear or log (base 10) scales from data to pixels,
// their tick values and labels. The one-key plot uses two, parallel coordinates one per key.
#include <QRectF>
#include <QString>

#include <vector>

class QPainter;

namespace ade::ui {

struct SweepScale {
    double lo = 0, hi = 1;   // data range (positive when log)
    bool log = false;
    double p0 = 0, p1 = 1;   // pixels of lo and hi

    // A scale covering `values` with a little padding (log: a factor; linear: a fraction of
    // the range); a single value gets a range around it.
    static SweepScale fit(const std::vector<double>& values, bool log, double pad = 0.06);
    double map(double v) const;    // data -> pixel
    double unmap(double p) const;  // pixel -> data
    std::vector<double> ticks(int count = 5) const;
};
QString tickText(double v);

// Axis lines with ticks and labels. The x axis along `plot`'s bottom, the y axis along its left;
// `title` under / beside it (rotated).
// `marks`: label these values (the swept ones, when few) instead of round ticks.
void drawXAxis(QPainter& p, const QRectF& plot, const SweepScale& s, const QString& title,
               const std::vector<double>& marks = {});
void drawYAxis(QPainter& p, const QRectF& plot, const SweepScale& s, const QString& title);
// Light grid lines at the ticks inside `plot`.
void drawGrid(QPainter& p, const QRectF& plot, const SweepScale& x, const SweepScale& y,
              const std::vector<double>& xMarks = {});

}  // namespace ade::ui
