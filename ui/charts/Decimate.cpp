#include "charts/Decimate.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ade::ui {

bool operator==(const DecimateRequest& a, const DecimateRequest& b) {
    return a.x0 == b.x0 && a.x1 == b.x1 && a.pixels == b.pixels && a.logX == b.logX &&
           a.logY == b.logY && a.yFloor == b.yFloor;
}

namespace {
// The same buckets (the floor aside: applied to the output).
bool sameBuckets(const DecimateRequest& a, const DecimateRequest& b) {
    return a.x0 == b.x0 && a.x1 == b.x1 && a.pixels == b.pixels && a.logX == b.logX &&
           a.logY == b.logY;
}
}  // namespace

namespace {

// The bucketing loop, shared by the full and the incremental paths. Appends to `out` from
// record `from`; leaves the last bucket's start in `resumeIndex`/`resumePoints`.
void bucketize(const std::vector<double>& x, const std::vector<double>& y, const DecimateRequest& r,
               std::size_t from, std::size_t end, bool bucketed, QList<QPointF>& out,
               std::size_t& resumeIndex, qsizetype& resumePoints,
               std::vector<std::pair<std::size_t, qsizetype>>* starts = nullptr) {
    const int pixels = std::max(1, r.pixels);
    const double tx0 = r.logX ? std::log10(std::max(r.x0, 1e-300)) : r.x0;
    const double tx1 = r.logX ? std::log10(std::max(r.x1, 1e-300)) : r.x1;
    const double scale = tx1 > tx0 ? pixels / (tx1 - tx0) : 0.0;
    auto yv = [&](double v) { return r.logY ? std::max(v, r.yFloor) : v; };
    long bucket = -1;
    std::size_t iMin = 0, iMax = 0;
    bool open = false;
    resumeIndex = from;
    resumePoints = out.size();
    auto flush = [&] {
        if (!open) return;
        // Min and max of the column, in record order: the envelope a pixel column can show.
        // (Qt Charts strokes a hit-test shape of every drawn point, so fewer points matter.)
        const std::size_t lo = std::min(iMin, iMax), hi = std::max(iMin, iMax);
        out.append(QPointF(x[lo], yv(y[lo])));
        if (hi != lo) out.append(QPointF(x[hi], yv(y[hi])));
        open = false;
    };
    for (std::size_t i = from; i < end; ++i) {
        if (!std::isfinite(y[i]) || !std::isfinite(x[i])) continue;
        if (r.logX && x[i] <= 0) continue;
        if (r.logY && y[i] <= 0) continue;  // not on a log axis: no point, not a clamped one
        if (!bucketed) {
            out.append(QPointF(x[i], yv(y[i])));
            continue;
        }
        const double tx = r.logX ? std::log10(x[i]) : x[i];
        const long bk = static_cast<long>(std::floor((tx - tx0) * scale));
        if (!open || bk != bucket) {
            flush();
            bucket = bk;
            iMin = iMax = i;
            resumeIndex = i;
            resumePoints = out.size();
            if (starts) starts->emplace_back(i, out.size());
            open = true;
            continue;
        }
        if (y[i] < y[iMin]) iMin = i;
        if (y[i] > y[iMax]) iMax = i;
    }
    flush();
}

// Records [b, e) to draw: the visible range plus one neighbour on each side.
bool visibleSpan(const std::vector<double>& x, const std::vector<double>& y,
                 const DecimateRequest& r, std::size_t& b, std::size_t& e) {
    const std::size_t n = std::min(x.size(), y.size());
    if (n == 0 || !(r.x1 >= r.x0)) return false;
    auto first = std::lower_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), r.x0);
    auto last = std::upper_bound(first, x.begin() + static_cast<std::ptrdiff_t>(n), r.x1);
    b = static_cast<std::size_t>(first - x.begin());
    e = static_cast<std::size_t>(last - x.begin());
    if (b > 0) --b;
    if (e < n) ++e;
    return true;
}

// The request without its floor: the records' own values, clamped afterwards.
DecimateRequest noFloor(DecimateRequest r) {
    r.yFloor = -std::numeric_limits<double>::infinity();
    return r;
}

}  // namespace

QList<QPointF> decimate(const std::vector<double>& x, const std::vector<double>& y,
                        const DecimateRequest& r) {
    QList<QPointF> out;
    std::size_t b = 0, e = 0, ri = 0;
    qsizetype rp = 0;
    if (!visibleSpan(x, y, r, b, e)) return out;
    const bool bucketed = (e - b) > static_cast<std::size_t>(std::max(1, r.pixels));
    bucketize(x, y, r, b, e, bucketed, out, ri, rp);
    return out;
}

