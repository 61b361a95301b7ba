#include "sweep/SweepTab.h"

#include <QFileDialog>

#include <algorithm>

#include "charts/ChartArea.h"
#include "form/ParamForm.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "sweep/SweepView.h"

namespace ade::ui {

SweepTab::SweepTab(RunStore* store, RunListWidget* runList, ChartArea* charts, ParamForm* form,
                   QWidget* parent)
    : QScrollArea(parent), store_(store), runList_(runList), charts_(charts), form_(form) {
    setObjectName(QStringLiteral("sweepScroll"));
    setFrameShape(QFrame::NoFrame);
    setWidgetResizable(true);
    view_ = new SweepView(this);
    setWidget(view_);
    connect(view_, &SweepView::started, this, [this] { shownRuns_.clear(); });
    connect(view_, &SweepView::openRunsRequested, this, &SweepTab::showRuns);
    connect(view_, &SweepView::applyRequested, this, &SweepTab::applyValues);
    connect(view_, &SweepView::openFolderRequested, this, [this] { openFolder(); });
    connect(view_, &SweepView::openOptunaRequested, this, [this] { openOptunaStudy(); });
}

void SweepTab::showRuns(const std::vector<ade::RunOutcome>& runs, const QString& label) {
    std::vector<int> ids;
    if (const auto it = shownRuns_.find(label); it != shownRuns_.end()) {
        ids = it->second;
        for (int id : ids)
            if (!store_->run(id)) ids.clear();  // one was deleted: add them again
    }
    if (ids.empty()) {
        ade::Session session;
        for (const auto& o : runs) {
            ade::SessionRun r = ade::sessionRunOf(o, 1);
            // An Optuna trial its pruner stopped says so in the run list and the charts'
            // legends, beside the trials that ran to the end.
            if (o.result.stop == "pruned")
                r.name += " (pruned at iteration " + std::to_string(o.result.iterationsDone) + ")";
            // The seeds of the config form one group (drawn as their mean with a band).
            if (runs.size() > 1) {
                r.group = label.toStdString();
                r.seedIndex = o.run.seedIndex;
            }
            session.runs.push_back(std::move(r));
        }
        ids = addSessionToStore(session, *store_);
        shownRuns_[label] = ids;
    }
    if (ids.empty()) return;
    // Runs of another experiment leave the charts (they stay in the run list), as a preset's
    // runs hide the runs before them: A's ‖A‖ and Darcy's ‖W_Q‖ never share an axis.
    const std::string experiment = store_->run(ids.front())->config.experiment();
    int hidden = 0;
    for (const auto& r : store_->runs()) {
        const bool mine = std::find(ids.begin(), ids.end(), r->id) != ids.end();
        if (mine) {
            store_->setVisible(r->id, true);
        } else if (r->visible && r->config.experiment() != experiment) {
            store_->setVisible(r->id, false);
            ++hidden;
        }
    }
    runList_->clearSelection();
    if (QTreeWidgetItem* item = runList_->itemForRun(ids.front())) {
        runList_->setCurrentItem(item);
        runList_->scrollToItem(item);
    }
    emit showChartsRequested();
    charts_->refresh(true);
    QString text = tr("Sweep config %1: %2 in the run list")
                       .arg(label, runCountText(static_cast<int>(ids.size())));
    if (hidden > 0)
        text += tr("; %n run(s) of other experiments hidden from the charts", nullptr, hidden);
    emit message(text, 8000);
}

void SweepTab::applyValues(const std::vector<std::pair<std::string, std::string>>& values) {
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
    emit message(msg, 10000);
}

bool SweepTab::openFolder(const QString& dir) {
    QString path = dir;
    if (path.isEmpty())
        path = QFileDialog::getExistingDirectory(this, tr("Open sweep folder"), QString(),
                                                 QFileDialog::ShowDirsOnly);
    if (path.isEmpty()) return false;
    emit showRequested();
    return view_->openFolder(path);
}

}  // namespace ade::ui

namespace ade::ui {

bool SweepTab::openOptunaStudy(const QString& file, const QString& study, QString* error) {
    QString path = file;
    if (path.isEmpty())
        path = QFileDialog::getOpenFileName(
            this, tr("Open Optuna study (read-only)"), QString(),
            tr("Optuna storage (*.db *.sqlite *.sqlite3 *.log *.journal);;All files (*)"));
    if (path.isEmpty()) return false;
    emit showRequested();
    QString err;
    if (view_->openOptunaStudy(path, study, &err)) return true;
    emit message(tr("Cannot open the Optuna study %1: %2").arg(path, err), 15000);
    if (error) *error = err;
    return false;
}

}  // namespace ade::ui
