#include <algorithm>
#include <map>
#include <set>

#include "charts/ChartPanel.h"
#include "runs/RunStore.h"
#include "experiments/ExperimentRegistry.h"
#include "experiments/MetricInfo.h"

namespace ade::ui {

bool ChartSpec::accepts(const std::string& experiment, const std::string& column) const {
    return QString::fromStdString(ade::describeColumn(experiment, column).chart) == id;
}

ChartSpec chartSpec(const ade::ChartInfo& info) {
    return {QString::fromStdString(info.id), QString::fromStdString(info.title),
            QString::fromStdString(info.units), info.scale, info.shownByDefault};
}

ChartSpec chartSpec(const std::string& id) {
    return chartSpec(ade::chartInfo(id));
}

namespace {

// The charts of `experiments` in the first one's order, then the others' new ones, and one for
// each chart id in `used` that none of them lists (unknown columns). A chart two experiments
// title differently ("Weight norms ‖W_Q‖_F, ‖W_K‖_F" for B, "… ‖U‖_F, ‖V‖_F" for C) takes the
// shared chart's generic title when runs of both are drawn on it.
std::vector<ChartSpec> chartsOfExperiments(const std::vector<std::string>& experiments,
                                           const std::vector<std::string>& used) {
    std::vector<ChartSpec> out;
    std::map<std::string, std::set<std::string>> titles;
    for (const std::string& e : experiments)
        for (const ade::ChartInfo& c : ade::chartsOf(e)) {
            if (titles[c.id].empty()) out.push_back(chartSpec(c));
            titles[c.id].insert(c.title);
        }
    for (const std::string& id : used)
        if (!titles.count(id)) {
            out.push_back(chartSpec(ade::chartInfo(id)));
            titles[id].insert(out.back().title.toStdString());
        }
    for (ChartSpec& s : out)
        if (titles[s.id.toStdString()].size() > 1 && ade::isSharedChart(s.id.toStdString()))
            s.title = QString::fromStdString(ade::sharedChart(s.id.toStdString()).title);
    return out;
}

// The chart ids `run`'s columns go to (a run without columns yet: its experiment's charts).
void addUsedCharts(const RunRecord& run, std::vector<std::string>& used) {
    auto add = [&](const std::string& id) {
        if (!id.empty() && std::find(used.begin(), used.end(), id) == used.end()) used.push_back(id);
    };
    const std::string e = run.config.experiment();
    if (run.columns.empty()) {
        for (const ade::ChartInfo& c : ade::chartsOf(e))
            add(c.id);
        return;
    }
    for (const std::string& column : run.columns)
        add(ade::describeColumn(e, column).chart);
}

void addUnique(std::vector<std::string>& list, const std::string& e) {
    if (std::find(list.begin(), list.end(), e) == list.end()) list.push_back(e);
}

}  // namespace

std::vector<ChartSpec> chartSpecsFor(const std::vector<std::string>& experiments,
                                     const RunStore* runs, bool onlyWithData) {
    std::vector<std::string> exps = experiments;
    std::vector<std::string> used;
    if (runs)
        for (const auto& r : runs->runs()) {
            if (!r->columns.empty()) addUsedCharts(*r, used);
            if (onlyWithData && !r->columns.empty()) addUnique(exps, r->config.experiment());
        }
    std::vector<ChartSpec> out = chartsOfExperiments(exps, used);
    if (onlyWithData)
        std::erase_if(out, [&](const ChartSpec& s) {
            return std::find(used.begin(), used.end(), s.id.toStdString()) == used.end();
        });
    return out;
}

std::vector<ChartSpec> liveChartSpecs(const std::string& formExperiment, const RunStore& runs) {
    std::vector<std::string> exps, used;
    for (const auto& r : runs.runs()) {
        if (!r->visible) continue;
        addUnique(exps, r->config.experiment());
        addUsedCharts(*r, used);
    }
    if (exps.empty()) return chartsOfExperiments({formExperiment}, {});
    // The form's experiment leads the order when its runs are drawn.
    if (const auto it = std::find(exps.begin(), exps.end(), formExperiment); it != exps.end())
        std::rotate(exps.begin(), it, it + 1);
    std::vector<ChartSpec> out = chartsOfExperiments(exps, used);
    std::erase_if(out, [&](const ChartSpec& s) {
        return std::find(used.begin(), used.end(), s.id.toStdString()) == used.end();
    });
    return out;
}

QString metricLabel(const std::string& experiment, const std::string& column) {
    return QString::fromStdString(ade::describeColumn(experiment, column).label);
}

}  // namespace ade::ui
