#include "claims/Claims.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "claims/ClaimLaw.h"
#include "claims/ClaimRate.h"
#include "claims/ClaimStats.h"

namespace ade {

namespace {

const std::map<std::string, ClaimCheck>& checkNames() {
    static const std::map<std::string, ClaimCheck> m = {
        {"ratio", ClaimCheck::Ratio}, {"close", ClaimCheck::Close}, {"trend", ClaimCheck::Trend},
        {"floor", ClaimCheck::Floor}, {"reach", ClaimCheck::Reach}, {"slope", ClaimCheck::Slope},
        {"law", ClaimCheck::Law},     {"rate", ClaimCheck::Rate}};
    return m;
}
const std::map<std::string, ClaimStat>& statNames() {
    static const std::map<std::string, ClaimStat> m = {{"final", ClaimStat::Final},
                                                       {"best", ClaimStat::Best},
                                                       {"floor", ClaimStat::Floor},
                                                       {"initial", ClaimStat::Initial},
                                                       {"average", ClaimStat::Average}};
    return m;
}
const std::map<std::string, TrendDirection>& directionNames() {
    static const std::map<std::string, TrendDirection> m = {{"rising", TrendDirection::Rising},
                                                            {"falling", TrendDirection::Falling},
                                                            {"flat", TrendDirection::Flat}};
    return m;
}

template <class E>
std::string nameOf(const std::map<std::string, E>& names, E value) {
    for (const auto& [k, v] : names)
        if (v == value) return k;
    return "";
}

template <class E>
std::string choices(const std::map<std::string, E>& names) {
    std::string s;
    for (const auto& [k, v] : names)
        s += (s.empty() ? "" : ", ") + k;
    return s;
}

// The keys each check accepts beside id, text, paper, check, metric, min, max.
std::set<std::string> keysFor(ClaimCheck c) {
    switch (c) {
    case ClaimCheck::Ratio:
    case ClaimCheck::Close:
        return {"run", "other", "stat", "other_stat"};
    case ClaimCheck::Trend: return {"run", "direction", "window"};
    case ClaimCheck::Floor: return {"run", "other", "tol"};
    case ClaimCheck::Reach:
        return {"run", "other", "tol", "by"};
    case ClaimCheck::Slope: return {"run", "x", "stat"};
    case ClaimCheck::Law:
        return {"run", "law", "window"};
    case ClaimCheck::Rate: return {"run", "other", "tol", "by"};
    }
    return {};
}

bool validId(const std::string& id) {
    if (id.empty()) return false;
    return std::all_of(id.begin(), id.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
    });
}

}  // namespace

std::string checkName(ClaimCheck c) { return nameOf(checkNames(), c); }

std::string thresholdText(const ClaimThreshold& t) {
    const std::string from = t.from == "paper" ? "from the paper"
                             : t.from == "law" ? "from a derived law"
                                               : "a stated choice";
    return from + ": " + t.why;
}

std::string statusText(ClaimStatus s) {
    switch (s) {
    case ClaimStatus::Pending: return "pending";
    case ClaimStatus::Holds: return "holds";
    case ClaimStatus::DoesNotHold: return "does not hold";
    case ClaimStatus::Unavailable: return "unavailable";
    }
    return "";
}

