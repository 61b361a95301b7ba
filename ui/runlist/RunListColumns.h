#pragma once
// What the run table's columns hold, apart from the widget: the runs' metrics and their final,
// best and floor values, the keys whose values differ between runs, numeric sorting and the
// colour swatch.
#include <QIcon>
#include <QString>
#include <QTreeWidgetItem>

#include <string>
#include <utility>
#include <cmath>
#include <vector>

namespace ade::ui {

class RunStore;

// Numeric value of a cell, used to sort (NaN: no value, sorted last either way).
inline constexpr int kSortRole = Qt::UserRole + 2;
// A group row of the table holds its group key in this role (and no run id).
inline constexpr int kGroupRole = Qt::UserRole + 3;
inline bool isGroupRow(const QTreeWidgetItem* item, int nameColumn) {
    return item && item->data(nameColumn, kGroupRole).isValid();
}

// A row that sorts numbers as numbers (kSortRole), cells without a value last in either
// order, and text as a person reads it.
class RunItem : public QTreeWidgetItem {
  public:
    bool operator<(const QTreeWidgetItem& other) const override;
};

// Final, best (lowest finite) and floor (mean of the last 10 % of records) of one column, as
// the run folders' summary.json has them; NaN when there is no value.
struct MetricStats {
    double final, best, floor;
};
MetricStats metricStats(const std::vector<double>& values);
// The same for a column that only grows: `scan` remembers the lowest value of the records
// already read, so a live run's best costs its new records, not all of them at every update (a
// column that got shorter, a run started again, is read again from its start).
struct BestSoFar {
    std::size_t read = 0;
    double best = INFINITY;
};
MetricStats metricStats(const std::vector<double>& values, BestSoFar& scan);

// Every charted column of the store's runs (not the iteration or the wall time) with its
// label from the run's experiment's descriptions: (column, label), in order of appearance.
std::vector<std::pair<std::string, QString>> runMetrics(const RunStore& store);

// The keys (registry order, "experiment" left out) whose values differ between the runs that
// use them: Adam's β of an Adam run beside a gd run is no difference (the optimiser is one).
std::vector<std::string> differingKeys(const RunStore& store, std::size_t max);

// The run's colour in the shape of its second cue (RunMarker).
QIcon runSwatch(int colorIndex);

}  // namespace ade::ui
