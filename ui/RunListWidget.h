#pragma once
// The run list: one row per run of the RunStore (colour, name, state, iterations, final
// metrics, key parameters). The check box shows or hides a run on the charts; the name is
// editable in place; the context menu renames, duplicates into the form, exports and deletes.
#include <QSet>
#include <QTimer>
#include <QTreeWidget>

namespace ade::ui {

class RunStore;

class RunListWidget : public QTreeWidget {
    Q_OBJECT
  public:
    explicit RunListWidget(RunStore* store, QWidget* parent = nullptr);
    QList<int> selectedRunIds() const;
    QTreeWidgetItem* itemForRun(int id) const;

  signals:
    void editRequested(int id);    // "edit and rerun": copy the run's config into the form
    void deleteRequested(int id);  // stop if active, then remove
    void exportRequested(int id);

  private:
    void addRow(int id);
    void updateRow(int id);
    void updateProgress(int id);  // iteration and final metrics only
    void removeRow(int id);
    void showMenu(const QPoint& pos);

    RunStore* store_;
    bool updating_ = false;
    // New records update the iteration and metrics columns at most every 200 ms: the list
    // is read, not watched frame by frame, and each update repaints and re-measures it.
    QSet<int> progressPending_;
    QTimer progressTimer_;
};

}  // namespace ade::ui