std::optional<ClaimSpec> parseClaim(const nlohmann::json& j, std::string* error) {
    auto fail = [&](const std::string& m) -> std::optional<ClaimSpec> {
        if (error) *error = m;
        return std::nullopt;
    };
    if (!j.is_object()) return fail("a claim must be a JSON object");
    ClaimSpec c;
    auto str = [&](const char* key, std::string& out, bool required) -> bool {
        if (!j.contains(key)) return !required;
        if (!j.at(key).is_string()) return false;
        out = j.at(key).get<std::string>();
        return !(required && out.empty());
    };
    if (!str("id", c.id, true) || !validId(c.id))
        return fail("a claim needs an \"id\" of lower-case letters, digits and '-'");
    const std::string where = "claim '" + c.id + "': ";
    if (!str("text", c.text, true)) return fail(where + "needs a \"text\" string (the claim)");
    if (!str("paper", c.paper, true) || (c.paper != "A" && c.paper != "B"))
        return fail(where + "\"paper\" must be \"A\" or \"B\"");
    std::string check;
    if (!str("check", check, true) || !checkNames().count(check))
        return fail(where + "\"check\" must be one of " + choices(checkNames()));
    c.check = checkNames().at(check);
    if (!str("metric", c.metric, true)) return fail(where + "needs a \"metric\" (a column)");
    if (!str("run", c.run, true)) return fail(where + "needs a \"run\" (a run name of the preset)");

    std::set<std::string> allowed = {"id",  "text", "paper",   "check", "metric",
                                     "min", "max",  "control", "judge", "threshold"};
    for (const auto& k : keysFor(c.check))
        allowed.insert(k);
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!allowed.count(it.key()))
            return fail(where + "unknown field '" + it.key() + "' for a " + check + " check");

    auto num = [&](const char* key, double& out) -> bool {
        if (!j.contains(key)) return true;
        if (!j.at(key).is_number() || !std::isfinite(j.at(key).get<double>())) return false;
        out = j.at(key).get<double>();
        return true;
    };
    if (!num("min", c.min) || !num("max", c.max))
        return fail(where + "\"min\" and \"max\" must be numbers");
    if (c.min > c.max) return fail(where + "\"min\" is above \"max\"");
    if (!num("window", c.window) || !(c.window > 0 && c.window <= 1))
        return fail(where + "\"window\" must be a fraction in (0, 1]");
    if (!num("tol", c.tol) || !(c.tol >= 0))
        return fail(where + "\"tol\" must be a number ≥ 0");
    std::string stat = "final";
    if (!str("stat", stat, false) || !statNames().count(stat))
        return fail(where + "\"stat\" must be one of " + choices(statNames()));
    c.stat = statNames().at(stat);
    if (j.contains("other_stat")) {
        std::string os;
        if (!str("other_stat", os, true) || !statNames().count(os))
            return fail(where + "\"other_stat\" must be one of " + choices(statNames()));
        c.otherStat = statNames().at(os);
    }
    std::string direction = "rising";
    if (!str("direction", direction, false) || !directionNames().count(direction))
        return fail(where + "\"direction\" must be one of " + choices(directionNames()));
    c.direction = directionNames().at(direction);
    if (!str("other", c.other, false)) return fail(where + "\"other\" must be a run name");
    if (!str("x", c.x, false)) return fail(where + "\"x\" must be a key");
    if (!str("law", c.law, false)) return fail(where + "\"law\" must be a law's name");
    std::string judge = "seeds";
    if (!str("judge", judge, false) || (judge != "seeds" && judge != "mean" && judge != "geomean"))
        return fail(where +
                    "\"judge\" must be seeds (every seed in range), mean (the mean's "
                    "95% interval in range) or geomean (the geometric mean's)");
    if (judge != "seeds" && c.check == ClaimCheck::Slope)
        return fail(where + "a slope is one fit over every point: \"judge\" does not apply");
    if (judge == "geomean" && (c.check == ClaimCheck::Close || c.check == ClaimCheck::Trend))
        return fail(where + "\"judge\": \"geomean\" needs numbers above 0 (a ratio, floor, "
                            "reach, rate or law), not a signed " + check + " number");
    c.judgeMean = judge == "mean";
    c.judgeGeoMean = judge == "geomean";
    if (!str("by", c.by, false) ||
        (c.by != "data_passes" && c.by != "iteration" && c.by != "time_s"))
        return fail(where + "\"by\" must be data_passes, iteration or time_s");

    const bool hasMin = j.contains("min"), hasMax = j.contains("max");
    switch (c.check) {
    case ClaimCheck::Ratio:
        if (c.other.empty()) return fail(where + "a ratio needs \"other\" (the denominator run)");
        if (!hasMin && !hasMax) return fail(where + "a ratio needs \"min\" or \"max\"");
        break;
    case ClaimCheck::Close:
        if (c.other.empty()) return fail(where + "close needs \"other\" (the reference run)");
        if (!hasMax) return fail(where + "close needs \"max\" (the relative tolerance)");
        if (hasMin)
            return fail(where +
                        "close is symmetric: \"max\" is the tolerance either way, give no \"min\"");
        break;
    case ClaimCheck::Trend:
        if (c.direction == TrendDirection::Flat && !hasMax)
            return fail(where + "a flat trend needs \"max\" (the largest relative change)");
        if (c.direction == TrendDirection::Rising && !hasMin) c.min = 0;
        if (c.direction == TrendDirection::Falling && !hasMax) c.max = 0;
        break;
    case ClaimCheck::Floor:
        if (!hasMin && !hasMax) return fail(where + "floor needs \"min\" or \"max\"");
        break;
    case ClaimCheck::Reach:
        if (c.other.empty()) return fail(where + "reach needs \"other\" (the run compared)");
        if (!hasMin && !hasMax) return fail(where + "reach needs \"min\" or \"max\"");
        break;
    case ClaimCheck::Slope:
        if (c.x.empty()) return fail(where + "slope needs \"x\" (the swept key)");
        if (!hasMin && !hasMax) return fail(where + "slope needs \"min\" or \"max\"");
        break;
    case ClaimCheck::Law:
        if (c.law.empty()) return fail(where + "law needs \"law\" (a law of the experiment)");
        if (!hasMin && !hasMax) return fail(where + "law needs \"min\" or \"max\"");
        break;
    case ClaimCheck::Rate:
        if (!hasMin && !hasMax) return fail(where + "rate needs \"min\" or \"max\"");
        if (!(c.tol > 0 && c.tol < 1))
            return fail(where + "a rate's \"tol\" (where its fit stops, relative to the run's "
                                "limit) must lie in (0, 1)");
        break;
    }
    if (j.contains("threshold")) {
        const auto& t = j.at("threshold");
        const char* what =
            "\"threshold\" must be {\"from\": \"paper\" | \"law\" | \"choice\", \"why\": "
            "\"...\"}";
        if (!t.is_object() || t.size() != 2 || !t.contains("from") || !t.contains("why") ||
            !t.at("from").is_string() || !t.at("why").is_string())
            return fail(where + what);
        ClaimThreshold th{t.at("from").get<std::string>(), t.at("why").get<std::string>()};
        if ((th.from != "paper" && th.from != "law" && th.from != "choice") || th.why.empty())
            return fail(where + what);
        c.threshold = std::move(th);
    }
    if (j.contains("control")) {
        std::string e;
        c.control = parseControl(j.at("control"), c, &e);
        if (!c.control) return fail(where + e);
    }
    return c;
}

