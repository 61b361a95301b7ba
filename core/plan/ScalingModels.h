#pragma once
// Which scaling law a sweep's points follow: the free power law y = C x^b against one-constant
// laws the papers state (C / x, C x^-2 log^6 x), each fitted by least squares on log y over every
// seed's point (not only the means), compared by their residuals and small-sample AIC (AICc).
// The report prints the comparison under a sweep's fitted power law; what wins is what it says.
#include <string>
#include <utility>
#include <vector>

namespace ade {

struct RunOutcome;

struct ScalingModel {
    std::string name;      // "free power law x^b", "C / x", "C x^-2 log^6 x"
    int params = 1;        // free constants fitted (b and C, or C alone)
    double slope = 0;      // b (fixed for the one-constant laws: their nominal exponent)
    double slopeCi95 = 0;  // half-width of b's 95% interval (free law only; 0 otherwise)
    double logC = 0;       // fitted log C
    double rss = 0;        // residual sum of squares of log y
    double aicc = 0;       // N ln(RSS / N) + 2k + 2k(k + 1) / (N − k − 1)
    double weight = 0;     // Akaike weight among the models compared
};

struct ScalingComparison {
    std::string series;                // run label
    std::string stat = "floor";        // which value of each run's metric (summaryMetrics)
    int points = 0;                    // (x, y) points: configs × finished seeds
    int xs = 0;                        // distinct x
    std::vector<ScalingModel> models;  // in the order above; empty with fewer than 4 points
    int best = -1;                     // index of the lowest AICc
    double deltaAicc = 0;              // AICc of the runner-up minus the best's
};

// Every positive (x, y) point of each run label: x = the varied key's value, y = the metric's
// `stat` ("floor", "final", "best") of each finished run, in the outcomes' order of labels.
std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> scalingPoints(
    const std::vector<RunOutcome>& outcomes, const std::string& xKey, const std::string& yMetric,
    const std::string& stat);

// The comparison on one series' points (x > 1 for the log^6 law; points with x ≤ 1 leave it out).
ScalingComparison compareScalingModels(const std::string& series,
                                       const std::vector<std::pair<double, double>>& points);
std::vector<ScalingComparison> compareScalingModels(const std::vector<RunOutcome>& outcomes,
                                                    const std::string& xKey,
                                                    const std::string& yMetric,
                                                    const std::string& stat = "floor");

// The comparison as a Markdown table with a one-line verdict (empty when not measured).
std::string scalingComparisonMarkdown(const ScalingComparison& c, const std::string& x,
                                      const std::string& y);

}  // namespace ade
