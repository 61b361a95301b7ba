#pragma once
// Round tick values ("nice numbers": multiples of 1, 2 or 5 × 10^k) and their texts, for the
// live charts' linear axes (a QCategoryAxis whose labels sit on the values) and the exported
// figures. Qt's own value axis computes its ticks as min + i·step or by adding the step, so a
// zero tick reads "5.55112e-17", and it takes a fixed count however long the axis is, so that
// the labels of a zoomed axis run together. Here the count follows the axis' length in pixels
// and each label's width.
#include <QFont>
#include <QString>

#include <vector>

class QCategoryAxis;

namespace ade::ui {

struct Tick {
    double value;
    QString text;
};

// The tick step of 1, 2 or 5 × 10^k that puts at most `maxTicks` ticks in [lo, hi]
// (0 when the range is empty or not finite).
double tickStep(double lo, double hi, int maxTicks);
// The multiples of `step` inside [lo, hi] (ends included up to rounding), with their texts.
std::vector<Tick> ticksWithStep(double lo, double hi, double step);
// `v` as a tick of an axis stepping by `step`: as many decimals as the step has ("0.25",
// "0.50"), "0" for zero (whatever rounding left there), a scientific form for very large or
// very small values ("2.5e-05", "1.5e+07"), a minus sign as a true minus ("−0.5").
QString tickText(double v, double step);

// The most round ticks in [lo, hi] whose labels fit `pixels` of axis: along a horizontal axis
// each label's width (in `font`) plus a gap, along a vertical one about two lines per tick.
std::vector<Tick> fittingTicks(double lo, double hi, double pixels, const QFont& font,
                               bool horizontal);

// A log axis' ticks over [lo, hi] (lo > 0), as positions log10(v) with the values' texts:
// powers of ten every 1, 2, 3… decades as many as fit ("0.001", "1", "10⁻⁶", never "1e-03"),
// with 2 and 5 between them when few decades show; inside a decade or two (a zoom) the 1-2-5
// values, or round linear steps when even those are too few ("0.012 0.014 0.016"). Fits
// `pixels` like fittingTicks.
std::vector<Tick> logTicks(double lo, double hi, double pixels, const QFont& font, bool horizontal);
// A log axis' label of `v`: plain decimals from 0.001 to 10000 ("0.002", "500"), beyond them
// (or with `powers`) a power of ten with a superscript exponent ("10⁻⁶", "2×10⁻⁵", "10⁰"). An
// axis uses one style: logTicks writes all its labels as powers when one needs it.
QString logTickText(double v, bool powers = false);

// Makes `axis` show `ticks` (labels on their values) unless it shows them already; returns
// whether it changed anything.
bool setAxisTicks(QCategoryAxis* axis, const std::vector<Tick>& ticks);

}  // namespace ade::ui
