// SessionManager: the Edit menu (copy / paste a config) and continuing a stopped run.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QStatusBar>

#include "base/ActionTable.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "sessions/SessionManager.h"
#include "plan/Preset.h"
#include "workspace/Shell.h"
#include "workspace/Workspace.h"

namespace ade::ui {

QMenu* SessionManager::editMenu(QMenu* edit) {
    const auto actions = makeActions(
        shell_->dialogParent(),
        {{"copyConfig", tr("&Copy run as config"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C)},
          tr("The selected run's JSON config to the clipboard, to share a setting")},
         {"pasteConfig", tr("&Paste config"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V)},
          tr("Fill the form from a JSON config on the clipboard")}});
    connect(actions[0], &QAction::triggered, this, [this] { copySelectedRunAsConfig(); });
    connect(actions[1], &QAction::triggered, this, [this] {
        QString error;
        if (!pasteConfig(QApplication::clipboard()->text(), &error))
            showError(tr("Cannot paste config"), error);
    });
    edit->addActions({actions[0], actions[1]});
    return edit;
}

bool SessionManager::copySelectedRunAsConfig() {
    const auto ids = shell_->selectedRunIds();
    const RunRecord* r = ids.isEmpty() ? nullptr : workspace_->store()->run(ids.front());
    const ade::Config config = r ? r->config : shell_->formConfig();
    QApplication::clipboard()->setText(QString::fromStdString(config.toJson().dump(2)));
    shell_->showMessage(tr("Config copied to the clipboard"), 4000);
    return true;
}

bool SessionManager::pasteConfig(const QString& text, QString* error) {
    ade::PlanError pe;
    const auto plan = ade::parsePlan(text.toStdString(), "clipboard", {}, &pe);
    if (!plan) {
        if (error) *error = QString::fromStdString(pe.message);
        return false;
    }
    shell_->setFormConfig(plan->runs.front().config);
    shell_->showMessage(tr("Form filled from the pasted config"), 4000);
    return true;
}

bool SessionManager::continueRun(int id, long moreIterations, QString* error) {
    const RunRecord* r = workspace_->store()->run(id);
    if (!r || !r->finalParams) {
        if (error) *error = tr("this run has no saved parameters to continue from");
        return false;
    }
    if (isActive(r->state)) {
        if (error) *error = tr("this run is still running");
        return false;
    }
    ade::Config c = r->config;
    c.setJson("iterations", moreIterations);
    // Its iterations carry on the numbering of the run it continues (its record 0 is the
    // other's last state), so on the charts it goes on from where that run stopped: from the
    // iteration of its parameters (a run recovered after a crash: its last snapshot's).
    const long offset = paramsIteration(*r);
    const auto params = r->finalParams;
    RunStore* store = workspace_->store();
    const int cont = store->addRun(r->name + "-continued", c);
    store->run(cont)->iterationOffset = offset;
    workspace_->controller()->startRecord(cont, params);
    return true;
}

}  // namespace ade::ui