int pyramidLevel(std::size_t records, int pixels) {
    const double per = static_cast<double>(records) / std::max(1, pixels);
    if (per < (1u << LodPyramid::kFirstLevel)) return -1;
    // Blocks no wider than the buckets would be: between pixels / 2 and pixels of them.
    return static_cast<int>(std::ceil(std::log2(per)));
}

void updatePyramid(LodPyramid& p, const std::vector<double>& y, std::size_t n, bool logY,
                   const RecordSpans& changed) {
    constexpr int k0 = LodPyramid::kFirstLevel;
    constexpr std::uint32_t none = LodPyramid::kNone;
    n = std::min(n, y.size());
    if (p.logY != logY || n < p.records) {
        p.lo.clear();
        p.hi.clear();
    }
    p.logY = logY;
    auto ok = [&](std::uint32_t i) { return i != none && std::isfinite(y[i]) && (!logY || y[i] > 0); };
    if (p.lo.empty()) p.lo.emplace_back(), p.hi.emplace_back();
    // Level k0 from the records: the blocks holding a changed record, the last block it had
    // (it may have been partial) and the new ones.
    const std::size_t blocks = (n + (std::size_t(1) << k0) - 1) >> k0;
    RecordSpans todo;
    const std::size_t had = p.lo[0].size();
    addSpan(todo, had > 0 ? had - 1 : 0, blocks);
    for (const auto& [a, b] : changed)
        if (a < n) addSpan(todo, a >> k0, ((std::min(b, n) - 1) >> k0) + 1);
    p.lo[0].resize(blocks);
    p.hi[0].resize(blocks);
    for (const auto& [first, last] : todo)
        for (std::size_t bk = first; bk < std::min(last, blocks); ++bk) {
            std::uint32_t lo = none, hi = none;
            const std::size_t end = std::min(n, (bk + 1) << k0);
            for (std::size_t i = bk << k0; i < end; ++i) {
                const auto ui = static_cast<std::uint32_t>(i);
                if (!ok(ui)) continue;
                if (lo == none || y[i] < y[lo]) lo = ui;
                if (hi == none || y[i] > y[hi]) hi = ui;
            }
            p.lo[0][bk] = lo;
            p.hi[0][bk] = hi;
        }
    // Each level from the one below: block j merges blocks 2j and 2j + 1 (earliest on ties);
    // again where a block below was, and past the level's last (partial) block.
    std::size_t L = 1;
    for (; p.lo[L - 1].size() > 1; ++L) {
        const std::size_t below = p.lo[L - 1].size();
        if (p.lo.size() <= L) p.lo.emplace_back(), p.hi.emplace_back();
        const std::size_t count = (below + 1) / 2;
        RecordSpans up;
        const std::size_t was = p.lo[L].size();
        addSpan(up, was > 0 ? was - 1 : 0, count);
        for (const auto& [a, b] : todo)
            addSpan(up, a >> 1, ((b - 1) >> 1) + 1);
        p.lo[L].resize(count);
        p.hi[L].resize(count);
        for (const auto& [first, last] : up)
            for (std::size_t j = first; j < std::min(last, count); ++j) {
                const bool pair = 2 * j + 1 < below;
                const std::uint32_t a = p.lo[L - 1][2 * j], c = pair ? p.lo[L - 1][2 * j + 1] : none;
                const std::uint32_t d = p.hi[L - 1][2 * j], f = pair ? p.hi[L - 1][2 * j + 1] : none;
                p.lo[L][j] = a == none ? c : c == none ? a : (y[c] < y[a] ? c : a);
                p.hi[L][j] = d == none ? f : f == none ? d : (y[f] > y[d] ? f : d);
            }
        todo = std::move(up);
    }
    p.lo.resize(L);
    p.hi.resize(L);
    p.records = n;
}

QList<QPointF> pyramidPoints(const LodPyramid& p, const std::vector<double>& x,
                             const std::vector<double>& y, std::size_t b, std::size_t e, int level,
                             const DecimateRequest& r) {
    QList<QPointF> out;
    const std::size_t L = static_cast<std::size_t>(level - LodPyramid::kFirstLevel);
    if (level < LodPyramid::kFirstLevel || L >= p.lo.size()) return out;
    e = std::min(e, p.records);
    const std::size_t first = b >> level, last = e == 0 ? 0 : ((e - 1) >> level) + 1;
    out.reserve(static_cast<qsizetype>(2 * (last - first)));
    auto yv = [&](double v) { return r.logY ? std::max(v, r.yFloor) : v; };
    for (std::size_t j = first; j < last && j < p.lo[L].size(); ++j) {
        const std::uint32_t a = p.lo[L][j], c = p.hi[L][j];
        if (a == LodPyramid::kNone) continue;
        const std::uint32_t i0 = std::min(a, c), i1 = std::max(a, c);
        out.append(QPointF(x[i0], yv(y[i0])));
        if (i1 != i0) out.append(QPointF(x[i1], yv(y[i1])));
    }
    return out;
}

