#pragma once
// The sweep tab of the window: the sweep view in a scroll area (it scrolls rather than widen the
// window beyond a 1024-px screen), and its side of the window: a config clicked in a sweep view
// comes into the run list (its seeds as one group) and is selected in the charts (runs of other
// experiments leave the charts), "Apply to
// form" copies a config's values into the parameter panel, "Open sweep folder…" and "Open
// Optuna study…" (an Optuna storage's trials, read-only).
#include <QScrollArea>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "plan/PlanRunner.h"

namespace ade::ui {

class ChartArea;
class ParamForm;
class RunListWidget;
class RunStore;
class SweepView;

class SweepTab : public QScrollArea {
    Q_OBJECT
  public:
    SweepTab(RunStore* store, RunListWidget* runList, ChartArea* charts, ParamForm* form,
             QWidget* parent = nullptr);
    SweepView* view() const { return view_; }
    // Shows a sweep folder (asks for it when `dir` is empty); false when none is shown.
    bool openFolder(const QString& dir = {});
    // Shows an Optuna study's storage read-only (asks for the file when `path` is empty:
    // SQLite .db/.sqlite3 or a journal .log/.journal), study `study` of it (the first when
    // empty), bringing the tab to the front; false (with why in `error`) when none is shown.
    bool openOptunaStudy(const QString& path = {}, const QString& study = {},
                         QString* error = nullptr);
    // A config's runs in the run list and the charts (a second click selects them again); runs
    // of other experiments are hidden from the charts (they stay in the list).
    void showRuns(const std::vector<ade::RunOutcome>& runs, const QString& label);
    // A config's values into the form; says what was applied and what was refused.
    void applyValues(const std::vector<std::pair<std::string, std::string>>& values);

  signals:
    void showRequested();        // bring this tab to the front
    void showChartsRequested();  // bring the live charts to the front
    void message(const QString& text, int ms);

  private:
    RunStore* store_;
    RunListWidget* runList_;
    ChartArea* charts_;
    ParamForm* form_;
    SweepView* view_;
    // Sweep configs whose runs are in the run list (their label -> the runs' ids), so a second
    // click selects them instead of adding them again; cleared when a sweep starts.
    std::map<QString, std::vector<int>> shownRuns_;
};

}  // namespace ade::ui
