#include "window/MainWindow.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include "about/AboutPanel.h"
#include "about/ClaimsChecklist.h"
#include "base/ActionTable.h"
#include "charts/ChartArea.h"
#include "charts/RefreshPacer.h"
#include "form/ParamForm.h"
#include "form/TimeEstimator.h"
#include "inspect/InsideView.h"
#include "inspect/LandscapePanel.h"
#include "lessons/LessonPlayer.h"
#include "runlist/RunListWidget.h"
#include "runs/ClaimsMonitor.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "runs/TimeCursor.h"
#include "runs/TimeTravelBar.h"
#include "sessions/SessionManager.h"
#include "sweep/SweepTab.h"
#include "sweep/SweepView.h"
#include "window/Autopilot.h"
#include "window/HelpTexts.h"
#include "window/PresentationMode.h"
#include "window/RunCommands.h"
#include "window/StatusLine.h"
#include "window/WindowActions.h"
#include "window/WindowSettings.h"

static void initResources() {
    Q_INIT_RESOURCE(explorer);
}

namespace ade::ui {

MainWindow::MainWindow(const LaunchOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options) {
    initResources();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Attention Dynamics Explorer"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/attention-explorer.svg")));
    workspace_ = new Workspace(options.argv0, this);
    buildDocks();
    setCentralWidget(buildCentre());
    commands_ = new RunCommands(workspace_, form_, sweepTab_, about_, this, this);
    presentation_ = new PresentationMode(this, tabs_, charts_);
    pacer_ = new RefreshPacer(
        charts_, [controller = workspace_->controller()] { return controller->runningCount(); },
        this);
    status_ = new StatusLine(statusBar(), workspace_, form_, sweepView(), this);
    estimate_ = new TimeEstimator(store(), form_, this);
    autopilot_ = new Autopilot(this, options);
    makeActions(this, windowActionTable());  // base/ActionTable.h
    connectWindowActions(*this);
    buildToolBar();
    sessions_ = new SessionManager(workspace_, this, options.persistSettings, this);
    // File > Open session… and Open recent take an Optuna study's storage too: the sweep tab.
    sessions_->setStudyOpener([this](const QString& file, QString* error) {
        return sweepTab()->openOptunaStudy(file, {}, error);
    });
    lessons_ = new LessonPlayer(workspace_, this, options.argv0, this);
    centralWidget()->layout()->addWidget(lessons_->panel());  // a lesson's caption
    buildMenus();
    connectParts();
    fitToScreen(*this);
    if (options_.persistSettings) autopilot_->setFormRestored(restoreWindowSettings(*this));
    about_->showAbout(form_->config().experiment());
    updateActions();
    status_->update();
}

MainWindow::~MainWindow() {
    // The controller outlives this body (a child): silence it before the widgets go.
    controller()->disconnect(this);
    const bool midRun = controller()->anyActive();
    controller()->stopAndWait();
    if (midRun) sessions_->closeMidRun();  // destroyed without close(): keep the work too
    store()->disconnect(this);
}

void MainWindow::launch() {
    autopilot_->launch();
}

// The centre: the tabs (charts, sweep, inside the model), under them time travel (scrubs the
// focused run's snapshots, the curves' cursor) and a lesson's caption while one plays.
QWidget* MainWindow::buildCentre() {
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("tabs"));
    tabs_->setDocumentMode(true);
    charts_ = new ChartArea(store(), tabs_);
    charts_->setTimeCursor(timeCursor());
    charts_->setFooter(about_->presentationChecklist());  // the claims in presentation mode
    tabs_->addTab(charts_, tr("Live charts"));
    sweepTab_ = new SweepTab(store(), runList_, charts_, form_, tabs_);
    tabs_->addTab(sweepTab_, tr("Sweep"));
    tabs_->setTabToolTip(tabs_->indexOf(sweepTab_),
                         tr("Sweeps of 1–3 keys over seeds: a table, a plot, a heatmap or "
                            "parallel coordinates; successive halving; sweep folders"));
    inside_ = new InsideView(store(), timeCursor(), tabs_);
    // The landscape's row of controls is wide: it scrolls rather than widen the window beyond a
    // 1024-px screen (as the sweep tab does).
    auto* landscape = new QScrollArea(inside_);
    landscape->setObjectName(QStringLiteral("landscapeScroll"));
    landscape->setFrameShape(QFrame::NoFrame);
    landscape->setWidgetResizable(true);
    landscape->setWidget(new LandscapePanel(store(), timeCursor(), landscape));
    inside_->addPanel(landscape, tr("Loss landscape"));
    tabs_->addTab(inside_, tr("Inside the model"));
    tabs_->setTabToolTip(tabs_->indexOf(inside_), tr("Matrices, attention, the factor plane and "
                                                     "the loss landscape of the focused run"));
    auto* centre = new QWidget(this);
    auto* lay = new QVBoxLayout(centre);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(0);
    lay->addWidget(tabs_, 1);
    timeBar_ = new TimeTravelBar(store(), timeCursor(), centre);
    lay->addWidget(timeBar_);
    return centre;
}

