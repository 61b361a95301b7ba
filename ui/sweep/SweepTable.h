#pragma once
// The sweep's results table: one row per config (the varied keys' values, the plan's run when it
// has several, mean ± sd of the objective over seeds, seeds done / failed, the successive-halving
// rung and its budget), sortable by any column (numbers sort as numbers), the best row in bold.
// An Optuna study's table: Trial, its params, Value and State (complete, pruned at iteration N,
// failed, running, waiting), sorted complete trials first; the best row the best complete trial.
// It keeps room for kMinRows rows and never cuts the objective's column (it scrolls instead).
// Selecting a row selects the config in the views; double-clicking opens its runs' curves.
#include <QTableWidget>

#include "sweep/SweepResults.h"

namespace ade::ui {

class SweepTable : public QTableWidget {
    Q_OBJECT
  public:
    static constexpr int kMinRows = 5;  // rows the table keeps room for, however small the tab

    explicit SweepTable(QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;

    void setResults(const SweepResults& results);
    // The config of a row (as sorted now), -1 when none.
    int configOfRow(int row) const;
    int selectedConfig() const;  // the current row's config, -1 when none
    void selectConfig(int index);

  signals:
    void configSelected(int index);
    void configActivated(int index);

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void fitColumns();  // the objective's column: the room left, at least its contents

    SweepResults results_;
    int meanColumn_ = -1, meanWidth_ = 0;
    bool filling_ = false;
    int userSort_ = -1;  // the column the user sorted by (-1: the objective, best first)
};

}  // namespace ade::ui
