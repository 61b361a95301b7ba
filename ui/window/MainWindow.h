#pragma once
// The explorer window: it lays out and wires, nothing more. Parameters (left), the centre tabs
// (live charts, sweep, inside the model) over the time-travel bar and a lesson's caption, the run
// list (bottom), "About this experiment" (right); the run controls in the toolbar, the menus, the
// status bar. The document (runs, batch, seeds, claims, time cursor) is the Workspace; what the
// commands do is RunCommands; the commands themselves are one table (WindowActions); the
// command line's driving is the Autopilot; presentation mode, the status line, the settings and
// the help texts have their own files in this room; each feature lives in its room of ui/.
#include <QIcon>
#include <QMainWindow>

#include "window/LaunchOptions.h"
#include "workspace/Shell.h"
#include "workspace/Workspace.h"

class QSpinBox;
class QTabWidget;

namespace ade::ui {

class AboutPanel;
class Autopilot;
class InsideView;
class LessonPlayer;
class ParamForm;
class PresentationMode;
class RefreshPacer;
class RunCommands;
class RunListWidget;
class SessionManager;
class StatusLine;
class SweepTab;
class SweepView;
class TimeEstimator;
class TimeTravelBar;

class MainWindow : public QMainWindow, public Shell {
    Q_OBJECT
  public:
    explicit MainWindow(const LaunchOptions& options, QWidget* parent = nullptr);
    ~MainWindow() override;
    // Applies the launch options (preset, autorun, screenshot, ...) once the event loop runs.
    void launch();

    // The document the window shows, and its parts.
    Workspace* workspace() const { return workspace_; }
    RunStore* store() const { return workspace_->store(); }
    RunController* controller() const { return workspace_->controller(); }
    TimeCursor* timeCursor() const { return workspace_->timeCursor(); }
    ClaimsMonitor* claims() const { return workspace_->claims(); }
    // The window's parts.
    RunCommands* commands() const { return commands_; }
    ParamForm* form() const { return form_; }
    RunListWidget* runList() const { return runList_; }
    QTabWidget* centreTabs() const { return tabs_; }
    SweepTab* sweepTab() const { return sweepTab_; }
    SweepView* sweepView() const;
    InsideView* insideView() const { return inside_; }
    TimeTravelBar* timeTravelBar() const { return timeBar_; }
    AboutPanel* aboutPanel() const { return about_; }
    SessionManager* sessions() const { return sessions_; }
    LessonPlayer* lessons() const { return lessons_; }
    Autopilot* autopilot() const { return autopilot_; }
    PresentationMode* presentationMode() const { return presentation_; }
    RefreshPacer* refreshPacer() const { return pacer_; }
    QSpinBox* seedsBox() const { return seeds_; }

    // Shell: what sessions, lessons and exports ask of the window.
    QWidget* dialogParent() override { return this; }
    void showMessage(const QString& text, int ms) override;
    bool presentation() const override;
    void setPresentation(bool on) override;
    void showPresentationChart(int index) override;
    ChartArea* charts() const override { return charts_; }
    QAction* action(const QString& id) const override;  // by objectName: start, pause, ...
    QList<int> selectedRunIds() const override;
    ade::Config formConfig() const override;
    void setFormConfig(const ade::Config& config) override;
    bool loadPlan(const ade::Plan& plan, const QString& name, bool start) override;
    void cancelSweep() override;

  protected:
    void closeEvent(QCloseEvent* e) override;

  private:
    QWidget* buildCentre();
    void buildDocks();
    void buildToolBar();
    void buildMenus();
    void connectParts();
    void updateActions();  // enabled, Start's tooltip, Play/Pause, the empty charts' hint
    void showChartsUnlessInside();
    void onSessionOpened();  // the form, About panel and status follow an opened session
    void onAllFinished();

    LaunchOptions options_;
    Workspace* workspace_ = nullptr;
    RunCommands* commands_ = nullptr;
    Autopilot* autopilot_ = nullptr;
    PresentationMode* presentation_ = nullptr;
    RefreshPacer* pacer_ = nullptr;
    StatusLine* status_ = nullptr;
    TimeEstimator* estimate_ = nullptr;
    ParamForm* form_ = nullptr;
    ChartArea* charts_ = nullptr;
    RunListWidget* runList_ = nullptr;
    SweepTab* sweepTab_ = nullptr;
    InsideView* inside_ = nullptr;
    TimeTravelBar* timeBar_ = nullptr;
    AboutPanel* about_ = nullptr;
    SessionManager* sessions_ = nullptr;  // File menu: sessions, exports, recovery
    LessonPlayer* lessons_ = nullptr;     // Lessons menu and the caption under the charts
    QTabWidget* tabs_ = nullptr;
    QSpinBox* seeds_ = nullptr;
    QIcon playIcon_, pauseIcon_;  // made once (see updateActions)
};

}  // namespace ade::ui
