#pragma once
// Turning a long metric history into what a chart can draw: at most two points per pixel column
// (min and max of each bucket, in record order) over the visible x range, so a 10^6-point
// history draws as fast as a 10^3-point one and no spike disappears. Pure functions, no widgets.
#include <QList>
#include <QPointF>

#include <cstddef>
#include <vector>

namespace ade::ui {

struct DecimateRequest {
    double x0 = 0, x1 = 1;  // visible x range (data units)
    int pixels = 800;       // plot width in pixels
    bool logX = false;      // buckets equally spaced in log x; x <= 0 dropped
    bool logY = false;      // y <= 0 dropped, y < yFloor drawn at yFloor
    double yFloor = 1e-300;
};

bool operator==(const DecimateRequest& a, const DecimateRequest& b);

// Lets a growing history be decimated incrementally: with the same request, only the records
// from the last (open) bucket on are visited again.
struct DecimateCache {
    DecimateRequest request;
    double tag = 0;  // caller's extra key (e.g. the smoothing weight)
    bool valid = false;
    bool bucketed = false;
    std::size_t resumeIndex = 0;  // first record of the last bucket
    qsizetype resumePoints = 0;   // output points before that bucket
    QList<QPointF> points;
};

// x must be non-decreasing. Non-finite y values are skipped. One point beyond each end of the
// range is kept so lines run to the plot edge.
QList<QPointF> decimate(const std::vector<double>& x, const std::vector<double>& y,
                        const DecimateRequest& r);
// Same result as decimate(), reusing `cache` when the request and tag are unchanged and the
// data only grew since the last call.
const QList<QPointF>& decimateCached(const std::vector<double>& x, const std::vector<double>& y,
                                     const DecimateRequest& r, double tag, DecimateCache& cache);

// Exponential moving average with TensorBoard's debiasing, continued incrementally: `out` holds
// the smoothed values of y[0, out.size()); state carries the running average between calls.
struct EmaState {
    double value = 0.0;
    double weightSum = 0.0;
};
void extendEma(const std::vector<double>& y, double weight, std::vector<double>& out,
               EmaState& state);

// Range of the finite (and, for log axes, positive) y values with x in [x0, x1].
bool yRange(const std::vector<double>& x, const std::vector<double>& y, double x0, double x1,
            bool positiveOnly, double& lo, double& hi);

}  // namespace ade::ui
