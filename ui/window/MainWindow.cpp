#include "window/MainWindow.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>

#include <algorithm>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include "base/ActionTable.h"
#include "charts/ChartArea.h"
#include "about/ClaimsChecklist.h"
#include "about/ExperimentAbout.h"
#include "lessons/LessonPlayer.h"
#include "form/ParamForm.h"
#include "form/RateProbe.h"
#include "runs/RunController.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "runs/TimeCursor.h"
#include "runs/TimeTravelBar.h"
#include "inspect/AnimationDialog.h"
#include "sessions/SessionManager.h"
#include "sweep/SweepView.h"
#include "inspect/InsideView.h"
#include "inspect/LandscapePanel.h"

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
    store_ = workspace_->store();
    timeCursor_ = workspace_->timeCursor();
    controller_ = workspace_->controller();
    claims_ = workspace_->claims();
    probe_ = new RateProbe(this);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("tabs"));
    tabs_->setDocumentMode(true);
    charts_ = new ChartArea(store_, tabs_);
    sweep_ = new SweepView(tabs_);
    tabs_->addTab(charts_, tr("Live charts"));
    // The sweep view scrolls rather than widen the window beyond a 1024-px screen.
    auto* sweepScroll = new QScrollArea(tabs_);
    sweepScroll->setObjectName(QStringLiteral("sweepScroll"));
    sweepScroll->setFrameShape(QFrame::NoFrame);
    sweepScroll->setWidgetResizable(true);
    sweepScroll->setWidget(sweep_);
    sweepTab_ = sweepScroll;
    tabs_->addTab(sweepScroll, tr("Sweep"));
    tabs_->setTabToolTip(tabs_->indexOf(sweepTab_), tr("Sweeps of 1–3 keys over seeds: a table, a plot, a heatmap or "
                               "parallel coordinates; successive halving; sweep folders"));
    inside_ = new InsideView(store_, timeCursor_, tabs_);
    // The landscape's row of controls is wide: it scrolls rather than widen the window beyond a
    // 1024-px screen (as the sweep view does).
    auto* landscapeScroll = new QScrollArea(inside_);
    landscapeScroll->setObjectName(QStringLiteral("landscapeScroll"));
    landscapeScroll->setFrameShape(QFrame::NoFrame);
    landscapeScroll->setWidgetResizable(true);
    landscapeScroll->setWidget(new LandscapePanel(store_, timeCursor_, landscapeScroll));
    inside_->addPanel(landscapeScroll, tr("Loss landscape"));
    tabs_->addTab(inside_, tr("Inside the model"));
    tabs_->setTabToolTip(tabs_->indexOf(inside_), tr("Matrices, attention, the factor plane and the loss landscape of "
                               "the focused run"));
    // The centre: the tabs, and under them a lesson's caption while one plays.
    auto* centre = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    centreLayout->addWidget(tabs_, 1);
    // Time travel under the charts: scrubs the focused run's snapshots, the curves' cursor.
    timeBar_ = new TimeTravelBar(store_, timeCursor_, centre);
    centreLayout->addWidget(timeBar_);
    charts_->setTimeCursor(timeCursor_);
    setCentralWidget(centre);

    buildDocks();
    buildActions();
    sessions_ = new SessionManager(workspace_, this, options.persistSettings, this);
    lessons_ = new LessonPlayer(workspace_, this, options.argv0, this);
    centreLayout->addWidget(lessons_->panel());
    // The claim a lesson step points at, marked in both checklists.
    connect(lessons_, &LessonPlayer::claimHighlighted, this, [this](const QString& id) {
        checklist_->setHighlighted(id);
        presentChecklist_->setHighlighted(id);
    });
    buildMenus();
    // Presentation mode hides the About dock: its claims come under the charts.
    connect(action(QStringLiteral("presentation")), &QAction::toggled, this,
            [this](bool on) { presentChecklist_->setVisible(on && presentChecklist_->hasClaims()); });

    stateLabel_ = new QLabel(tr("idle"), this);
    stateLabel_->setObjectName(QStringLiteral("stateLabel"));
    stateLabel_->setTextFormat(Qt::RichText);
    connect(stateLabel_, &QLabel::linkActivated, this,
            [this](const QString& key) { form_->showField(key); });
    iterLabel_ = new QLabel(this);
    rateLabel_ = new QLabel(this);
    pointsLabel_ = new QLabel(this);
    statusBar()->addWidget(stateLabel_);
    statusBar()->addPermanentWidget(iterLabel_);
    statusBar()->addPermanentWidget(rateLabel_);
    statusBar()->addPermanentWidget(pointsLabel_);

    connect(controller_, &RunController::drained, this, &MainWindow::onDrained);
    connect(controller_, &RunController::activeChanged, this, [this] {
        updateActions();
        updateStatus();
    });
    connect(controller_, &RunController::allFinished, this, &MainWindow::onAllFinished);
    connect(controller_, &RunController::runFinished, this, [this](int id) {
        const RunRecord* r = store_->run(id);
        if (r && (r->state == RunState::Diverged || r->state == RunState::Failed ||
                  r->stop == QLatin1String("cap")))
            statusBar()->showMessage(tr("%1 %2: %3").arg(r->name, stateText(r->state), r->message),
                                     15000);
    });
    connect(form_, &ParamForm::validityChanged, this, [this] {
        updateActions();
        updateStatus();
    });
    connect(sessions_, &SessionManager::sessionOpened, this, &MainWindow::onSessionOpened);
    connect(workspace_, &Workspace::batchChanged, this, &MainWindow::updateActions);
    buildSweepWiring();
    connect(controller_, &RunController::runFinished, this, [this] { updateEstimate(); });
    connect(form_, &ParamForm::measureRequested, this, &MainWindow::measureRate);
    connect(probe_, &RateProbe::finished, this,
            [this](const ade::Config& c, double rate, const QString& error) {
                if (rate > 0)
                    probedRates_.emplace_back(c, rate);
                else
                    statusBar()->showMessage(tr("Could not measure the speed: %1").arg(error),
                                             10000);
                updateEstimate();
            });
    connect(form_, &ParamForm::configChanged, this, [this] {
        updateActions();  // Start's tooltip names the form's problem
        updateStatus();
        updateEstimate();
        sweep_->setFormConfig(form_->config());
        charts_->setExperiment(form_->config().experiment());
        if (workspace_->presetName().isEmpty())
            about_->setHtml(aboutHtml(form_->config().experiment(), {}, {}, {}));
    });
    connect(charts_, &ChartArea::painted, this,
            [this](double ms, double cpuMs) { frames_.paintInFrame(ms, cpuMs); });
    connect(store_, &RunStore::runChanged, this, [this] { charts_->refresh(); });
    connect(store_, &RunStore::runRemoved, this, [this] { charts_->refresh(); });
    // "Same start as": offer the names of the runs in the list.
    auto suggestRuns = [this] {
        QStringList names;
        for (const auto& r : store_->runs())
            names << r->name;
        form_->setSuggestions(QStringLiteral("init_from"), names);
    };
    connect(store_, &RunStore::runAdded, this, suggestRuns);
    connect(store_, &RunStore::runRemoved, this, suggestRuns);
    connect(form_, &ParamForm::configChanged, this, suggestRuns);
    connect(runList_, &RunListWidget::editRequested, this, &MainWindow::editRun);
    connect(runList_, &RunListWidget::deleteRequested, this, &MainWindow::deleteRun);
    connect(runList_, &RunListWidget::exportRequested, this, &MainWindow::exportRun);
    // The focused run of time travel and the inside views: the run list's current selection.
    connect(runList_, &QTreeWidget::itemSelectionChanged, this, [this] {
        const auto ids = runList_->selectedRunIds();
        timeCursor_->setFocusRun(ids.isEmpty() ? 0 : ids.front());
    });

    fitToScreen();
    if (options_.persistSettings) restoreSettings();
    showAbout({}, {}, {});
    updateActions();
    updateStatus();
}

