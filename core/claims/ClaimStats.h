#pragma once
// The statistics the claims use: a least-squares line with its confidence interval, the trend of
// a metric over the end of a run, and when a run comes within a tolerance of its floor.
#include <cmath>
#include <string>
#include <vector>

#include "claims/Claims.h"
#include "training/Trainer.h"

namespace ade {

struct LineFit {
    double slope = 0, intercept = 0, r2 = 0;
    double slopeSe = 0;  // standard error of the slope (0 with two points)
    double ci95 = 0;     // half-width of the 95% interval of the slope (Student t, n − 2 df)
    int points = 0;
};
// Least squares y = intercept + slope·x; needs two distinct x.
LineFit fitLine(const std::vector<double>& x, const std::vector<double>& y);

// The two-sided 97.5% quantile of Student's t with `df` degrees of freedom (df ≥ 1).
double studentT975(int df);

struct TrendFit {
    double slope = 0;           // per iteration
    double t = 0;               // slope / its standard error (independent residuals assumed)
    double relativeChange = 0;  // slope·(last − first iteration of the window) / |mean|
    int points = 0;
};
// Over the last `window` fraction of the records (at least three records).
TrendFit fitTrend(const HistoryView& h, int column, double window);

// The mean of the last tenth of the records (as summary.json's "floor").
double floorValue(const HistoryView& h, int column);
// The first iteration at which |value − floor| ≤ tol·|floor|; NaN without records.
double floorIteration(const HistoryView& h, int column, double tol);

// How the claims write a number ("2.41", "1.20e-05") and a claim's range ("needs 0.75 to 1.25").
std::string claimNumber(double v);
std::string claimRange(const ClaimSpec& c);

// The seeds' numbers of a claim summarised: mean, sd, min and max over the finite ones, and the
// 95% interval of the mean (Student t, n − 1 df; NaN with fewer than two finite numbers).
struct SeedSummary {
    double mean = NAN, sd = 0, min = NAN, max = NAN, meanLo = NAN, meanHi = NAN;
    // The geometric mean exp(mean ln v) and its 95% interval (the t interval of the mean of
    // ln v, exponentiated): two or more seeds, every one finite and above 0; else NaN.
    double geoMean = NAN, geoLo = NAN, geoHi = NAN;
    int finite = 0;
};
SeedSummary summariseSeeds(const std::vector<double>& values);
// Writes a summary into a result's value, sd, lo, hi, meanLo, meanHi, geoMean, geoLo, geoHi.
void applySummary(const SeedSummary& s, ClaimResult& res);

// Flat trends and close checks are judged within ±max (they take no min); whether one number
// lies in a claim's range (finite, and in [min, max] or ±max).
bool symmetricRange(const ClaimSpec& c);
bool inClaimRange(const ClaimSpec& c, double v);

// The verdict of a measured claim (Claims.cpp): every seed in range, or with "judge": "mean"
// the mean's 95% interval (res.meanLo, res.meanHi) inside it, or with "judge": "geomean" the
// geometric mean's (res.geoLo, res.geoHi), stated at the end of `text`
// (numbers times `scale`, followed by `unit`); pending while a run goes on.
ClaimResult judgeClaim(const ClaimSpec& c, ClaimResult res, bool allFinished, double scale,
                       const std::string& unit, std::string text);

}  // namespace ade