void MainWindow::buildDocks() {
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    auto dock = [this](const QString& title, const char* name, QWidget* w, Qt::DockWidgetArea a) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(w);
        addDockWidget(a, d);
        return d;
    };
    form_ = new ParamForm;  // scrolls its fields under a fixed header (problems, time estimate)
    form_->setMinimumWidth(330);
    QDockWidget* formDock = dock(tr("Parameters"), "parametersDock", form_, Qt::LeftDockWidgetArea);
    runList_ = new RunListWidget(store());
    // The table under its metric chooser.
    QDockWidget* runsDock =
        dock(tr("Runs"), "runsDock", runList_->panel(), Qt::BottomDockWidgetArea);
    about_ = new AboutPanel(claims());
    QDockWidget* aboutDock =
        dock(tr("About this experiment"), "aboutDock", about_, Qt::RightDockWidgetArea);
    resizeDocks({runsDock}, {170}, Qt::Vertical);
    resizeDocks({formDock, aboutDock}, {340, 300}, Qt::Horizontal);
}

// The run controls and the "Seeds" box beside them (seeds as an axis of every comparison).
void MainWindow::buildToolBar() {
    auto* tb = addToolBar(tr("Run"));
    tb->setObjectName(QStringLiteral("runToolBar"));
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    for (const char* n : {"start", "pause", "step", "stop", "reset", "reseed"})
        tb->addAction(action(QLatin1String(n)));
    seeds_ = new QSpinBox(this);
    seeds_->setObjectName(QStringLiteral("seeds"));
    seeds_->setRange(1, 32);
    seeds_->setAccelerated(false);
    seeds_->setFocusPolicy(Qt::ClickFocus);  // Space stays Play / Pause
    seeds_->setToolTip(
        tr("Seeds per run: Start runs each of the preset's runs with this many seeds (seed, "
           "seed + 1, …: new data and initial weights each), Play the form's settings with as "
           "many. The charts draw each run's mean over its seeds with a min–max band; the run "
           "list gives mean ± sd. A preset's \"seeds\" sets it."));
    auto* label = new QLabel(tr(" Seeds "), this);
    label->setBuddy(seeds_);
    label->setToolTip(seeds_->toolTip());
    tb->addSeparator();
    tb->addWidget(label);
    tb->addWidget(seeds_);
    // The box shows the workspace's count and sets it.
    seeds_->setValue(workspace_->seeds());
    connect(seeds_, &QSpinBox::valueChanged, workspace_, &Workspace::setSeeds);
    connect(workspace_, &Workspace::seedsChanged, seeds_, &QSpinBox::setValue);
}

void MainWindow::buildMenus() {
    auto place = [this](QMenu* menu, std::initializer_list<const char*> ids) {
        for (const char* id : ids) {
            if (*id == '\0')
                menu->addSeparator();
            else
                menu->addAction(action(QLatin1String(id)));
        }
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    place(file,
          {"exportRunCsv", "saveScreenshot", "exportAnimation", "openSweepFolder",
                 "openOptunaStudy", "", "quit"});
    sessions_->addToFileMenu(file);
    place(sessions_->editMenu(menuBar()->addMenu(tr("&Edit"))), {"", "resetForm"});
    place(menuBar()->addMenu(tr("&Run")),
          {"start", "pause", "step", "stop", "reset", "reseed", "", "compareConfigs"});
    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    presets->setObjectName(QStringLiteral("presetsMenu"));
    for (const auto& e : workspace_->presets().entries()) {
        const QString name = QString::fromStdString(e.name);
        QAction* a =
            presets->addAction(name, this, [this, name] { commands_->loadPreset(name, true); });
        a->setObjectName(QStringLiteral("preset.") + name);
        a->setStatusTip(QString::fromStdString(e.description));
        a->setToolTip(a->statusTip());
    }
    presets->setToolTipsVisible(true);
    lessons_->buildMenu(menuBar()->addMenu(tr("&Lessons")));
    QMenu* view = menuBar()->addMenu(tr("&View"));
    place(view, {"logY", "logX", "seedsSeparate", "fitCharts"});
    view->addMenu(charts_->chartsMenu());
    view->addSeparator();
    presentation_->addToMenu(view);
    place(view, {"liveCharts", "sweepView", "insideView", ""});
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());
    place(menuBar()->addMenu(tr("&Help")),
          {"quickStart", "shortcuts", "", "aboutExperiment", "aboutApp"});
}