std::optional<std::vector<ClaimSpec>> parseClaims(const nlohmann::json& j, std::string* error) {
    if (!j.is_array()) {
        if (error) *error = "'claims' must be an array of claim objects";
        return std::nullopt;
    }
    std::vector<ClaimSpec> out;
    std::set<std::string> ids;
    for (std::size_t i = 0; i < j.size(); ++i) {
        std::string e;
        auto c = parseClaim(j[i], &e);
        if (!c) {
            if (error) *error = "claims[" + std::to_string(i) + "]: " + e;
            return std::nullopt;
        }
        if (!ids.insert(c->id).second) {
            if (error) *error = "claims[" + std::to_string(i) + "]: duplicate id '" + c->id + "'";
            return std::nullopt;
        }
        out.push_back(std::move(*c));
    }
    return out;
}

nlohmann::json toJson(const ClaimSpec& c) {
    nlohmann::json j = {{"id", c.id},         {"text", c.text}, {"paper", c.paper},
                        {"check", checkName(c.check)}, {"metric", c.metric}, {"run", c.run}};
    const auto keys = keysFor(c.check);
    if (keys.count("other") && !c.other.empty()) j["other"] = c.other;
    if (keys.count("stat")) j["stat"] = nameOf(statNames(), c.stat);
    if (c.otherStat) j["other_stat"] = nameOf(statNames(), *c.otherStat);
    if (keys.count("direction")) j["direction"] = nameOf(directionNames(), c.direction);
    if (keys.count("window")) j["window"] = c.window;
    if (keys.count("tol")) j["tol"] = c.tol;
    if (keys.count("by")) j["by"] = c.by;
    if (keys.count("x")) j["x"] = c.x;
    if (keys.count("law")) j["law"] = c.law;
    if (c.judgeMean) j["judge"] = "mean";
    if (c.judgeGeoMean) j["judge"] = "geomean";
    if (c.min > -1e300) j["min"] = c.min;
    if (c.max < 1e300) j["max"] = c.max;
    if (c.threshold) j["threshold"] = {{"from", c.threshold->from}, {"why", c.threshold->why}};
    if (c.control) j["control"] = toJson(*c.control);
    return j;
}

// ---- evaluation -------------------------------------------------------------------------

