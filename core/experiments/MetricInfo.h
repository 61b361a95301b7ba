#pragma once
// What an experiment's metric columns mean, and which chart draws them. Each experiment lists
// its columns' descriptions and its charts (ExperimentInfo::metrics, ::charts); the GUI's charts,
// legends and hover text, the exported figures' axis labels, the CSV exports' header comments
// and the run folders' summary.json are all rendered from these, so a column name
// ("norm_WQ") never reaches a person where a phrase ("‖W_Q‖_F") should.
//
// Rules (checked by tst_metric_info for every experiment):
// - every column a Problem reports has a description, and every description's chart exists;
// - the metrics of one chart share their units (one axis, one quantity);
// - a signed metric is never drawn on a log axis by default (linear or symmetric log);
// - labels are phrases with their symbol, never the column name.
#include <string>
#include <vector>

namespace ade {

// How a chart's y axis reads by default. SymLog: sign(y) log10(1 + |y|/c), for signed
// quantities that span decades (the Villani expression).
enum class AxisScale { Log, Linear, SymLog };
const char* toString(AxisScale s);

struct MetricInfo {
    std::string column;   // the CSV column ("norm_WQ")
    std::string label;    // a phrase with its symbol ("‖W_Q‖_F, query factor")
    std::string units;    // the quantity and its units; the chart's y axis reads this
    std::string chart;    // id of the chart that draws it; empty: not charted (time)
    bool isSigned = false;   // may be negative (a log axis would hide it)
    bool logSuits = true;    // spans decades: a log (or symmetric log) axis reads it best
    std::string meaning;  // one line: what it measures and what to look for
};

struct ChartInfo {
    std::string id;       // stable name (settings, file names of exported figures)
    std::string title;    // shown above the plot
    std::string units;    // the y axis label (the units its metrics share)
    AxisScale scale = AxisScale::Log;
    bool shownByDefault = true;  // in the chart grid at first; the others from View > Charts
};

// The columns every trainer adds (iteration, time_s, step_size, reg_value, data_passes) and the
// charts they go to ("step", "regulariser"); an experiment lists them after its own.
const std::vector<MetricInfo>& trainerMetrics();

// Charts most experiments share, by id ("loss", "gap", "norms", "manifold", "manifold_rel",
// "imbalance", "step", "regulariser", "villani"); an experiment picks them with
// sharedChart(id, shown) and may add its own ChartInfo.
ChartInfo sharedChart(const std::string& id, bool shown = true);
// Whether `id` is one of those shared charts (its generic title is then sharedChart(id).title:
// "Weight norms" where B says "Weight norms ‖W_Q‖_F, ‖W_K‖_F" and C "‖U‖_F, ‖V‖_F").
bool isSharedChart(const std::string& id);

// The charts of Paper B's factor-pair experiments (B, C): loss, weight norms, distance to the
// balanced teacher factors and the gap shown; imbalance, relative distance, Villani, step and
// regulariser one click away.
std::vector<ChartInfo> factorPairCharts();

// Descriptions of columns that several experiments report the same way: "train_loss",
// "test_loss", "gen_gap", "manifold_distance_rel", "villani". An experiment may override the
// label or meaning of the copy it gets.
MetricInfo sharedMetric(const std::string& column);

// A "norm_<X>" metric: "‖<symbol>‖_F" in the weight-norm chart.
MetricInfo normMetric(const std::string& column, const std::string& symbol,
                      const std::string& role);

}  // namespace ade
