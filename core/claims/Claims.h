#pragma once
// Claims: what a preset says its runs show, in the papers' language, with a check over the
// runs' metrics that says whether the runs on screen show it. A preset declares them in its
// JSON ("claims": [...]); the GUI checks them live as the runs stream, the CLI's `report`
// command checks every preset's. Every check uses all seeds of the runs it names.
//
// The JSON of one claim (keys not listed for a kind are errors):
//   { "id": "norm-ratio",                      // unique in the preset, [a-z0-9-]
//     "text": "Without a regulariser ...",     // the claim, one or two sentences
//     "paper": "B",                            // "A" or "B": the report's section
//     "check": "ratio",                        // ratio | close | trend | floor | reach | slope
//                                              //   | law | rate
//     "metric": "norm_WQ",                     // a column of the runs' metrics
//     "run": "none", "other": "power",         // run labels of the preset (other: ratio, close,
//                                              //   and optionally floor)
//     "stat": "final",                         // final | best | floor | initial | average
//                                              //   (ratio, close; slope: the y of each point;
//                                              //   default final). floor: the mean of the
//                                              //   last tenth of the records; average: of
//                                              //   the last half (a time average of a
//                                              //   stationary SDE run)
//     "other_stat": "initial",                 // ratio, close: other's statistic (default
//                                              //   stat); with other = run, a run's end
//                                              //   against its own start
//     "min": 2, "max": 1e300,                  // the measured number must lie in [min, max]
//     "direction": "rising",                   // trend: rising | falling | flat
//     "window": 0.25,                          // trend: the last fraction of the run (0, 1]
//     "tol": 0.1,                              // floor: within tol (relative) of the floor;
//                                              //   reach: of the better run's floor; rate:
//                                              //   the fit stops at a gap of tol·|limit|
//     "by": "data_passes",                     // reach, rate: data_passes | iteration | time_s
//     "x": "data.n",                           // slope: the swept key on the x axis
//     "law": "free_diffusion",                 // law: a law of the run's experiment (LawInfo)
//     "judge": "mean",                         // seeds (default): every seed's number in
//                                              //   [min, max]; mean: the 95% interval of the
//                                              //   seeds' mean inside [min, max] (not slope);
//                                              //   geomean: that of their geometric mean
//                                              //   (ratio, floor, reach, rate, law: numbers
//                                              //   above 0)
//     "threshold": { "from": "choice",         // where min/max come from: paper | law | choice
//                    "why": "a quarter more" },  //   and why (both required)
//     "control": { ... } }                     // its negative control (below)
//
// What each check measures (per seed; a claim holds when every seed's number lies in
// [min, max], and for a trend also its direction is significant; with "judge": "mean", when
// the 95% interval of the seeds' mean, Student t with n − 1 df, lies inside [min, max] — the
// claim is then about the effect, not about every seed, and needs two or more seeds):
//   ratio  stat(run) / stat(other)
//   close  (stat(run) − stat(other)) / |stat(other)|, signed (above 0: run is the higher);
//          holds within ±max (give "max", the tolerance; no "min"). On a metric above an
//          irreducible floor (excess_test_loss) it compares what the runs can still change.
//   trend  the least-squares slope of the metric against the iteration over the last `window`
//          of the run, as the relative change over that window: slope·Δiteration / |mean|.
//          rising: the change is ≥ min (default 0) and the slope's t statistic ≥ 2;
//          falling: the change is ≤ max (default 0) and t ≤ −2;
//          flat: |change| ≤ max (give "max", e.g. 0.05).
//          (t treats the residuals as independent; the noise of an SDE run is correlated, so t
//          overstates the significance: the relative change is the number to trust.)
//   floor  the first iteration at which the run comes within tol of its own floor (the mean of
//          its last tenth; for a metric that falls: value ≤ floor + tol·|floor|); with "other",
//          how many times sooner than `other` does (iteration(other) / iteration(run)).
//   reach  a common target for both runs: (1 + tol) × the lower of the two floors (the mean of
//          each run's last tenth; for a metric that falls). How many times sooner `run` comes
//          down to it than `other`: x(other) / x(run), where x is the first record at or below
//          the target, counted in `by` (default data_passes, the training work; iteration and
//          time_s are stated beside it). A run that never reaches the target scores 0 (it
//          does not hold); when only `other` never does, its whole run is a lower bound.
//   slope  the least-squares slope of log stat(metric) against log x over every point of the
//          sweep of `run` (every seed a point), with its 95% confidence interval (Student t);
//          one number for all seeds; holds when that whole interval lies strictly inside
//          (min, max).
//   rate   the geometric contraction factor ρ of the run's gap to its own limit (the mean of
//          its last tenth): exp of the least-squares slope of ln(metric − limit) against `by`,
//          over the records from the first whose gap is at most half the first record's, up to
//          the first whose gap is at most tol·|limit| (claims/ClaimRate.h). Without "other",
//          ρ per seed (geometric convergence: below 1); with "other", ln ρ_run / ln ρ_other,
//          how many times faster run's gap contracts (paired by seed); both factors, per
//          iteration and per data pass, are stated beside it.
//   law    the least-squares slope of the metric against the iteration over the last `window`
//          of the run, divided by the rate the experiment's law predicts from the run's config
//          (LawInfo::perIteration): 1 where the law holds, 0 where the growth is absent.
//
// A claim's negative control: a variant of its preset in which the effect the claim states is
// absent, so that the claim must report "does not hold" on it: a claim shown able to fail. The
// report runs every control beside its claim and lists its verdict; the test suite requires
// every shipped claim's control not to hold at the report's quick sizes.
//   "control": { "why": "the balancing regulariser off in alg1",  // what is absent (required)
//                "config": { "iterations": 100 },                 // keys for every run
//                "runs": { "alg1": { "regularizer": "none" } },   // keys for one run
//                "swap": true }                                   // run and other exchanged
// A control gives at least one of config, runs, swap. Its keys apply on top of the plan the
// report runs (the preset, or its quick sizes); a preset without quick sizes gives the sizes
// of its controls in "config" (the effect they remove is absent at any length). A swap alone
// reuses the claim's own runs.
#include <nlohmann/json.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/Config.h"
#include "claims/HistoryView.h"
#include "training/Trainer.h"

