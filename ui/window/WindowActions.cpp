#include "window/WindowActions.h"

#include <QAction>
#include <QDockWidget>
#include <QMessageBox>
#include <QStyle>
#include <QTabWidget>

#include "Version.h"
#include "charts/ChartArea.h"
#include "inspect/AnimationDialog.h"
#include "inspect/InsideView.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "sweep/SweepTab.h"
#include "util/CpuLevel.h"
#include "window/Autopilot.h"
#include "window/HelpTexts.h"
#include "window/MainWindow.h"
#include "window/PresentationMode.h"
#include "window/RunCommands.h"

namespace ade::ui {

namespace {
QList<QKeySequence> keys(QKeySequence::StandardKey k) {
    return QKeySequence::keyBindings(k);
}
QList<QKeySequence> keys(QKeyCombination k) {
    return {QKeySequence(k)};
}
}  // namespace

std::vector<ActionSpec> windowActionTable() {
    std::vector<ActionSpec> t = {
        // Run
        {"start", QObject::tr("&Start"), keys(Qt::CTRL | Qt::Key_Return),
         QObject::tr(
             "Start the loaded preset's comparison (all its runs) when nothing runs and the "
             "form still shows the preset; otherwise a new run with the parameters of the form"),
         QStyle::SP_MediaPlay},
        {"pause", QObject::tr("&Pause"), keys(Qt::Key_Space),
         QObject::tr(
             "Play / Pause: pause or resume the active runs; when nothing runs, play one run of "
             "the form's settings if they have not run yet (never a second copy of finished "
             "runs)"),
         QStyle::SP_MediaPause},
        {"step", QObject::tr("S&tep"), keys(Qt::Key_S),
         QObject::tr("Pause, then advance every active run to its next recorded iteration (one "
                     "iteration when every iteration is logged)"),
         QStyle::SP_MediaSeekForward},
        {"stop", QObject::tr("St&op"), keys(Qt::Key_Escape),
         QObject::tr("Stop the active runs (their curves are kept)"), QStyle::SP_MediaStop},
        {"reset", QObject::tr("&Reset"), keys(Qt::Key_R),
         QObject::tr(
             "Restart the last Start's (or preset's) runs from iteration 0 with the same config, "
             "seed, data and initial weights; each keeps its name and colour, and its curve is "
             "drawn again from the start"),
         QStyle::SP_MediaSkipBackward},
        {"reseed", QObject::tr("Re-s&eed"), keys(Qt::SHIFT | Qt::Key_R),
         QObject::tr("Run the last Start's (or preset's) runs again with a new seed (new data and "
                     "initial weights), each with its own config, as new runs beside the old ones, "
                     "whose curves stay; the form is not changed"),
         QStyle::SP_BrowserReload},
        {"compareConfigs",
         QObject::tr("&Compare configs…"),
         {},
         QObject::tr("The configs of the selected runs side by side, their differences marked")},
        // File
        {"exportRunCsv",
         QObject::tr("Export selected run as CSV…"),
         {},
         QObject::tr(
             "The selected run's records (every metric, every recorded iteration) as a CSV file")},
        {"saveScreenshot",
         QObject::tr("Save screenshot…"),
         {},
         QObject::tr("The whole window as attention-explorer.png in the working folder")},
        {"exportAnimation",
         QObject::tr("Export &animation…"),
         {},
         QObject::tr(
             "The selected run over its parameter snapshots as MP4, animated GIF or PNG frames")},
        {"openSweepFolder",
         QObject::tr("Open s&weep folder…"),
         {},
         QObject::tr(
             "Show a sweep folder (local or Slurm, finished or still running) in the sweep tab")},
        {"openOptunaStudy", QObject::tr("Open &Optuna study…"),
         keys(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
         QObject::tr("Show an Optuna study's storage (its SQLite .db or journal file) in the "
                     "sweep tab, read-only: each trial a row, its intermediate values its curve; "
                     "re-read when the file changes")},
        {"quit", QObject::tr("&Quit"), keys(QKeySequence::Quit),
         QObject::tr("Close the window; runs not saved ask Save, Discard or Cancel")},
        // Edit
        {"resetForm",
         QObject::tr("Reset &form to defaults"),
         {},
         QObject::tr("Every parameter of the form's experiment back to its default")},
        // View
        {"logY",
         QObject::tr("Log &y axes"),
         {},
         QObject::tr("Logarithmic y axes on every chart"),
         QStyle::SP_CustomBase,
         true},
        {"logX",
         QObject::tr("Log &x axis"),
         {},
         QObject::tr("A logarithmic iteration (or time) axis"),
         QStyle::SP_CustomBase,
         true},
        {"seedsSeparate",
         QObject::tr("Show &seeds separately"),
         {},
         QObject::tr("Draw every seed's own curve instead of each run's mean over its seeds with a "
                     "min–max band"),
         QStyle::SP_CustomBase,
         true},
        {"fitCharts", QObject::tr("&Fit charts"), keys(Qt::Key_F),
         QObject::tr("Every chart's axes fitted to its data")},
        {"presentation", QObject::tr("&Presentation mode"), keys(Qt::Key_F11),
         QObject::tr(
             "The charts alone, full screen, with large type, thick lines and projector colours; "
             "1-4 show one chart, 0 all four"),
         QStyle::SP_CustomBase, true},
        {"liveCharts", QObject::tr("&Live charts"), keys(Qt::CTRL | Qt::Key_1),
         QObject::tr("The live charts tab")},
        {"sweepView", QObject::tr("S&weep view"), keys(Qt::CTRL | Qt::Key_2),
         QObject::tr("The sweep tab: sweeps of 1–3 keys over seeds")},
        {"insideView", QObject::tr("&Inside the model"), keys(Qt::CTRL | Qt::Key_3),
         QObject::tr(
             "Matrices, attention, the factor plane and the loss landscape of the focused run")},
        // Help
        {"quickStart",
         QObject::tr("&Quick start"),
         {},
         QObject::tr("What to press first, in eight lines")},
        {"shortcuts",
         QObject::tr("&Keyboard shortcuts"),
         {},
         QObject::tr("Every key of the window")},
        {"aboutExperiment", QObject::tr("About this &experiment"), keys(QKeySequence::HelpContents),
         QObject::tr("The About panel: the experiment, the loaded preset and its claims")},
        {"aboutApp",
         QObject::tr("&About Attention Dynamics Explorer"),
         {},
         QObject::tr("The version and the kernels this computer runs")},
    };
    // Presentation mode's chart: keys that act only in presentation mode (the form is hidden
    // then, so no field takes the digits); the texts name the charts when the menu opens.
    static const char* const chartIds[] = {"presentChart0", "presentChart1", "presentChart2",
                                           "presentChart3", "presentChart4"};
    for (int i = 0; i <= 4; ++i)
        t.push_back({chartIds[i],
                     i == 0 ? QObject::tr("Presentation: all charts (2 × 2)")
                            : QObject::tr("Presentation: chart %1").arg(i),
                     keys(static_cast<Qt::Key>(Qt::Key_0 + i)),
                     {},
                     QStyle::SP_CustomBase,
                     true});
    return t;
}

void connectWindowActions(MainWindow& window) {
    MainWindow* w = &window;
    auto on = [w](const char* id, auto slot) {
        QObject::connect(w->action(QLatin1String(id)), &QAction::triggered, w, slot);
    };
    RunCommands* c = w->commands();
    ChartArea* charts = w->charts();
    QTabWidget* tabs = w->centreTabs();
    on("start", [c] { c->start(); });
    on("pause", [c] { c->togglePause(); });
    on("step", [c] { c->step(); });
    on("stop", [c] { c->stopRuns(); });
    on("reset", [c] { c->resetRuns(); });
    on("reseed", [c] { c->reseedRuns(); });
    on("compareConfigs", [w] { w->runList()->compareSelected(); });
    on("exportRunCsv", [w, c] {
        if (const auto ids = w->runList()->selectedRunIds(); !ids.isEmpty())
            c->exportRun(ids.front());
    });
    on("saveScreenshot",
       [w] { w->autopilot()->saveScreenshot(QStringLiteral("attention-explorer.png")); });
    on("exportAnimation", [w] { exportAnimationOfFocusedRun(*w->workspace(), *w); });
    on("openSweepFolder", [w] { w->sweepTab()->openFolder(); });
    on("openOptunaStudy", [w] { w->sweepTab()->openOptunaStudy(); });
    on("quit", [w] { w->close(); });
    on("resetForm", [c] { c->resetForm(); });
    w->action(QStringLiteral("logY"))->setChecked(charts->logY());
    QObject::connect(w->action(QStringLiteral("logY")), &QAction::toggled, charts,
                     &ChartArea::setLogY);
    QObject::connect(w->action(QStringLiteral("logX")), &QAction::toggled, charts,
                     &ChartArea::setLogX);
    QObject::connect(w->action(QStringLiteral("seedsSeparate")), &QAction::toggled, charts,
                     &ChartArea::setSeedsSeparate);
    on("fitCharts", [charts] { charts->fitAll(); });
    QObject::connect(w->action(QStringLiteral("presentation")), &QAction::toggled,
                     w->presentationMode(), &PresentationMode::setOn);
    for (int i = 0; i <= 4; ++i) {
        QAction* a = w->action(QStringLiteral("presentChart%1").arg(i));
        a->setChecked(i == 0);
        a->setEnabled(false);
        QObject::connect(a, &QAction::triggered, w, [w, i] { w->showPresentationChart(i - 1); });
    }
    on("liveCharts", [tabs, charts] { tabs->setCurrentWidget(charts); });
    on("sweepView", [w, tabs] { tabs->setCurrentWidget(w->sweepTab()); });
    on("insideView", [w, tabs] { tabs->setCurrentWidget(w->insideView()); });
    on("quickStart", [w] { showQuickStart(w); });
    on("shortcuts", [w] { showShortcuts(w); });
    on("aboutExperiment", [w] {
        if (auto* d = w->findChild<QDockWidget*>(QStringLiteral("aboutDock"))) {
            d->show();
            d->raise();
        }
    });
    on("aboutApp", [w] {
        QMessageBox::about(
            w, QObject::tr("About"),
            QObject::tr("<b>Attention Dynamics Explorer</b> %1<br>Watch softmax attention "
                        "learn: live training dynamics, comparisons and scaling laws.<br>"
                        "<small>Kernels: %2</small>")
                .arg(QStringLiteral(ADE_VERSION), QString::fromStdString(cpu::levelSummary())));
    });
}

}  // namespace ade::ui
