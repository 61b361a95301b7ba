#pragma once
// What the run commands do (Start, Play/Pause, Step, Stop, Reset, Re-seed, a preset from the
// menu, Edit and Delete in the run list): they read the form, act on the workspace (which holds
// the batch, seeds and claims and calls core) and report in the status bar. The window binds its
// actions, buttons and shortcuts to them; tests call them directly.
#include <QObject>
#include <QString>

#include <string>
#include <vector>

#include "config/Config.h"
#include "plan/Preset.h"

namespace ade::ui {

class AboutPanel;
class ParamForm;
class Shell;
class SweepTab;
class Workspace;

class RunCommands : public QObject {
    Q_OBJECT
  public:
    RunCommands(Workspace* workspace, ParamForm* form, SweepTab* sweep, AboutPanel* about,
                Shell* shell, QObject* parent = nullptr);

    // `overrides` ("KEY=VALUE", as the CLI's --set) apply to every run of the preset.
    bool loadPreset(const QString& name, bool start,
                    const std::vector<std::string>& overrides = {});
    // As loadPreset, for a plan already loaded (a lesson's step), shown under `name`.
    bool loadPlan(const ade::Plan& plan, const QString& name, bool start);
    // Start: on an idle window whose form still shows the loaded preset, the preset's whole
    // comparison (all its runs); otherwise one new run of the form (startFromForm).
    void start();
    bool startStartsComparison() const;
    void startPresetComparison();
    void startFromForm();
    // Space: pause when running, resume when paused; when idle, plays the form's settings only
    // if they have not run yet (never a duplicate of the runs just finished).
    void togglePause();
    void step();
    void stopRuns();
    // Reset (R): the current runs again from iteration 0 with the same config, seed and initial
    // weights, in place: same name, colour and place in the list; their old curves go.
    void resetRuns();
    // Re-seed (Shift+R): the current runs' own configs with one new seed, as new runs beside
    // the old ones (whose curves stay); the form is not changed.
    void reseedRuns();
    void resetForm();  // every parameter of the form's experiment to its default
    void editRun(int id);
    void deleteRun(int id);
    void exportRun(int id);  // its records as CSV, to a file the user picks
    // Seeds per run (the "Seeds" box beside Start; a preset's "seeds" key sets it).
    int seeds() const;
    void setSeeds(int k);
    // Why Start is disabled ("" when it is not): the form's first problem.
    QString startBlockedReason() const;

  signals:
    void chartsWanted();  // the runs are drawn: the charts (or the inside view) in front
    void sweepWanted();   // a preset with a sweep: the sweep tab in front
    void stateChanged();  // what Start means (and the empty charts' hint) may have changed

  private:
    Workspace* workspace_;
    ParamForm* form_;
    SweepTab* sweep_;
    AboutPanel* about_;
    Shell* shell_;
};

}  // namespace ade::ui