// How the parts follow each other: the document's signals to the views and the status.
void MainWindow::connectParts() {
    RunController* controller = workspace_->controller();
    connect(controller, &RunController::drained, this, [this](bool changed) {
        pacer_->onDrained(changed);
        status_->updateThrottled();
        autopilot_->onDrained();
    });
    connect(controller, &RunController::activeChanged, this, &MainWindow::updateActions);
    connect(controller, &RunController::allFinished, this, &MainWindow::onAllFinished);
    connect(controller, &RunController::runFinished, estimate_, &TimeEstimator::update);
    connect(estimate_, &TimeEstimator::measurementFailed, this, [this](const QString& error) {
        showMessage(tr("Could not measure the speed: %1").arg(error), 10000);
    });
    connect(form_, &ParamForm::validityChanged, this, &MainWindow::updateActions);
    connect(form_, &ParamForm::configChanged, this, [this] {
        updateActions();  // Start's tooltip names the form's problem
        estimate_->update();
        sweepView()->setFormConfig(form_->config());
        charts_->setExperiment(form_->config().experiment());
        if (workspace_->presetName().isEmpty()) about_->showAbout(form_->config().experiment());
    });
    connect(workspace_, &Workspace::batchChanged, this, &MainWindow::updateActions);
    connect(commands_, &RunCommands::stateChanged, this, &MainWindow::updateActions);
    connect(commands_, &RunCommands::chartsWanted, this, &MainWindow::showChartsUnlessInside);
    connect(commands_, &RunCommands::sweepWanted, this,
            [this] { tabs_->setCurrentWidget(sweepTab_); });
    connect(sweepTab_, &SweepTab::showRequested, this,
            [this] { tabs_->setCurrentWidget(sweepTab_); });
    connect(sweepTab_, &SweepTab::showChartsRequested, this,
            [this] { tabs_->setCurrentWidget(charts_); });
    connect(sweepTab_, &SweepTab::message, this, &MainWindow::showMessage);
    connect(sessions_, &SessionManager::sessionOpened, this, &MainWindow::onSessionOpened);
    connect(presentation_, &PresentationMode::toggled, about_, &AboutPanel::setPresentation);
    connect(lessons_, &LessonPlayer::claimHighlighted, about_, &AboutPanel::setHighlighted);
    connect(store(), &RunStore::runChanged, this, [this] { charts_->refresh(); });
    connect(store(), &RunStore::runRemoved, this, [this] { charts_->refresh(); });
    // "Same start as": offer the names of the runs in the list.
    auto suggestRuns = [this] {
        QStringList names;
        for (const auto& r : store()->runs())
            names << r->name;
        form_->setSuggestions(QStringLiteral("init_from"), names);
    };
    connect(store(), &RunStore::runAdded, this, suggestRuns);
    connect(store(), &RunStore::runRemoved, this, suggestRuns);
    connect(form_, &ParamForm::configChanged, this, suggestRuns);
    connect(runList_, &RunListWidget::editRequested, commands_, &RunCommands::editRun);
    connect(runList_, &RunListWidget::deleteRequested, commands_, &RunCommands::deleteRun);
    connect(runList_, &RunListWidget::exportRequested, commands_, &RunCommands::exportRun);
    // The focused run of time travel and the inside views: the run list's current selection.
    connect(runList_, &QTreeWidget::itemSelectionChanged, this, [this] {
        const auto ids = runList_->selectedRunIds();
        timeCursor()->setFocusRun(ids.isEmpty() ? 0 : ids.front());
    });
}

SweepView* MainWindow::sweepView() const {
    return sweepTab_->view();
}

QAction* MainWindow::action(const QString& name) const {
    return findChild<QAction*>(name);
}

void MainWindow::showMessage(const QString& text, int ms) {
    statusBar()->showMessage(text, ms);
}

bool MainWindow::presentation() const {
    return presentation_->isOn();
}

void MainWindow::setPresentation(bool on) {
    presentation_->setOn(on);
}

void MainWindow::showPresentationChart(int index) {
    presentation_->showChart(index);
}

