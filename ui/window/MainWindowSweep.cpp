// The window's side of the sweep tab: the status bar says what a sweep runs, a config clicked in
// a sweep view comes into the run list (its seeds as one group) and is selected in the charts,
// "Apply to form" copies a config's values into the parameter panel, File > Open sweep folder….
#include <QFileDialog>
#include <QLabel>
#include <QStatusBar>
#include <QTabWidget>

#include "charts/ChartArea.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "sweep/SweepView.h"

namespace ade::ui {

void MainWindow::buildSweepWiring() {
    connect(sweep_, &SweepView::statusChanged, this, [this] { updateStatus(); });
    connect(sweep_, &SweepView::started, this, [this] { sweepRuns_.clear(); });
    connect(sweep_, &SweepView::openRunsRequested, this, &MainWindow::showSweepRuns);
    connect(sweep_, &SweepView::applyRequested, this, &MainWindow::applySweepValues);
    connect(sweep_, &SweepView::openFolderRequested, this, [this] { openSweepFolder(); });
}

void MainWindow::showSweepRuns(const std::vector<ade::RunOutcome>& runs, const QString& label) {
    std::vector<int> ids;
    if (const auto it = sweepRuns_.find(label); it != sweepRuns_.end()) {
        ids = it->second;
        for (int id : ids)
            if (!store_->run(id)) ids.clear();  // one was deleted: add them again
    }
    if (ids.empty()) {
        ade::Session session;
        for (const auto& o : runs) {
            ade::SessionRun r = ade::sessionRunOf(o, 1);
            // The seeds of the config form one group (drawn as their mean with a band).
            if (runs.size() > 1) {
                r.group = label.toStdString();
                r.seedIndex = o.run.seedIndex;
            }
            session.runs.push_back(std::move(r));
        }
        ids = addSessionToStore(session, *store_);
        sweepRuns_[label] = ids;
    }
    if (ids.empty()) return;
    for (const auto& r : store_->runs())
        if (std::find(ids.begin(), ids.end(), r->id) != ids.end()) store_->setVisible(r->id, true);
    runList_->clearSelection();
    if (QTreeWidgetItem* item = runList_->itemForRun(ids.front())) {
        runList_->setCurrentItem(item);
        runList_->scrollToItem(item);
    }
    tabs_->setCurrentWidget(charts_);
    charts_->refresh(true);
    statusBar()->showMessage(tr("Sweep config %1: %2 in the run list")
                                 .arg(label, runCount(static_cast<int>(ids.size()))),
                             8000);
}

void MainWindow::applySweepValues(const std::vector<std::pair<std::string, std::string>>& values) {
    ade::Config c = form_->config();
    QStringList applied, refused;
    for (const auto& [k, v] : values) {
        if (const auto e = c.setText(k, v))
            refused << QString::fromStdString(e->message);
        else
            applied << QStringLiteral("%1 = %2").arg(QString::fromStdString(k),
                                                    QString::fromStdString(v));
    }
    form_->setConfig(c);
    QString msg = tr("Applied to the form: %1").arg(applied.join(QStringLiteral(", ")));
    if (!refused.isEmpty()) msg += tr("; refused: %1").arg(refused.join(QStringLiteral("; ")));
    statusBar()->showMessage(msg, 10000);
}

bool MainWindow::openSweepFolder(const QString& dir) {
    QString path = dir;
    if (path.isEmpty())
        path = QFileDialog::getExistingDirectory(this, tr("Open sweep folder"), QString(),
                                                 QFileDialog::ShowDirsOnly);
    if (path.isEmpty()) return false;
    tabs_->setCurrentWidget(sweepTab_);
    const bool ok = sweep_->openFolder(path);
    updateStatus();
    return ok;
}

}  // namespace ade::ui
