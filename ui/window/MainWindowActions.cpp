// MainWindow: its commands in one table (id, text, keys, icon, tooltip; base/ActionTable.h), and
// what each one does. Menus and the toolbar place them by id; Help > Keyboard shortcuts lists
// them with the other rooms' tables (sessions, lessons, time travel).
#include <QAction>
#include <QDockWidget>
#include <QMessageBox>
#include <QTabWidget>

#include "Version.h"
#include "base/ActionTable.h"
#include "charts/ChartArea.h"
#include "inspect/AnimationDialog.h"
#include "runlist/RunListWidget.h"
#include "util/CpuLevel.h"
#include "window/MainWindow.h"

namespace ade::ui {

namespace {
QList<QKeySequence> keys(QKeySequence::StandardKey k) {
    return QKeySequence::keyBindings(k);
}
QList<QKeySequence> keys(QKeyCombination k) {
    return {QKeySequence(k)};
}
}  // namespace

std::vector<ActionSpec> MainWindow::actionTable() {
    std::vector<ActionSpec> t = {
        // Run
        {"start", tr("&Start"), keys(Qt::CTRL | Qt::Key_Return),
         tr("Start the loaded preset's comparison (all its runs) when nothing runs and the "
            "form still shows the preset; otherwise a new run with the parameters of the form"),
         QStyle::SP_MediaPlay},
        {"pause", tr("&Pause"), keys(Qt::Key_Space),
         tr("Play / Pause: pause or resume the active runs; when nothing runs, play one run of "
            "the form's settings if they have not run yet (never a second copy of finished "
            "runs)"),
         QStyle::SP_MediaPause},
        {"step", tr("S&tep"), keys(Qt::Key_S),
         tr("Pause, then advance every active run to its next recorded iteration (one "
            "iteration when every iteration is logged)"),
         QStyle::SP_MediaSeekForward},
        {"stop", tr("St&op"), keys(Qt::Key_Escape), tr("Stop the active runs (their curves are kept)"),
         QStyle::SP_MediaStop},
        {"reset", tr("&Reset"), keys(Qt::Key_R),
         tr("Restart the last Start's (or preset's) runs from iteration 0 with the same config, "
            "seed, data and initial weights; each keeps its name and colour, and its curve is "
            "drawn again from the start"),
         QStyle::SP_MediaSkipBackward},
        {"reseed", tr("Re-s&eed"), keys(Qt::SHIFT | Qt::Key_R),
         tr("Run the last Start's (or preset's) runs again with a new seed (new data and "
            "initial weights), each with its own config, as new runs beside the old ones, "
            "whose curves stay; the form is not changed"),
         QStyle::SP_BrowserReload},
        {"compareConfigs", tr("&Compare configs…"), {},
         tr("The configs of the selected runs side by side, their differences marked")},
        // File
        {"exportRunCsv", tr("Export selected run as CSV…"), {},
         tr("The selected run's records (every metric, every recorded iteration) as a CSV file")},
        {"saveScreenshot", tr("Save screenshot…"), {},
         tr("The whole window as attention-explorer.png in the working folder")},
        {"exportAnimation", tr("Export &animation…"), {},
         tr("The selected run over its parameter snapshots as MP4, animated GIF or PNG frames")},
        {"openSweepFolder", tr("Open s&weep folder…"), {},
         tr("Show a sweep folder (local or Slurm, finished or still running) in the sweep tab")},
        {"quit", tr("&Quit"), keys(QKeySequence::Quit),
         tr("Close the window; runs not saved ask Save, Discard or Cancel")},
        // Edit
        {"resetForm", tr("Reset &form to defaults"), {},
         tr("Every parameter of the form's experiment back to its default")},
        // View
        {"logY", tr("Log &y axes"), {}, tr("Logarithmic y axes on every chart"),
         QStyle::SP_CustomBase, true},
        {"logX", tr("Log &x axis"), {}, tr("A logarithmic iteration (or time) axis"),
         QStyle::SP_CustomBase, true},
        {"seedsSeparate", tr("Show &seeds separately"), {},
         tr("Draw every seed's own curve instead of each run's mean over its seeds with a "
            "min–max band"),
         QStyle::SP_CustomBase, true},
        {"fitCharts", tr("&Fit charts"), keys(Qt::Key_F), tr("Every chart's axes fitted to its data")},
        {"presentation", tr("&Presentation mode"), keys(Qt::Key_F11),
         tr("The charts alone, full screen, with large type, thick lines and projector colours; "
            "1-4 show one chart, 0 all four"),
         QStyle::SP_CustomBase, true},
        {"liveCharts", tr("&Live charts"), keys(Qt::CTRL | Qt::Key_1), tr("The live charts tab")},
        {"sweepView", tr("S&weep view"), keys(Qt::CTRL | Qt::Key_2),
         tr("The sweep tab: sweeps of 1–3 keys over seeds")},
        {"insideView", tr("&Inside the model"), keys(Qt::CTRL | Qt::Key_3),
         tr("Matrices, attention, the factor plane and the loss landscape of the focused run")},
        // Help
        {"quickStart", tr("&Quick start"), {}, tr("What to press first, in eight lines")},
        {"shortcuts", tr("&Keyboard shortcuts"), {}, tr("Every key of the window")},
        {"aboutExperiment", tr("About this &experiment"), keys(QKeySequence::HelpContents),
         tr("The About panel: the experiment, the loaded preset and its claims")},
        {"aboutApp", tr("&About Attention Dynamics Explorer"), {},
         tr("The version and the kernels this computer runs")},
    };
    // Presentation mode's chart: keys that act only in presentation mode (the form is hidden
    // then, so no field takes the digits); the texts name the charts when the menu opens.
    static const char* const chartIds[] = {"presentChart0", "presentChart1", "presentChart2",
                                           "presentChart3", "presentChart4"};
    for (int i = 0; i <= 4; ++i)
        t.push_back({chartIds[i],
                     i == 0 ? tr("Presentation: all charts (2 × 2)")
                            : tr("Presentation: chart %1").arg(i),
                     keys(static_cast<Qt::Key>(Qt::Key_0 + i)), {}, QStyle::SP_CustomBase, true});
    return t;
}

void MainWindow::connectActions() {
    auto on = [this](const char* id, auto slot) {
        connect(action(QLatin1String(id)), &QAction::triggered, this, slot);
    };
    on("start", [this] { start(); });
    on("pause", [this] { togglePause(); });
    on("step", [this] { step(); });
    on("stop", [this] { stopRuns(); });
    on("reset", [this] { resetRuns(); });
    on("reseed", [this] { reseedRuns(); });
    on("compareConfigs", [this] { runList_->compareSelected(); });
    on("exportRunCsv", [this] {
        const auto ids = runList_->selectedRunIds();
        if (!ids.isEmpty()) exportRun(ids.front());
    });
    on("saveScreenshot", [this] { saveScreenshot(QStringLiteral("attention-explorer.png")); });
    on("exportAnimation", [this] { exportAnimationOfFocusedRun(*workspace_, *this); });
    on("openSweepFolder", [this] { openSweepFolder(); });
    on("quit", [this] { close(); });
    on("resetForm", [this] { resetForm(); });
    action(QStringLiteral("logY"))->setChecked(charts_->logY());
    connect(action(QStringLiteral("logY")), &QAction::toggled, charts_, &ChartArea::setLogY);
    connect(action(QStringLiteral("logX")), &QAction::toggled, charts_, &ChartArea::setLogX);
    connect(action(QStringLiteral("seedsSeparate")), &QAction::toggled, charts_,
            &ChartArea::setSeedsSeparate);
    on("fitCharts", [this] { charts_->fitAll(); });
    connect(action(QStringLiteral("presentation")), &QAction::toggled, this,
            &MainWindow::setPresentation);
    for (int i = 0; i <= 4; ++i) {
        QAction* a = action(QStringLiteral("presentChart%1").arg(i));
        a->setChecked(i == 0);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, [this, i] { showPresentationChart(i - 1); });
    }
    on("liveCharts", [this] { tabs_->setCurrentWidget(charts_); });
    on("sweepView", [this] { tabs_->setCurrentWidget(sweepTab_); });
    on("insideView", [this] { tabs_->setCurrentWidget(inside_); });
    on("quickStart", [this] { showQuickStart(); });
    on("shortcuts", [this] { showShortcuts(); });
    on("aboutExperiment", [this] {
        if (auto* d = findChild<QDockWidget*>(QStringLiteral("aboutDock"))) {
            d->show();
            d->raise();
        }
    });
    on("aboutApp", [this] {
        QMessageBox::about(this, tr("About"),
                           tr("<b>Attention Dynamics Explorer</b> %1<br>Watch softmax attention "
                              "learn: live training dynamics, comparisons and scaling laws.<br>"
                              "<small>Kernels: %2</small>")
                               .arg(QStringLiteral(ADE_VERSION),
                                    QString::fromStdString(cpu::levelSummary())));
    });
}

}  // namespace ade::ui