namespace ade {

enum class ClaimCheck { Ratio, Close, Trend, Floor, Reach, Slope, Law, Rate };
enum class ClaimStat { Final, Best, Floor, Initial, Average };
enum class TrendDirection { Rising, Falling, Flat };

struct ClaimControl {
    std::string why;
    nlohmann::json config = nlohmann::json::object();  // key -> value, every run
    nlohmann::json runs = nlohmann::json::object();    // run label -> {key: value}
    bool swap = false;
    bool needsRuns() const { return !config.empty() || !runs.empty(); }
};

// Where a claim's threshold comes from: the paper ("paper": a rate or bound it states), a law
// derived from the model ("law": an experiment's LawInfo, a CLT rate), or "choice": a margin the
// preset states. The report and the checklist show it beside the number.
struct ClaimThreshold {
    std::string from;  // paper | law | choice
    std::string why;
};
std::string thresholdText(const ClaimThreshold& t);  // "a stated choice: a quarter more"

struct ClaimSpec {
    std::string id, text, paper;
    ClaimCheck check = ClaimCheck::Ratio;
    std::string metric, run, other;
    ClaimStat stat = ClaimStat::Final;
    std::optional<ClaimStat> otherStat;  // ratio, close: `other`'s statistic (default: stat)
    double min = -1e300, max = 1e300;
    TrendDirection direction = TrendDirection::Rising;
    double window = 0.25;
    double tol = 0.1;
    std::string by = "data_passes";  // reach: the column that counts the cost
    std::string x;
    std::string law;         // law: the name of a law of the run's experiment
    bool judgeMean = false;  // "judge": "mean": the mean's 95% interval must lie in [min, max]
    bool judgeGeoMean = false;  // "judge": "geomean": the geometric mean's 95% interval must
                                // (ratios that vary by factors across seeds: one seed at 35
                                // cannot carry a mean of ten)
    std::optional<ClaimControl> control;
    std::optional<ClaimThreshold> threshold;
};

std::optional<ClaimSpec> parseClaim(const nlohmann::json& j, std::string* error);
// Parses a preset's "claims" array; checks ids are unique. Run names are checked by the plan.
std::optional<std::vector<ClaimSpec>> parseClaims(const nlohmann::json& j, std::string* error);
nlohmann::json toJson(const ClaimSpec& c);
// The "control" object of a claim (ClaimControl.cpp); `check` says whether a swap is possible.
std::optional<ClaimControl> parseControl(const nlohmann::json& j, const ClaimSpec& claim,
                                         std::string* error);
nlohmann::json toJson(const ClaimControl& c);
// The claim as its control checks it: run and other exchanged for a swap, no control of its own.
ClaimSpec controlledClaim(const ClaimSpec& c);
std::string checkName(ClaimCheck c);

// One run as a claim sees it: its preset label, seed, sweep values, history so far, whether it
// has ended (completed, stopped or diverged), and its config (a law's prediction needs it).
struct ClaimRun {
    std::string label;
    long long seed = 0;
    std::vector<std::pair<std::string, std::string>> varied;
    HistoryView history;  // absent: not known
    bool finished = false;
    const Config* config = nullptr;
    // Reached its iteration cap before its stopping rule (RunResult::stop == "cap"): its floor
    // is not a converged value, and a claim that uses it says so.
    bool capped = false;
};

enum class ClaimStatus {
    Pending,      // a run it needs is still running (the number is what the data show so far)
    Holds,        // every run ended and every seed's number is in range
    DoesNotHold,  // every run ended and some seed's number is out of range
    Unavailable   // a run or metric it needs is missing (`detail` says which)
};
std::string statusText(ClaimStatus s);  // "pending", "holds", "does not hold", "unavailable"

// The compute a claim's runs used (issue 28): per run of the preset it compares, the mean over
// its seeds (and, for a sweep, its points) of the iterations done, the training work in data
// passes (the trainer's column: one pass is the objective evaluated on every training unit) and
// the wall time, all read from the runs' last records.
struct ClaimCompute {
    std::string run;
    int runs = 0;  // seeds (and sweep points) averaged
    double iterations = 0, passes = NAN, seconds = NAN;
};
// "alg1-spectral 1200 it, 3.6e+03 passes, 4.2 s; sgd-random …" (means per run).
std::string computeText(const std::vector<ClaimCompute>& compute);

struct ClaimResult {
    ClaimStatus status = ClaimStatus::Unavailable;
    double value = 0;           // mean over seeds (slope: the fitted slope)
    double sd = 0;              // sd over seeds (0 for one seed; slope: its standard error)
    double lo = 0, hi = 0;      // min and max over seeds (slope: the 95% interval)
    double meanLo = NAN, meanHi = NAN;  // the 95% interval of the seeds' mean (two or more)
    // The seeds' geometric mean and its 95% interval (two or more seeds, all above 0; else NaN).
    double geoMean = NAN, geoLo = NAN, geoHi = NAN;
    int seeds = 0;              // seeds measured (slope: points fitted)
    int seedsInRange = 0;       // seeds whose number lies in range
    int capped = 0;             // runs it used that reached their cap before their stopping rule
    std::string measured;       // e.g. "ratio 2.41 ± 0.12 (3 seeds, 2.30–2.55; needs ≥ 2)"
    std::string detail;         // why pending or unavailable
    std::vector<ClaimCompute> compute;  // what the runs it compares used
};

ClaimResult evaluateClaim(const ClaimSpec& claim, const std::vector<ClaimRun>& runs);

}  // namespace ade
