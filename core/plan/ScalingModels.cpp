#include "plan/ScalingModels.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "claims/ClaimStats.h"
#include "output/RunOutput.h"
#include "plan/PlanRunner.h"

namespace ade {

std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> scalingPoints(
    const std::vector<RunOutcome>& outcomes, const std::string& xKey, const std::string& yMetric,
    const std::string& stat) {
    std::vector<std::pair<std::string, std::vector<std::pair<double, double>>>> out;
    std::map<std::string, std::size_t> index;
    for (const auto& o : outcomes) {
        if (o.result.history.rows.empty()) continue;
        double x = NAN;
        for (const auto& [k, v] : o.run.varied)
            if (k == xKey) x = std::strtod(v.c_str(), nullptr);
        const auto s = summaryMetrics(o.result.history);
        if (!s[stat].contains(yMetric) || !s[stat][yMetric].is_number()) continue;
        const double y = s[stat][yMetric].get<double>();
        if (!(x > 0) || !(y > 0)) continue;
        auto [it, added] = index.emplace(o.run.label, out.size());
        if (added) out.push_back({o.run.label, {}});
        out[it->second].second.emplace_back(x, y);
    }
    return out;
}

namespace {

// AICc of a least-squares fit of log y with k constants on n points (a Gaussian likelihood with
// its variance profiled out; the same constant dropped for every model).
double aicc(double rss, int n, int k) {
    const double N = n, K = k;
    return N * std::log(std::max(rss, 1e-300) / N) + 2 * K + 2 * K * (K + 1) / (N - K - 1);
}

// log y = log C + g(x) with g fixed: log C is the mean of log y − g(x).
ScalingModel oneConstant(const std::string& name, double exponent,
                         const std::vector<std::pair<double, double>>& pts, double (*g)(double)) {
    ScalingModel m;
    m.name = name;
    m.params = 1;
    m.slope = exponent;
    double c = 0;
    for (const auto& [x, y] : pts)
        c += std::log(y) - g(x);
    c /= static_cast<double>(pts.size());
    m.logC = c;
    for (const auto& [x, y] : pts) {
        const double r = std::log(y) - c - g(x);
        m.rss += r * r;
    }
    return m;
}

}  // namespace

ScalingComparison compareScalingModels(const std::string& series,
                                       const std::vector<std::pair<double, double>>& points) {
    ScalingComparison c;
    c.series = series;
    std::vector<std::pair<double, double>> pts;
    std::map<double, int> xs;
    bool logLaw = true;
    for (const auto& [x, y] : points)
        if (x > 0 && y > 0 && std::isfinite(x) && std::isfinite(y)) {
            pts.emplace_back(x, y);
            ++xs[x];
            logLaw = logLaw && x > 1;
        }
    c.points = static_cast<int>(pts.size());
    c.xs = static_cast<int>(xs.size());
    // Two constants need at least four points for AICc and three distinct x to be tested.
    if (c.points < 4 || c.xs < 3) return c;
    std::vector<double> lx, ly;
    for (const auto& [x, y] : pts)
        lx.push_back(std::log(x)), ly.push_back(std::log(y));
    const LineFit f = fitLine(lx, ly);
    ScalingModel free;
    free.name = "free power law C x^b";
    free.params = 2;
    free.slope = f.slope;
    free.slopeCi95 = f.ci95;
    free.logC = f.intercept;
    for (std::size_t i = 0; i < lx.size(); ++i) {
        const double r = ly[i] - f.intercept - f.slope * lx[i];
        free.rss += r * r;
    }
    c.models.push_back(free);
    c.models.push_back(oneConstant("C / x", -1, pts, [](double x) { return -std::log(x); }));
    if (logLaw)
        c.models.push_back(oneConstant("C x^-2 log^6 x", -2, pts, [](double x) {
            return -2 * std::log(x) + 6 * std::log(std::log(x));
        }));
    double lowest = INFINITY;
    for (std::size_t i = 0; i < c.models.size(); ++i) {
        ScalingModel& m = c.models[i];
        m.aicc = aicc(m.rss, c.points, m.params);
        if (m.aicc < lowest) lowest = m.aicc, c.best = static_cast<int>(i);
    }
    double total = 0, second = INFINITY;
    for (const auto& m : c.models)
        total += std::exp(-0.5 * (m.aicc - lowest));
    for (std::size_t i = 0; i < c.models.size(); ++i) {
        c.models[i].weight = std::exp(-0.5 * (c.models[i].aicc - lowest)) / total;
        if (static_cast<int>(i) != c.best) second = std::min(second, c.models[i].aicc);
    }
    c.deltaAicc = second - lowest;
    return c;
}

std::vector<ScalingComparison> compareScalingModels(const std::vector<RunOutcome>& outcomes,
                                                    const std::string& xKey,
                                                    const std::string& yMetric,
                                                    const std::string& stat) {
    std::vector<ScalingComparison> out;
    for (const auto& [label, pts] : scalingPoints(outcomes, xKey, yMetric, stat)) {
        out.push_back(compareScalingModels(label, pts));
        out.back().stat = stat;
    }
    return out;
}

std::string scalingComparisonMarkdown(const ScalingComparison& c, const std::string& x,
                                      const std::string& y) {
    if (c.models.empty()) return {};
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "Which law (%s): %s of %s fitted on log %s over %d points (%d values of %s, "
                  "every seed), compared by AICc (lower is better; Akaike weight = the model's "
                  "relative likelihood):\n\n",
                  c.series.c_str(), c.stat.c_str(), y.c_str(), y.c_str(), c.points, c.xs,
                  x.c_str());
    std::string md = buf;
    md += "| model | constants | exponent | RSS of log " + y +
          " | AICc | weight |\n"
          "|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < c.models.size(); ++i) {
        const ScalingModel& m = c.models[i];
        char exp[64];
        if (m.params == 2)
            std::snprintf(exp, sizeof exp, "%.3f (95%%: %.3f to %.3f)", m.slope,
                          m.slope - m.slopeCi95, m.slope + m.slopeCi95);
        else
            std::snprintf(exp, sizeof exp, "%s", m.slope == -1 ? "−1 (fixed)" : "−2, log⁶ (fixed)");
        char row[256];
        std::snprintf(row, sizeof row, "| %s%s | %d | %s | %.4g | %.2f | %.2f |\n", m.name.c_str(),
                      static_cast<int>(i) == c.best ? " (best)" : "", m.params, exp, m.rss, m.aicc,
                      m.weight);
        md += row;
    }
    std::snprintf(buf, sizeof buf, "\nBest by AICc: **%s**, %.1f below the next (%s).\n\n",
                  c.models[static_cast<std::size_t>(c.best)].name.c_str(), c.deltaAicc,
                  c.deltaAicc < 2    ? "under 2: these points do not separate the two"
                  : c.deltaAicc < 10 ? "2 to 10: evidence for it, not decisive"
                                     : "over 10: decisive on these points");
    md += buf;
    return md;
}

}  // namespace ade
