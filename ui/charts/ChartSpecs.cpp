#include <set>

#include "charts/ChartPanel.h"
#include "runs/RunStore.h"
#include "experiments/ExperimentRegistry.h"

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

std::vector<ChartSpec> chartSpecsFor(const std::vector<std::string>& experiments,
                                     const RunStore* runs, bool onlyWithData) {
    std::vector<ChartSpec> out;
    std::set<std::string> ids;
    auto add = [&](const ade::ChartInfo& c) {
        if (ids.insert(c.id).second) out.push_back(chartSpec(c));
    };
    for (const std::string& e : experiments)
        for (const ade::ChartInfo& c : ade::chartsOf(e))
            add(c);
    std::set<std::string> used;  // chart ids that some run's column goes to
    if (runs)
        for (const auto& r : runs->runs())
            for (const std::string& column : r->columns) {
                const ade::MetricInfo m = ade::describeColumn(r->config.experiment(), column);
                if (m.chart.empty()) continue;
                used.insert(m.chart);
                if (!ids.count(m.chart)) add(ade::chartInfo(m.chart));
            }
    if (onlyWithData)
        std::erase_if(out, [&](const ChartSpec& s) { return !used.count(s.id.toStdString()); });
    return out;
}

QString metricLabel(const std::string& experiment, const std::string& column) {
    return QString::fromStdString(ade::describeColumn(experiment, column).label);
}

}  // namespace ade::ui