const QList<QPointF>& decimateCached(const std::vector<double>& x, const std::vector<double>& y,
                                     const DecimateRequest& r, double tag, DecimateCache& c) {
    std::size_t b = 0, e = 0;
    if (!visibleSpan(x, y, r, b, e)) {
        c.valid = false;
        c.points.clear();
        return c.points;
    }
    // The pyramid starts over when the caller invalidated the cache (other values) or the
    // values are another curve (tag: smoothing); changes reported for it wait until it is read.
    if (!c.valid || c.tag != tag) c.pyramid = {}, c.pyramidChanged.clear();
    if (c.changedFrom != SIZE_MAX && c.changedSpans.empty())
        addSpan(c.pyramidChanged, c.changedFrom, SIZE_MAX);
    for (const auto& [a, b] : c.changedSpans)
        addSpan(c.pyramidChanged, a, b);
    c.changedSpans.clear();
    // A long span on a linear x axis: read the pyramid (kept up to date incrementally).
    if (const int level = r.logX ? -1 : pyramidLevel(e - b, r.pixels); level >= 0) {
        updatePyramid(c.pyramid, y, std::min(x.size(), y.size()), r.logY, c.pyramidChanged);
        c.pyramidChanged.clear();
        c.points = pyramidPoints(c.pyramid, x, y, b, e, level, r);
        c.buckets.clear();  // the buckets below start over when they are used again
        c.valid = true;
        c.tag = tag;
        c.request = r;
        c.changedFrom = SIZE_MAX;
        return c.points;
    }
    const bool bucketed = (e - b) > static_cast<std::size_t>(std::max(1, r.pixels));
    // Resume at the last bucket, or at the bucket of the first changed record.
    std::size_t resume = c.resumeIndex;
    qsizetype resumePoints = c.resumePoints;
    bool reuse = c.valid && sameBuckets(c.request, r) && c.tag == tag && c.bucketed == bucketed &&
                 bucketed && !c.buckets.empty();
    if (reuse) {
        const std::size_t changed = std::min(c.changedFrom, c.buckets.back().first);
        // The last bucket starting at or before the change (the first one: from its start).
        auto it = std::upper_bound(c.buckets.begin(), c.buckets.end(), changed,
                                   [](std::size_t v, const auto& bk) { return v < bk.first; });
        if (it != c.buckets.begin()) --it;
        resume = it->first;
        resumePoints = it->second;
        c.buckets.erase(it, c.buckets.end());
        reuse = resume >= b && resume <= e;
    }
    if (reuse) {
        c.raw.resize(resumePoints);
        bucketize(x, y, noFloor(r), resume, e, true, c.raw, c.resumeIndex, c.resumePoints, &c.buckets);
    } else {
        c.raw.clear();
        c.buckets.clear();
        bucketize(x, y, noFloor(r), b, e, bucketed, c.raw, c.resumeIndex, c.resumePoints,
                  bucketed ? &c.buckets : nullptr);
    }
    // The floor of a log axis on the output (at most two points per bucket).
    c.points.resize(c.raw.size());
    const qsizetype from = reuse && c.request == r ? std::min(resumePoints, c.points.size()) : 0;
    for (qsizetype i = from; i < c.raw.size(); ++i)
        c.points[i] = r.logY ? QPointF(c.raw[i].x(), std::max(c.raw[i].y(), r.yFloor)) : c.raw[i];
    c.request = r;
    c.tag = tag;
    c.bucketed = bucketed;
    c.valid = true;
    c.changedFrom = SIZE_MAX;
    return c.points;
}

void extendEma(const std::vector<double>& y, double weight, std::vector<double>& out,
               EmaState& state) {
    out.reserve(y.size());
    for (std::size_t i = out.size(); i < y.size(); ++i) {
        const double v = y[i];
        if (!std::isfinite(v)) {
            out.push_back(v);
            continue;
        }
        state.value = state.value * weight + (1.0 - weight) * v;
        state.weightSum = state.weightSum * weight + (1.0 - weight);
        out.push_back(state.weightSum > 0 ? state.value / state.weightSum : v);
    }
}

bool yRange(const std::vector<double>& x, const std::vector<double>& y, double x0, double x1,
            bool positiveOnly, double& lo, double& hi) {
    bool any = false;
    const std::size_t n = std::min(x.size(), y.size());
    auto first = std::lower_bound(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), x0);
    for (std::size_t i = static_cast<std::size_t>(first - x.begin()); i < n && x[i] <= x1; ++i) {
        const double v = y[i];
        if (!std::isfinite(v) || (positiveOnly && v <= 0)) continue;
        if (!any) {
            lo = hi = v;
            any = true;
        } else {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    return any;
}

}  // namespace ade::ui
