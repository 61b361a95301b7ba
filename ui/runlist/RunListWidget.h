#pragma once
// The run table: one row per run of the RunStore (colour, name, experiment, state, iterations,
// the final, best and floor of a metric chosen above the table, a column per key parameter
// that differs between runs, and the key parameters in one line). Click a header to sort
// (numbers as numbers); a third click returns to the runs' order. The check box shows or hides
// a run on the charts; the name is editable in place; the context menu renames, duplicates into
// the form, exports, compares two runs' configs and deletes.
// The seeds of one group (RunRecord::group) sit under one group row that gives the final, best
// and floor as mean ± sd over its seeds (its tooltip lists every seed's values); the group's
// check box shows or hides all its seeds.
#include <QSet>
#include <QTimer>
#include <QTreeWidget>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runlist/RunListColumns.h"

class QComboBox;

namespace ade::ui {

class ConfigDiffDialog;
class RunStore;
struct RunRecord;

class RunListWidget : public QTreeWidget {
    Q_OBJECT
  public:
    enum Column { ColName, ColExperiment, ColState, ColIter, ColFinal, ColBest, ColFloor, NFixed };
    explicit RunListWidget(RunStore* store, QWidget* parent = nullptr);
    // In the table's order; a selected group row stands for all its seeds.
    QList<int> selectedRunIds() const;
    QTreeWidgetItem* itemForRun(int id) const;
    // The group row of the group `key` (RunRecord::groupKey); nullptr while it has one seed.
    QTreeWidgetItem* itemForGroup(const std::string& key) const;
    // The table with its metric chooser above it (the widget the window docks).
    QWidget* panel();
    QComboBox* metricCombo() const { return metric_; }
    std::string metric() const;  // the column whose final, best and floor are shown
    void setMetric(const std::string& column);
    // The keys of the parameter columns (those whose values differ between runs), in order;
    // keyColumn(key) is where one is (-1: not shown). The one-line summary follows them.
    const std::vector<std::string>& differingKeys() const { return keys_; }
    int keyColumn(const std::string& key) const;
    int paramsColumn() const { return NFixed + static_cast<int>(keys_.size()); }
    // "Compare configs…" of the two selected runs (non-modal; nullptr unless two are selected).
    ConfigDiffDialog* compareSelected();

  signals:
    void editRequested(int id);    // "edit and rerun": copy the run's config into the form
    void deleteRequested(int id);  // stop if active, then remove
    void exportRequested(int id);

  private:
    static bool isGroup(const QTreeWidgetItem* item);  // a seed group's row, not a run's
    void addRow(int id);
    void updateRow(int id);
    void updateProgress(int id);  // iteration and metric columns only
    void updateMetricCells(QTreeWidgetItem* item, const RunRecord& r);
    void removeRow(int id);
    // Puts a run's row under its group's row (made when the group gets its second seed), or
    // back at the top level when its group has one seed left.
    void placeRow(QTreeWidgetItem* item, const RunRecord& r);
    void updateGroupRow(QTreeWidgetItem* group);
    int storeIndex(const QTreeWidgetItem* item) const;  // for the runs' order
    void showMenu(const QPoint& pos);
    void syncMetrics();     // the chooser lists the metrics of the runs
    void syncKeyColumns();  // a column per key whose values differ between runs
    void restoreStoreOrder();
    // The content columns (experiment, state, iteration, the keys) fit their texts: widened
    // when a text needs more room, fitted exactly (`exact`) when rows or columns go. Once per
    // turn of the event loop (fitTimer_), not at every cell's change as QHeaderView's
    // ResizeToContents does (it re-measured every row at every new iteration number).
    void scheduleFit(bool exact = false);
    void fitColumns();

    RunStore* store_;
    bool updating_ = false;
    QComboBox* metric_ = nullptr;
    QWidget* panel_ = nullptr;
    std::vector<std::string> keys_;
    // New records update the iteration and metrics columns at most every 200 ms: the list
    // is read, not watched frame by frame, and each update repaints and re-measures it.
    QSet<int> progressPending_;
    QTimer progressTimer_;
    QTimer fitTimer_;
    // Each run's best so far of the chosen metric (by run id and column).
    std::map<std::pair<int, std::string>, BestSoFar> best_;
    MetricStats statsOf(const RunRecord& r);
    bool fitExact_ = false;
};

}  // namespace ade::ui