QList<int> MainWindow::selectedRunIds() const {
    return runList_->selectedRunIds();
}

ade::Config MainWindow::formConfig() const {
    return form_->config();
}

void MainWindow::setFormConfig(const ade::Config& config) {
    form_->setConfig(config);
}

bool MainWindow::loadPlan(const ade::Plan& plan, const QString& name, bool start) {
    return commands_->loadPlan(plan, name, start);
}

void MainWindow::cancelSweep() {
    if (sweepView()->isRunning()) sweepView()->cancelAndWait();
}

void MainWindow::showChartsUnlessInside() {
    if (tabs_->currentWidget() != inside_) tabs_->setCurrentWidget(charts_);
}

void MainWindow::updateActions() {
    const RunController* controller = workspace_->controller();
    const bool active = controller->anyActive();
    const bool paused = controller->paused();
    const bool valid = form_->isValid();
    const bool comparison = commands_->startStartsComparison();
    QAction* start = action(QStringLiteral("start"));
    start->setEnabled(valid);
    const QString key = start->shortcut().toString(QKeySequence::NativeText);
    const auto presetRuns = static_cast<int>(workspace_->presetRuns().size());
    start->setToolTip(!valid ? tr("Start is disabled: %1").arg(commands_->startBlockedReason())
                      : comparison
                          ? tr("Start the comparison of preset %1: %2 (%3)")
                                .arg(workspace_->presetName(), runCountText(presetRuns), key)
                          : tr("Start a new run with the parameters of the form (%1)").arg(key));
    QAction* pause = action(QStringLiteral("pause"));
    pause->setEnabled(active || valid);
    pause->setText(!active ? tr("&Play") : paused ? tr("Res&ume") : tr("&Pause"));
    // The same two icons every time: a new QIcon per update is a new QPixmapCache entry at
    // every repaint of the tool button.
    if (playIcon_.isNull()) {
        playIcon_ = style()->standardIcon(QStyle::SP_MediaPlay);
        pauseIcon_ = style()->standardIcon(QStyle::SP_MediaPause);
    }
    const QIcon& icon = active && !paused ? pauseIcon_ : playIcon_;
    if (pause->icon().cacheKey() != icon.cacheKey()) pause->setIcon(icon);
    action(QStringLiteral("step"))->setEnabled(active || valid);
    action(QStringLiteral("stop"))->setEnabled(active);
    action(QStringLiteral("reset"))->setEnabled(!workspace_->batchIds().empty());
    action(QStringLiteral("reseed"))->setEnabled(!workspace_->batchIds().empty());
    QStringList names;
    for (const auto& r : workspace_->presetRuns())
        names << QString::fromStdString(r.label);
    charts_->setEmptyHint(emptyChartsHint(*this, comparison, workspace_->presetName(), names));
}

void MainWindow::onAllFinished() {
    workspace_->claims()->evaluate();  // the verdicts at once, not a throttling interval later
    updateActions();
    status_->update();
    charts_->refresh(true);
    autopilot_->onAllFinished();
}

void MainWindow::onSessionOpened() {
    // The form shows the opened runs' settings (the first visible run's), the About panel
    // their experiment, and Reset / Re-seed no longer refer to runs of before.
    const RunRecord* first = nullptr;
    for (const auto& r : store()->runs())
        if (!first || (r->visible && !first->visible)) first = r.get();
    if (first) form_->setConfig(first->config);
    workspace_->clearPlan();
    about_->showAbout(form_->config().experiment());
    showChartsUnlessInside();
    updateActions();
    status_->update();
    estimate_->update();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    // Runs not saved: Save / Discard / Cancel (Cancel keeps the window, and its runs going).
    bool discarded = false;
    if (options_.askBeforeClosing && sessions_->hasUnsavedRuns()) {
        const auto choice = sessions_->askToSave();
        if (choice == SessionManager::CloseChoice::Cancel) {
            e->ignore();
            return;
        }
        discarded = choice == SessionManager::CloseChoice::Discard;
    }
    // Runs still active are stopped; what they computed is not lost with the window: it stays
    // in the recovery file and is offered at the next start (unless the user discarded them).
    const bool midRun = controller()->anyActive() && !discarded;
    controller()->stopAndWait();
    sweepView()->cancelAndWait();
    if (midRun)
        sessions_->closeMidRun();
    else
        sessions_->closeCleanly();
    if (options_.persistSettings) saveWindowSettings(*this);
    e->accept();
}

}  // namespace ade::ui
