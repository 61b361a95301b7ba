#pragma once
// The explorer window: parameter panel (left), live charts and sweep view (centre), run list
// (bottom), "About this experiment" (right); run controls in the toolbar, menus and status bar.
// Lays out and wires: the science is in core, the document (runs, batch, seeds, claims) in the
// Workspace, each feature in its room of ui/; the commands are one table (MainWindowActions.cpp).
#include <QElapsedTimer>
#include <QIcon>
#include <QMainWindow>

#include <map>
#include <memory>
#include <optional>

#include "base/ActionTable.h"
#include "base/FrameStats.h"
#include "config/Config.h"
#include "plan/PlanRunner.h"
#include "plan/Preset.h"
#include "workspace/Shell.h"
#include "workspace/Workspace.h"

class QAction;
class QMenu;
class QLabel;
class QSpinBox;
class QTabWidget;
class QToolBar;
class QTextBrowser;

namespace ade::ui {

class ChartArea;
class ClaimsChecklist;
class ClaimsMonitor;
class InsideView;
class LessonPlayer;
class ParamForm;
class RateProbe;
class RunController;
class RunListWidget;
class RunStore;
class SessionManager;
class SweepView;
class TimeCursor;
class TimeTravelBar;

struct LaunchOptions {
    QString preset;                 // load this preset at start
    QString session;                // or open this saved session at start
    std::vector<std::string> sets;  // "KEY=VALUE" overrides for every run of that preset
    int seeds = 0;                  // seeds per run of that preset (0: the preset's "seeds")
    bool autorun = false;           // start its runs (or sweep) at once
    bool quitWhenDone = false;
    QString screenshot;           // PNG of the window when the runs are done (or at screenshotAt)
    long screenshotAt = -1;       // take the screenshot once a run passes this iteration
    QString stats;                // JSON with frame times, solver rate, logged points
    bool presentation = false;    // start in presentation mode (charts only, large type)
    QString lesson;               // play this lesson (a name of the Lessons menu, or a file)
    bool persistSettings = true;  // QSettings, recent sessions, crash recovery (off in tests)
    // Closing with runs not saved asks Save / Discard / Cancel (the program turns it on unless
    // --quit-when-done; off in tests, which turn it on where they test it).
    bool askBeforeClosing = false;
    std::string argv0;
};

class MainWindow : public QMainWindow, public Shell {
    Q_OBJECT
  public:
    explicit MainWindow(const LaunchOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Applies the launch options (preset, autorun, screenshot, ...) once the event loop runs.
    void launch();

    // The document the window shows: presets, runs, batch, seeds, claims, time cursor.
    Workspace* workspace() const { return workspace_; }
    RunStore* store() const { return workspace_->store(); }
    // The iteration the inside views and the curves' cursor show (time travel).
    TimeCursor* timeCursor() const { return workspace_->timeCursor(); }
    TimeTravelBar* timeTravelBar() const { return timeBar_; }
    RunController* controller() const { return workspace_->controller(); }
    ParamForm* form() const { return form_; }
    ChartArea* charts() const override { return charts_; }
    RunListWidget* runList() const { return runList_; }
    SweepView* sweepView() const { return sweep_; }
    // File > Open sweep folder… (asks for the folder when `dir` is empty); the sweep tab shows it.
    bool openSweepFolder(const QString& dir = {});
    // "Inside the model": matrices, attention, factor plane (a tab beside the charts).
    InsideView* insideView() const { return inside_; }
    SessionManager* sessions() const { return sessions_; }
    QAction* action(const QString& name) const override;  // by objectName: start, pause, ...
    const ade::PresetLibrary& presets() const { return workspace_->presets(); }

    // Run actions (also bound to buttons, menus and shortcuts).
    // `overrides` ("KEY=VALUE", as the CLI's --set) apply to every run of the preset.
    bool loadPreset(const QString& name, bool start,
                    const std::vector<std::string>& overrides = {});
    // As loadPreset, for a plan already loaded (a lesson's step), shown under `name`.
    bool loadPlan(const ade::Plan& plan, const QString& name, bool start) override;
    // The runs of the last Start / preset (what Reset and Re-seed act on): ids and their plan.
    const std::vector<int>& batchIds() const { return workspace_->batchIds(); }
    const std::vector<ade::PlannedRun>& batchRuns() const { return workspace_->batchRuns(); }
    LessonPlayer* lessons() const { return lessons_; }
    // Start: on an idle window whose form still shows the loaded preset, the preset's whole
    // comparison (all its runs); otherwise one new run of the form (startFromForm).
    void start();
    bool startStartsComparison() const;
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
    // Seeds per run (the "Seeds" box beside Start; a preset's "seeds" key sets it): Start runs
    // each of the preset's runs with this many seeds, Play the form's config with as many.
    int seeds() const;
    void setSeeds(int k);
    QSpinBox* seedsBox() const { return seeds_; }
    // The loaded preset's claims, checked live over its comparison's runs (all seeds) and
    // shown as a checklist above the About text (and under the charts in presentation mode).
    ClaimsMonitor* claims() const { return workspace_->claims(); }
    ClaimsChecklist* claimsChecklist() const { return checklist_; }
    ClaimsChecklist* presentationChecklist() const { return presentChecklist_; }
    // Why Start is disabled ("" when it is not): the form's first problem.
    QString startBlockedReason() const;
    // The form's time estimate ("" when no run of this size has been measured yet).
    QString timeEstimate(QString* basis = nullptr) const;
    void editRun(int id);
    void deleteRun(int id);
    // The window's size from the available geometry of its screen (at most 1400 x 900; on a
    // narrow screen the About panel shares the left dock area with the parameters, as tabs).
    void fitToScreen();
    // Presentation mode (F11): docks and tab bar hidden, full screen, the charts alone with
    // large type, thick lines and the projector palette; leaving restores the layout before.
    void setPresentation(bool on) override;
    bool presentation() const override { return presentation_; }
    // Presentation mode's chart: the grid's chart `index` alone (0-based), or -1 the 2x2 grid
    // (keys 1-4 and 0); the menu's check marks follow.
    void showPresentationChart(int index) override;
    // Help > Keyboard shortcuts: every action of the window that has a key (text, key).
    std::vector<std::pair<QString, QString>> shortcutList() const;
    QString quickStartHtml() const;
    static QString runCount(int n);  // "1 run", "2 runs"
    bool saveScreenshot(const QString& file);
    bool writeStats(const QString& file, QString* error = nullptr) const;

    // Shell: what sessions, lessons and exports ask of the window.
    QWidget* dialogParent() override { return this; }
    void showMessage(const QString& text, int ms) override;
    QList<int> selectedRunIds() const override;
    ade::Config formConfig() const override;
    void setFormConfig(const ade::Config& config) override;
    void cancelSweep() override;

  signals:
    void screenshotSaved(const QString& file);

  protected:
    void closeEvent(QCloseEvent* e) override;

  private:
    void buildActions();
    void buildMenus();
    void buildDocks();
    void updateActions();
    void updateStatus();
    void updateEstimate();
    void measureRate();  // a quick measurement of the form's speed (RateProbe)
    void onSessionOpened();  // the form, About panel and status follow an opened session
    void onDrained(bool changed);
    void onAllFinished();
    // The window's commands (MainWindowActions.cpp): the table, and what each one does.
    static std::vector<ActionSpec> actionTable();
    void connectActions();
    void showQuickStart();
    void showShortcuts();
    void buildSeedsControl(QToolBar* toolbar);
    // The About dock's contents: the claims checklist above the About text.
    QWidget* buildAboutPanel();
    void buildPresentationMenu(QMenu* view);
    void updateEmptyHint();
    void startPresetComparison();
    void finishLaunch();
    void showAbout(const QString& preset, const QString& description, const QString& about);
    void exportRun(int id);
    // The sweep tab (MainWindowSweep.cpp): its status in the status bar, a config's runs in
    // the run list and charts, "Apply to form", File > Open sweep folder….
    void buildSweepWiring();
    void showSweepRuns(const std::vector<ade::RunOutcome>& runs, const QString& label);
    void applySweepValues(const std::vector<std::pair<std::string, std::string>>& values);
    void restoreSettings();
    void saveSettings() const;

    LaunchOptions options_;
    Workspace* workspace_ = nullptr;
    // Short names for the workspace's parts (owned by it).
    RunStore* store_ = nullptr;
    TimeCursor* timeCursor_ = nullptr;
    RunController* controller_ = nullptr;
    ClaimsMonitor* claims_ = nullptr;
    TimeTravelBar* timeBar_ = nullptr;
    ParamForm* form_ = nullptr;
    ChartArea* charts_ = nullptr;
    RunListWidget* runList_ = nullptr;
    SweepView* sweep_ = nullptr;
    InsideView* inside_ = nullptr;
    SessionManager* sessions_ = nullptr;  // File menu: sessions, exports, recovery
    LessonPlayer* lessons_ = nullptr;     // Lessons menu and the caption under the charts
    QTabWidget* tabs_ = nullptr;
    QWidget* sweepTab_ = nullptr;  // the sweep view's page of tabs_ (it scrolls)
    QTextBrowser* about_ = nullptr;
    QLabel* stateLabel_ = nullptr;
    QLabel* iterLabel_ = nullptr;
    QLabel* rateLabel_ = nullptr;
    QLabel* pointsLabel_ = nullptr;
    RateProbe* probe_ = nullptr;
    std::vector<std::pair<ade::Config, double>> probedRates_;  // config, iterations per second
    bool launchPending_ = false;
    bool formRestored_ = false;
    FrameStats frames_;
    QElapsedTimer sinceRefresh_;
    QElapsedTimer sinceStatus_;
    double lastRefreshMs_ = 0;
    bool chartsDirty_ = false;
    bool presentation_ = false;
    bool screenshotTaken_ = false;
    // The layout before presentation mode, restored when it ends.
    QByteArray savedState_, savedGeometry_;
    Qt::WindowStates savedWindowState_;
    int savedTab_ = 0;
    QIcon playIcon_, pauseIcon_;  // made once (see updateActions)
    QSpinBox* seeds_ = nullptr;
    ClaimsChecklist* checklist_ = nullptr;
    ClaimsChecklist* presentChecklist_ = nullptr;
    // Sweep configs whose runs are in the run list (their label -> the runs' ids), so a second
    // click selects them instead of adding them again; cleared when a sweep starts.
    std::map<QString, std::vector<int>> sweepRuns_;
};

}  // namespace ade::ui
