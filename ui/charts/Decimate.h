#pragma once
// Turning a long metric history into what a chart can draw: at most two points per pixel column
// (min and max of each bucket, in record order) over the visible x range, so a 10^6-point
// history draws as fast as a 10^3-point one and no spike disappears. Pure functions, no widgets.
#include <QList>
#include <QPointF>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/RecordSpans.h"

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
// from the last (open) bucket on are visited again — or, when the caller says that records from
// `changedFrom` on changed (a seed group's mean, which moves while slower seeds catch up), from
// the bucket that holds that record. The floor of a log axis is applied to the output only, so
// a new floor (the y range grew by a decade) costs no pass over the records.
// A level-of-detail pyramid of one series, kept incrementally: for blocks of 2^k records
// (k = kFirstLevel, kFirstLevel + 1, …), the record index of the block's least and greatest
// value (finite; positive on a log y axis). A decimation of any span of a long history then
// reads one level's blocks instead of the records: a frame's cost no longer grows with the
// history (10^6 records per series), and a zoom, a growing axis range or a new window picks a
// finer or coarser level at once. Used on a linear x axis (records evenly spread over x, as
// iterations and wall time are); a log x axis buckets by pixel column as before.
struct LodPyramid {
    static constexpr int kFirstLevel = 6;  // 64 records
    bool logY = false;                    // which values count (log y: positive only)
    std::size_t records = 0;              // records the pyramid covers
    std::vector<std::vector<std::uint32_t>> lo, hi;  // [level][block]; kNone: no value
    static constexpr std::uint32_t kNone = 0xffffffffu;
};

struct DecimateCache {
    DecimateRequest request;
    double tag = 0;  // caller's extra key (e.g. the smoothing weight)
    bool valid = false;
    bool bucketed = false;
    std::size_t resumeIndex = 0;  // first record of the last bucket
    qsizetype resumePoints = 0;   // output points before that bucket
    std::size_t changedFrom = SIZE_MAX;  // the caller's: records from here on changed
    // The caller's, when it knows them: the changed records lie in these spans (changedFrom is
    // the first); without them, every record from changedFrom on may have changed.
    RecordSpans changedSpans;
    // Each bucket's first record and the output points before it (bucketed requests).
    std::vector<std::pair<std::size_t, qsizetype>> buckets;
    QList<QPointF> raw;     // min and max per bucket, unclamped
    QList<QPointF> points;  // what to draw: raw with y clamped to the request's floor
    LodPyramid pyramid;     // long histories on a linear x axis
    RecordSpans pyramidChanged;  // changes the pyramid has not taken in yet
};

// x must be non-decreasing. Non-finite y values are skipped. One point beyond each end of the
// range is kept so lines run to the plot edge.
QList<QPointF> decimate(const std::vector<double>& x, const std::vector<double>& y,
                        const DecimateRequest& r);
// Same result as decimate(), reusing `cache` when the request and tag are unchanged and the
// data only grew since the last call.
const QList<QPointF>& decimateCached(const std::vector<double>& x, const std::vector<double>& y,
                                     const DecimateRequest& r, double tag, DecimateCache& cache);

// Brings `p` up to the first `n` values of y, of which those in `changed` may have changed
// since (besides the records it did not cover yet): only the blocks holding them, and their
// parents, are computed again.
void updatePyramid(LodPyramid& p, const std::vector<double>& y, std::size_t n, bool logY,
                   const RecordSpans& changed = {});
// The points of records [b, e) at pyramid level `level` (blocks of 2^level records): each
// block's least and greatest value in record order, y clamped to the request's floor.
QList<QPointF> pyramidPoints(const LodPyramid& p, const std::vector<double>& x,
                             const std::vector<double>& y, std::size_t b, std::size_t e, int level,
                             const DecimateRequest& r);
// The level decimateCached reads for `records` visible records in `pixels` buckets (-1: the
// records themselves, bucketed by pixel column).
int pyramidLevel(std::size_t records, int pixels);

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