MainWindow::~MainWindow() {
    // The controller outlives this body (a child): silence it before the widgets go.
    controller_->disconnect(this);
    const bool midRun = controller_->anyActive();
    controller_->stopAndWait();
    if (midRun) sessions_->closeMidRun();  // destroyed without close(): keep the work too
    store_->disconnect(this);
}

QAction* MainWindow::action(const QString& name) const {
    return findChild<QAction*>(name);
}

void MainWindow::showMessage(const QString& text, int ms) {
    statusBar()->showMessage(text, ms);
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

void MainWindow::cancelSweep() {
    if (sweep_->isRunning()) sweep_->cancelAndWait();
}

void MainWindow::buildDocks() {
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    form_ = new ParamForm;  // scrolls its fields under a fixed header (problems, time estimate)
    form_->setMinimumWidth(330);
    auto* formDock = new QDockWidget(tr("Parameters"), this);
    formDock->setObjectName(QStringLiteral("parametersDock"));
    formDock->setWidget(form_);
    addDockWidget(Qt::LeftDockWidgetArea, formDock);

    runList_ = new RunListWidget(store_);
    auto* runsDock = new QDockWidget(tr("Runs"), this);
    runsDock->setObjectName(QStringLiteral("runsDock"));
    runsDock->setWidget(runList_->panel());  // the table under its metric chooser
    addDockWidget(Qt::BottomDockWidgetArea, runsDock);

    about_ = new QTextBrowser;
    about_->setObjectName(QStringLiteral("about"));
    about_->setOpenExternalLinks(true);
    // Never squeezed until words break: on a narrow screen it is a tab beside the parameters.
    about_->setMinimumWidth(240);
    about_->setWordWrapMode(QTextOption::WordWrap);
    auto* aboutDock = new QDockWidget(tr("About this experiment"), this);
    aboutDock->setObjectName(QStringLiteral("aboutDock"));
    aboutDock->setWidget(buildAboutPanel());
    addDockWidget(Qt::RightDockWidgetArea, aboutDock);
    resizeDocks({runsDock}, {170}, Qt::Vertical);
    resizeDocks({formDock, aboutDock}, {340, 300}, Qt::Horizontal);
}

void MainWindow::buildActions() {
    makeActions(this, actionTable());  // base/ActionTable.h
    connectActions();
    auto* tb = addToolBar(tr("Run"));
    tb->setObjectName(QStringLiteral("runToolBar"));
    tb->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    for (const char* n : {"start", "pause", "step", "stop", "reset", "reseed"})
        tb->addAction(action(QLatin1String(n)));
    buildSeedsControl(tb);
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
    place(file, {"exportRunCsv", "saveScreenshot", "exportAnimation", "openSweepFolder", "",
                 "quit"});
    sessions_->addToFileMenu(file);
    QMenu* edit = sessions_->editMenu(menuBar()->addMenu(tr("&Edit")));
    place(edit, {"", "resetForm"});

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    place(run, {"start", "pause", "step", "stop", "reset", "reseed", "", "compareConfigs"});

    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    presets->setObjectName(QStringLiteral("presetsMenu"));
    for (const auto& e : workspace_->presets().entries()) {
        const QString name = QString::fromStdString(e.name);
        QAction* a = presets->addAction(name, this, [this, name] { loadPreset(name, true); });
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
    buildPresentationMenu(view);
    place(view, {"liveCharts", "sweepView", "insideView", ""});
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    place(help, {"quickStart", "shortcuts", "", "aboutExperiment", "aboutApp"});
}

void MainWindow::showAbout(const QString& preset, const QString& description,
                           const QString& about) {
    about_->setHtml(aboutHtml(form_->config().experiment(), preset, description, about));
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
    const bool midRun = controller_->anyActive() && !discarded;
    controller_->stopAndWait();
    sweep_->cancelAndWait();
    if (midRun)
        sessions_->closeMidRun();
    else
        sessions_->closeCleanly();
    if (options_.persistSettings) saveSettings();
    e->accept();
}

void MainWindow::restoreSettings() {
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    // A layout saved on a larger screen is fitted to this one.
    if (const QScreen* sc = screen();
        sc && !sc->availableGeometry().contains(frameGeometry()))
        fitToScreen();
    charts_->setLogY(s.value(QStringLiteral("charts/logY"), true).toBool());
    charts_->setLogX(s.value(QStringLiteral("charts/logX"), false).toBool());
    charts_->setWallTimeX(s.value(QStringLiteral("charts/wallTimeX"), false).toBool());
    charts_->setSmoothing(s.value(QStringLiteral("charts/smoothing"), 0.0).toDouble());
    setSeeds(s.value(QStringLiteral("run/seeds"), 1).toInt());
    action(QStringLiteral("seedsSeparate"))
        ->setChecked(s.value(QStringLiteral("charts/seedsSeparate"), false).toBool());
    {
        std::map<QString, bool> choices;
        const QVariantMap saved = s.value(QStringLiteral("charts/shown")).toMap();
        for (auto it = saved.begin(); it != saved.end(); ++it)
            choices[it.key()] = it.value().toBool();
        charts_->setChartChoices(choices);
    }
    const QString cfg = s.value(QStringLiteral("form/config")).toString();
    if (!cfg.isEmpty()) {
        const auto j = nlohmann::json::parse(cfg.toStdString(), nullptr, false);
        ade::Config c;
        std::vector<std::string> unknown;  // keys of an older version are dropped
        if (!j.is_discarded() && j.is_object() && !c.apply(j, &unknown)) {
            form_->setConfig(c);
            formRestored_ = true;
        }
    }
    // The centre tab (charts, sweep, inside the model) and the inside view's panel.
    tabs_->setCurrentIndex(std::clamp(s.value(QStringLiteral("view/tab"), 0).toInt(), 0,
                                      tabs_->count() - 1));
    inside_->setCurrentIndex(std::clamp(s.value(QStringLiteral("view/insidePanel"), 0).toInt(), 0,
                                        inside_->count() - 1));
    if (s.value(QStringLiteral("view/presentation"), false).toBool())
        action(QStringLiteral("presentation"))->setChecked(true);
}

void MainWindow::saveSettings() const {
    QSettings s;
    // The layout without presentation mode (which comes back on its own, from view/presentation).
    s.setValue(QStringLiteral("window/geometry"), presentation_ ? savedGeometry_ : saveGeometry());
    s.setValue(QStringLiteral("window/state"), presentation_ ? savedState_ : saveState());
    s.setValue(QStringLiteral("charts/logY"), charts_->logY());
    s.setValue(QStringLiteral("charts/logX"), charts_->logX());
    s.setValue(QStringLiteral("charts/wallTimeX"), charts_->wallTimeX());
    s.setValue(QStringLiteral("charts/smoothing"), charts_->smoothing());
    s.setValue(QStringLiteral("run/seeds"), seeds());
    s.setValue(QStringLiteral("view/tab"), presentation_ ? savedTab_ : tabs_->currentIndex());
    s.setValue(QStringLiteral("view/insidePanel"), inside_->currentIndex());
    s.setValue(QStringLiteral("charts/seedsSeparate"), charts_->seedsSeparate());
    {
        QVariantMap shown;
        for (const auto& [id, on] : charts_->chartChoices())
            shown[id] = on;
        s.setValue(QStringLiteral("charts/shown"), shown);
    }
    s.setValue(QStringLiteral("form/config"),
               QString::fromStdString(form_->config().toJson().dump()));
    s.setValue(QStringLiteral("view/presentation"), presentation_);
}

}  // namespace ade::ui