std::string claimNumber(double v) {
    char buf[32];
    const double a = std::fabs(v);
    if (v == 0)
        return "0";
    else if (a >= 1e4 || a < 1e-3)
        std::snprintf(buf, sizeof buf, "%.2e", v);
    else if (a >= 100)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (a >= 10)
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string claimRange(const ClaimSpec& c) {
    const bool lo = c.min > -1e300, hi = c.max < 1e300;
    if (lo && hi) return "needs " + claimNumber(c.min) + " to " + claimNumber(c.max);
    if (lo) return "needs ≥ " + claimNumber(c.min);
    if (hi) return "needs ≤ " + claimNumber(c.max);
    return "";
}

namespace {

std::string quantityName(const ClaimSpec& c) {
    switch (c.check) {
        case ClaimCheck::Ratio:
            // A run against its own start (or another statistic of other): say which two numbers.
            if (c.otherStat)
                return "ratio " + nameOf(statNames(), c.stat) + " " + c.metric + " of " + c.run +
                       " / " + nameOf(statNames(), *c.otherStat) + " " + c.metric + " of " +
                       c.other;
            return "ratio";
        case ClaimCheck::Close:
            return "relative difference";
        case ClaimCheck::Trend:
            return "change over the last " + claimNumber(c.window * 100) + "%";
        case ClaimCheck::Floor:
            return c.other.empty() ? "iteration" : "times sooner";
        case ClaimCheck::Reach:
            return "times sooner in " + std::string(c.by == "data_passes" ? "data passes"
                                                    : c.by == "iteration" ? "iterations"
                                                                          : "wall time");
        case ClaimCheck::Slope:
            return "slope";
        case ClaimCheck::Law:
            return "rate ÷ law";
        case ClaimCheck::Rate:
            return c.other.empty() ? "contraction" : "times faster contraction";
    }
    return "";
}

// The statistic over the first `count` records (all of them by default).
double statOf(const HistoryView& h, int col, ClaimStat s,
              std::size_t count = static_cast<std::size_t>(-1)) {
    const std::size_t n = std::min(count, h.size());
    if (n == 0) return NAN;
    switch (s) {
    case ClaimStat::Final: return h.at(n - 1, col);
    case ClaimStat::Initial: return h.at(0, col);
    case ClaimStat::Best: {
        double best = INFINITY;
        for (std::size_t i = 0; i < n; ++i)
            if (const double v = h.at(i, col); std::isfinite(v)) best = std::min(best, v);
        return std::isfinite(best) ? best : NAN;
    }
    case ClaimStat::Floor:
    case ClaimStat::Average: {
        const std::size_t tail = std::max<std::size_t>(1, s == ClaimStat::Floor ? n / 10 : n / 2);
        double sum = 0;
        for (std::size_t i = n - tail; i < n; ++i)
            sum += h.at(i, col);
        return sum / static_cast<double>(tail);
    }
    }
    return NAN;
}

// How many records of `h` lie at or before `iteration` (all of them when it has no iteration
// column).
std::size_t recordsUpTo(const HistoryView& h, double iteration) {
    const int it = h.column("iteration");
    if (it < 0) return h.size();
    // Records come in iteration order: a binary search (a live claim asks this of every run
    // several times a second, over 10^5 records and more).
    std::size_t lo = 0, hi = h.size();  // the first record past `iteration`
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (iteration < h.at(mid, it))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

// The records of a pair of runs to compare. Finished runs compare whole; while either still
// runs, both are cut at the last iteration both have reached, so a run that is ahead is not
// compared with one that has barely started ("the data so far" means the same iterations).
std::pair<std::size_t, std::size_t> comparableRecords(const ClaimRun& a, const ClaimRun& b) {
    const HistoryView& ha = a.history;
    const HistoryView& hb = b.history;
    if ((a.finished && b.finished) || ha.empty() || hb.empty())
        return {ha.size(), hb.size()};
    const int ia = ha.column("iteration"), ib = hb.column("iteration");
    if (ia < 0 || ib < 0) return {ha.size(), hb.size()};
    const double common = std::min(ha.last(ia), hb.last(ib));
    return {recordsUpTo(ha, common), recordsUpTo(hb, common)};
}

struct SeedValue {
    double value = NAN;
    bool inRange = false;
    // reach: the same ratio in the other two counts, and what did not reach the target
    double iterations = NAN, passes = NAN, seconds = NAN, target = NAN;
    bool runMissed = false, otherMissed = false;
};

// reach: the first record of `h` at or below `target`, as (row index) or -1.
long firstAtOrBelow(const HistoryView& h, int col, double target, std::size_t count) {
    for (std::size_t i = 0; i < std::min(count, h.size()); ++i)
        if (h.at(i, col) <= target) return static_cast<long>(i);
    return -1;
}

// reach: x(other) / x(run) in column `by` (a first record at 0 counts as one record interval;
// `other` not reaching: its last record, a lower bound; `run` not reaching: 0).
double reachRatio(const HistoryView& a, long ia, const HistoryView& b, long ib,
                  const std::string& by) {
    const int ca = a.column(by), cb = b.column(by);
    if (ca < 0 || cb < 0) return NAN;
    if (ia < 0) return 0.0;
    const auto at = [](const HistoryView& h, long i, int c) {
        return h.at(static_cast<std::size_t>(i), c);
    };
    double xa = at(a, ia, ca);
    if (xa <= 0 && a.size() > 1) xa = at(a, 1, ca);
    const double xb = at(b, ib < 0 ? static_cast<long>(b.size()) - 1 : ib, cb);
    return xa > 0 ? xb / xa : NAN;
}

// The runs of one label, by seed and sweep point (a run pairs with the other run of the same
// seed and sweep values).
std::map<std::string, const ClaimRun*> bySeed(const std::vector<ClaimRun>& runs,
                                              const std::string& label) {
    std::map<std::string, const ClaimRun*> out;
    for (const auto& r : runs) {
        if (r.label != label || !r.history) continue;
        std::string key = std::to_string(r.seed);
        for (const auto& [k, v] : r.varied)
            key += "|" + k + "=" + v;
        out.emplace(key, &r);
    }
    return out;
}

}  // namespace

bool symmetricRange(const ClaimSpec& c) {
    return c.check == ClaimCheck::Close ||
           (c.check == ClaimCheck::Trend && c.direction == TrendDirection::Flat);
}

bool inClaimRange(const ClaimSpec& c, double v) {
    if (!std::isfinite(v)) return false;
    return symmetricRange(c) ? std::fabs(v) <= c.max : v >= c.min && v <= c.max;
}

ClaimResult judgeClaim(const ClaimSpec& c, ClaimResult res, bool allFinished, double scale,
                       const std::string& unit, std::string text) {
    bool holds = res.seedsInRange == res.seeds;
    if (c.judgeMean) {
        // Strictly inside: an interval that only touches the bound (a control whose two runs are
        // the same run, every seed's ratio exactly 1) shows no effect beyond it.
        const double lo = symmetricRange(c) ? -c.max : c.min;
        holds = std::isfinite(res.meanLo) && res.meanLo > lo && res.meanHi < c.max;
        if (std::isfinite(res.meanLo))
            text += "; judged on the mean: its 95% CI " + claimNumber(res.meanLo * scale) + unit +
                    " to " + claimNumber(res.meanHi * scale) + unit + " must lie strictly inside the range";
        else
            text += "; judged on the mean, whose interval needs two or more seeds";
    } else if (c.judgeGeoMean) {
        holds = std::isfinite(res.geoLo) && res.geoLo > c.min && res.geoHi < c.max;
        if (std::isfinite(res.geoLo))
            text += "; judged on the geometric mean " + claimNumber(res.geoMean * scale) + unit +
                    ": its 95% CI " + claimNumber(res.geoLo * scale) + unit + " to " +
                    claimNumber(res.geoHi * scale) + unit + " must lie strictly inside the range";
        else if (res.seeds > 1)
            text += "; judged on the geometric mean, undefined here: a seed's number is 0, "
                    "negative or undefined (it does not hold)";
        else
            text += "; judged on the geometric mean, whose interval needs two or more seeds";
    }
    res.measured = text;
    if (!allFinished) {
        res.status = ClaimStatus::Pending;
        res.detail = "runs still going";
    } else if ((c.judgeMean && !std::isfinite(res.meanLo)) ||
               (c.judgeGeoMean && res.seeds < 2)) {
        res.status = ClaimStatus::Unavailable;
        res.detail = "judged on the seeds' mean: needs two or more seeds (has " +
                     std::to_string(res.seeds) + ")";
    } else {
        res.status = holds ? ClaimStatus::Holds : ClaimStatus::DoesNotHold;
    }
    return res;
}

namespace {
ClaimResult measureClaim(const ClaimSpec& c, const std::vector<ClaimRun>& runs);
}

namespace {
std::vector<ClaimCompute> computeOf(const ClaimSpec& c, const std::vector<ClaimRun>& runs) {
    std::vector<ClaimCompute> out;
    std::vector<std::string> labels = {c.run};
    if (!c.other.empty() && c.other != c.run) labels.push_back(c.other);
    for (const auto& label : labels) {
        ClaimCompute cc;
        cc.run = label;
        double passes = 0, seconds = 0;
        int withPasses = 0, withSeconds = 0;
        for (const auto& r : runs) {
            if (r.label != label || !r.history || r.history.empty()) continue;
            const HistoryView& h = r.history;
            ++cc.runs;
            cc.iterations += h.last(0);
            if (const int t = h.column("time_s"); t >= 0) seconds += h.last(t), ++withSeconds;
            if (const int p = h.column("data_passes"); p >= 0) passes += h.last(p), ++withPasses;
        }
        if (cc.runs == 0) continue;
        cc.iterations /= cc.runs;
        if (withPasses > 0) cc.passes = passes / withPasses;
        if (withSeconds > 0) cc.seconds = seconds / withSeconds;
        out.push_back(cc);
    }
    return out;
}
}  // namespace

std::string computeText(const std::vector<ClaimCompute>& compute) {
    std::string s;
    for (const auto& c : compute) {
        s += (s.empty() ? "" : "; ") + c.run + " " + std::to_string(std::llround(c.iterations)) + " it";
        if (std::isfinite(c.passes)) s += ", " + claimNumber(c.passes) + " passes";
        if (std::isfinite(c.seconds)) s += ", " + claimNumber(c.seconds) + " s";
    }
    if (!compute.empty() && compute.front().runs > 1)
        s += " (means of " + std::to_string(compute.front().runs) + " runs each)";
    return s;
}

ClaimResult evaluateClaim(const ClaimSpec& c, const std::vector<ClaimRun>& runs) {
    ClaimResult res = measureClaim(c, runs);
    // Runs that stopped at their cap before their stopping rule: their numbers are not
    // converged values, and the claim says how many there were.
    int used = 0, capped = 0;
    for (const auto& r : runs)
        if (r.label == c.run || (!c.other.empty() && r.label == c.other)) {
            ++used;
            capped += r.capped ? 1 : 0;
        }
    res.compute = computeOf(c, runs);
    if (capped > 0 && res.status != ClaimStatus::Unavailable) {
        res.capped = capped;
        res.measured += "; " + std::to_string(capped) + " of " + std::to_string(used) +
                        " runs reached their iteration cap before the stopping rule (not "
                        "converged)";
    }
    return res;
}

namespace {
ClaimResult measureClaim(const ClaimSpec& c, const std::vector<ClaimRun>& runs) {
    ClaimResult res;
    auto unavailable = [&](const std::string& why) {
        res.status = ClaimStatus::Unavailable;
        res.detail = why;
        res.measured = why;
        return res;
    };
    const auto mine = bySeed(runs, c.run);
    if (mine.empty()) return unavailable("no run '" + c.run + "'");
    std::map<std::string, const ClaimRun*> others;
    const bool paired = c.check == ClaimCheck::Ratio || c.check == ClaimCheck::Close ||
                        c.check == ClaimCheck::Reach ||
                        ((c.check == ClaimCheck::Floor || c.check == ClaimCheck::Rate) &&
                         !c.other.empty());
    if (paired) {
        others = bySeed(runs, c.other);
        if (others.empty()) return unavailable("no run '" + c.other + "'");
    }
    bool allFinished = true;
    for (const auto& r : runs)
        if ((r.label == c.run || (paired && r.label == c.other)) && !r.finished)
            allFinished = false;

    auto inRange = [&](double v) { return inClaimRange(c, v); };

    if (c.check == ClaimCheck::Law) {
        std::vector<const ClaimRun*> seeds;
        for (const auto& [key, r] : mine)
            seeds.push_back(r);
        return evaluateLawClaim(c, seeds, allFinished);
    }
    if (c.check == ClaimCheck::Rate) return evaluateRateClaim(c, mine, others, allFinished);

    if (c.check == ClaimCheck::Slope) {
        // Every point of the sweep of this run: all its grid values and seeds.
        std::vector<double> lx, ly;
        for (const auto& r : runs) {
            if (r.label != c.run || !r.history) continue;
            const int col = r.history.column(c.metric);
            if (col < 0 || r.history.empty()) continue;
            double x = NAN;
            for (const auto& [k, v] : r.varied)
                if (k == c.x) x = std::strtod(v.c_str(), nullptr);
            const double y = statOf(r.history, col, c.stat);
            if (x > 0 && y > 0 && std::isfinite(y))
                lx.push_back(std::log(x)), ly.push_back(std::log(y));
        }
        bool anyMetric = false, anyRecord = false;
        for (const auto& r : runs)
            if (r.label == c.run && r.history && !r.history.empty()) {
                anyRecord = true;
                anyMetric = anyMetric || r.history.column(c.metric) >= 0;
            }
        if (!anyRecord) {
            res.status = ClaimStatus::Pending;
            res.detail = res.measured = "waiting for data";
            return res;
        }
        if (!anyMetric) return unavailable("no metric '" + c.metric + "' in run '" + c.run + "'");
        std::set<double> distinct(lx.begin(), lx.end());
        if (distinct.size() < 2)
            return unavailable("a slope needs runs at two or more values of " + c.x);
        const LineFit f = fitLine(lx, ly);
        res.value = f.slope;
        res.sd = f.slopeSe;
        res.lo = f.slope - f.ci95;
        res.hi = f.slope + f.ci95;
        res.seeds = static_cast<int>(lx.size());
        // Judged on the interval, as a mean is: the whole 95% CI strictly inside (min, max), so
        // that a point estimate that lands inside by chance (a wide CI across a bound) does not
        // hold, nor an interval that only touches a bound.
        const bool ciInside = std::isfinite(f.ci95) && res.lo > c.min && res.hi < c.max;
        res.seedsInRange = ciInside ? res.seeds : 0;
        res.measured = "slope " + claimNumber(f.slope) + " (95% CI " + claimNumber(res.lo) +
                       " to " + claimNumber(res.hi) + ", R² " + claimNumber(f.r2) + ", " +
                       std::to_string(res.seeds) + " points; " + claimRange(c) +
                       "; its 95% CI must lie strictly inside the range)";
        res.status = !allFinished ? ClaimStatus::Pending
                     : ciInside   ? ClaimStatus::Holds
                                  : ClaimStatus::DoesNotHold;
        if (res.status == ClaimStatus::Pending) res.detail = "sweep still running";
        return res;
    }

    std::vector<SeedValue> values;
    for (const auto& [seed, r] : mine) {
        const HistoryView& h = r->history;
        if (h.empty()) continue;  // no record yet: waiting, not missing
        const int col = h.column(c.metric);
        if (col < 0) return unavailable("no metric '" + c.metric + "' in run '" + c.run + "'");
        const ClaimRun* o = nullptr;
        int ocol = -1;
        if (paired) {
            const auto it = others.find(seed);
            if (it == others.end()) continue;  // pair by seed only
            o = it->second;
            if (o->history.empty()) continue;
            ocol = o->history.column(c.metric);
            if (ocol < 0)
                return unavailable("no metric '" + c.metric + "' in run '" + c.other + "'");
        }
        SeedValue sv;
        switch (c.check) {
        case ClaimCheck::Ratio: {
            const auto [na, nb] = comparableRecords(*r, *o);
            const double a = statOf(h, col, c.stat, na),
                         b = statOf(o->history, ocol, c.otherStat.value_or(c.stat), nb);
            sv.value = b != 0 ? a / b : NAN;
            sv.inRange = inRange(sv.value);
            break;
        }
        case ClaimCheck::Close: {
            const auto [na, nb] = comparableRecords(*r, *o);
            const double a = statOf(h, col, c.stat, na),
                         b = statOf(o->history, ocol, c.otherStat.value_or(c.stat), nb);
            // Signed: above 0 when `run` is the higher. Within ±max.
            sv.value = b != 0 ? (a - b) / std::fabs(b) : NAN;
            sv.inRange = inRange(sv.value);
            break;
        }
        case ClaimCheck::Trend: {
            const TrendFit t = fitTrend(h, col, c.window);
            sv.value = t.relativeChange;
            sv.inRange = inRange(sv.value);
            if (c.direction == TrendDirection::Rising) sv.inRange = sv.inRange && t.t >= 2;
            if (c.direction == TrendDirection::Falling) sv.inRange = sv.inRange && t.t <= -2;
            break;
        }
        case ClaimCheck::Floor: {
            const double it = floorIteration(h, col, c.tol);
            if (!o) {
                sv.value = it;
            } else {
                // Reaching the floor at the first record counts as one logging interval.
                const double oit = floorIteration(o->history, ocol, c.tol);
                const double step = h.size() > 1 ? h.at(1, 0) - h.at(0, 0) : 1.0;
                sv.value = oit / std::max(it, std::max(step, 1.0));
            }
            sv.inRange = inRange(sv.value);
            break;
        }
        case ClaimCheck::Reach: {
            if (c.by == "data_passes" && h.column("data_passes") < 0)
                return unavailable("no column data_passes in run '" + c.run +
                                   "' (written before the trainer counted passes)");
            const auto [na, nb] = comparableRecords(*r, *o);
            const double fa = statOf(h, col, ClaimStat::Floor, na);
            const double fb = statOf(o->history, ocol, ClaimStat::Floor, nb);
            const double better = std::min(fa, fb);
            sv.target = better + c.tol * std::fabs(better);
            const long ia = firstAtOrBelow(h, col, sv.target, na);
            const long ib = firstAtOrBelow(o->history, ocol, sv.target, nb);
            sv.runMissed = ia < 0;
            sv.otherMissed = ib < 0;
            sv.passes = reachRatio(h, ia, o->history, ib, "data_passes");
            sv.iterations = reachRatio(h, ia, o->history, ib, "iteration");
            sv.seconds = reachRatio(h, ia, o->history, ib, "time_s");
            sv.value = c.by == "iteration" ? sv.iterations
                       : c.by == "time_s"  ? sv.seconds
                                           : sv.passes;
            sv.inRange = inRange(sv.value);
            break;
        }
        case ClaimCheck::Slope:
        case ClaimCheck::Law:
        case ClaimCheck::Rate:
            break;  // measured above
        }
        values.push_back(sv);
    }
    if (values.empty()) {
        res.status = ClaimStatus::Pending;
        res.detail = "waiting for data";
        res.measured = "waiting for data";
        return res;
    }
    std::vector<double> numbers;
    for (const auto& v : values) {
        res.seedsInRange += v.inRange;
        numbers.push_back(v.value);
    }
    res.seeds = static_cast<int>(values.size());
    const SeedSummary summary = summariseSeeds(numbers);
    applySummary(summary, res);
    const int finite = summary.finite;

    std::string text = quantityName(c) + " " + claimNumber(res.value);
    if (c.check == ClaimCheck::Trend || c.check == ClaimCheck::Close)
        text =
            quantityName(c) + " " + (res.value > 0 ? "+" : "") + claimNumber(res.value * 100) + "%";
    if (res.seeds > 1) {
        const bool pct = c.check == ClaimCheck::Trend || c.check == ClaimCheck::Close;
        const double k = pct ? 100 : 1;
        text += " ± " + claimNumber(res.sd * k) + (pct ? "%" : "") + " (" +
                std::to_string(res.seeds) + " seeds, " + claimNumber(res.lo * k) + " to " +
                claimNumber(res.hi * k) + (pct ? "%" : "") + ")";
    }
    if (finite < res.seeds) text += " (" + std::to_string(res.seeds - finite) + " undefined)";
    const std::string range = claimRange(c);
    if (!range.empty()) {
        if (c.check == ClaimCheck::Trend || c.check == ClaimCheck::Close) {
            const bool lo2 = c.min > -1e300, hi2 = c.max < 1e300;
            std::string r;
            if (symmetricRange(c))
                r = "needs within ±" + claimNumber(c.max * 100) + "%";
            else if (lo2 && hi2)
                r = "needs " + claimNumber(c.min * 100) + "% to " + claimNumber(c.max * 100) + "%";
            else if (lo2)
                r = "needs ≥ " + claimNumber(c.min * 100) + "%";
            else
                r = "needs ≤ " + claimNumber(c.max * 100) + "%";
            if (c.check == ClaimCheck::Trend && c.direction != TrendDirection::Flat && !c.judgeMean)
                r += ", t ≥ 2";
            text += "; " + r;
        } else {
            text += "; " + range;
        }
    }
    if (c.check == ClaimCheck::Reach) {
        // The other two counts beside the one the claim is judged by, the target, and every
        // run that never came down to it.
        auto meanOf = [&](double SeedValue::*m) {
            double sum2 = 0;
            int n2 = 0;
            for (const auto& v : values)
                if (std::isfinite(v.*m)) sum2 += v.*m, ++n2;
            return n2 ? sum2 / n2 : NAN;
        };
        std::string beside;
        if (c.by != "data_passes")
            beside += "data passes " + claimNumber(meanOf(&SeedValue::passes)) + "×";
        if (c.by != "iteration")
            beside += std::string(beside.empty() ? "" : ", ") + "iterations " +
                      claimNumber(meanOf(&SeedValue::iterations)) + "×";
        if (c.by != "time_s")
            beside += std::string(beside.empty() ? "" : ", ") + "wall time " +
                      claimNumber(meanOf(&SeedValue::seconds)) + "×";
        int runMissed = 0, otherMissed = 0;
        for (const auto& v : values)
            runMissed += v.runMissed, otherMissed += v.otherMissed;
        text += "; " + beside + "; target " + claimNumber(meanOf(&SeedValue::target)) + " (" +
                claimNumber(c.tol * 100) + "% above the better floor)";
        if (runMissed)
            text += "; " + c.run + " never reaches it in " + std::to_string(runMissed) + " of " +
                    std::to_string(res.seeds) + " seeds";
        if (otherMissed)
            text += "; " + c.other + " never reaches it in " + std::to_string(otherMissed) +
                    " of " + std::to_string(res.seeds) + " seeds (its whole run: a lower bound)";
    }
    if (res.seedsInRange < res.seeds && res.seeds > 1)
        text += "; " + std::to_string(res.seedsInRange) + "/" + std::to_string(res.seeds) +
                " seeds in range";
    const bool pct = c.check == ClaimCheck::Trend || c.check == ClaimCheck::Close;
    return judgeClaim(c, res, allFinished, pct ? 100 : 1, pct ? "%" : "", text);
}
}  // namespace

}  // namespace ade
