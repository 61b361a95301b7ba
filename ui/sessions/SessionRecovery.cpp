// SessionManager: the crash-recovery file (the periodic save, the offer at start-up, a clean
// close, closing mid-run) and bringing back the loaded preset and its claims with the runs.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>

#include "base/FrameStats.h"
#include "plan/Preset.h"
#include "runs/ClaimsMonitor.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "sessions/RecoveryWriter.h"
#include "sessions/SessionManager.h"
#include "workspace/Shell.h"
#include "workspace/Workspace.h"

namespace ade::ui {

void SessionManager::setRecoveryPath(const QString& path) {
    recoveryWriter_->cancel();
    recoveryPath_ = path;
    recoveryLock_.reset();
    recoveryWriter_->setPath({});
    if (path.isEmpty()) return;
    QDir().mkpath(QFileInfo(path).absolutePath());
    recoveryLock_ = std::make_unique<QLockFile>(path + ".lock");
    recoveryLock_->setStaleLockTime(0);
    if (!recoveryLock_->tryLock(0)) {
        recoveryLock_.reset();  // another explorer owns it
        return;
    }
    recoveryWriter_->setPath(path.toStdString());
}

nlohmann::json SessionManager::planDocument() const {
    // A preset's comparison (a sweep's runs are not in the store: its claims stay behind).
    if (workspace_->presetName().isEmpty() || !workspace_->hasComparison()) return nullptr;
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& r : workspace_->presetRuns())
        runs.push_back({{"name", r.label}, {"config", r.config.toJson()}});
    nlohmann::json claims = nlohmann::json::array();
    for (const auto& c : workspace_->claims()->claims())
        claims.push_back(ade::toJson(c));
    return {{"name", workspace_->presetName().toStdString()},
            {"description", workspace_->presetDescription().toStdString()},
            {"about", workspace_->presetAbout().toStdString()},
            {"seeds", workspace_->seeds()},
            {"runs", std::move(runs)},
            {"claims", std::move(claims)}};
}

bool SessionManager::writeRecovery(QString* error, bool wait) {
    if (recoveryPath_.isEmpty() || !recoveryLock_ || workspace_->store()->runs().empty())
        return false;
    QElapsedTimer t;
    t.start();
    const double cpu0 = FrameStats::threadCpuMs();
    ade::Session header;
    header.plan = planDocument();
    header.preset = workspace_->presetName().toStdString();
    std::map<int, std::string> labels;
    for (const auto& [id, label] : workspace_->claims()->runs())
        labels[id] = label;
    recoveryWriter_->save(*workspace_->store(), header, labels);
    lastRecoveryMs_ = t.nsecsElapsed() / 1e6;
    lastRecoveryCpuMs_ = FrameStats::threadCpuMs() - cpu0;
    if (!wait) return true;
    std::string err;
    const bool ok = recoveryWriter_->flush(&err);
    if (!ok && error) *error = QString::fromStdString(err);
    return ok;
}

void SessionManager::offerRecovery() {
    if (recoveryPath_.isEmpty() || !recoveryLock_ || !QFileInfo::exists(recoveryPath_)) return;
    const auto answer =
        interactive_ ? QMessageBox::question(shell_->dialogParent(), tr("Recover runs?"),
                                             tr("The explorer closed while runs were in progress "
                                                "last time (closed mid-run, or it did not close "
                                                "normally). Restore the runs it had (histories, "
                                                "snapshots and parameters up to where they "
                                                "stopped, or up to the last automatic save after "
                                                "a crash) and the preset's claims?"))
                     : QMessageBox::Yes;
    if (answer == QMessageBox::Yes) {
        const auto r = ade::readSessionFile(recoveryPath_.toStdString());
        if (!r.session) {
            showError(tr("Cannot recover the runs"), QString::fromStdString(r.error));
        } else {
            const std::vector<int> ids = addSession(*r.session, false, true);
            restorePlan(*r.session, ids);
            int crashed = 0;
            for (const auto& run : r.session->runs)
                crashed += run.running ? 1 : 0;
            shell_->showMessage(
                crashed ? tr("Recovered %1; %2 stopped by the crash (Continue goes on from "
                             "their last saved parameters)")
                              .arg(runCountText(static_cast<int>(ids.size())))
                              .arg(runCountText(crashed))
                        : tr("Recovered %1").arg(runCountText(static_cast<int>(ids.size()))),
                15000);
        }
    }
    QFile::remove(recoveryPath_);
}

void SessionManager::restorePlan(const ade::Session& session, const std::vector<int>& ids) {
    if (!session.plan.is_object()) return;
    ade::PlanError error;
    const auto plan = ade::parsePlan(session.plan.dump(), "the recovered preset", {}, &error);
    if (!plan) {
        qWarning("attention-explorer: the recovered preset's claims cannot be restored: %s",
                 error.message.c_str());
        return;
    }
    const QString name = QString::fromStdString(
        session.plan.value("name", session.preset.empty() ? plan->name : session.preset));
    // The form, the About panel and the claims as they were (its runs are not started again).
    if (!shell_->loadPlan(*plan, name, false)) return;
    std::vector<std::pair<int, std::string>> runs;
    std::vector<int> crashed;
    for (std::size_t i = 0; i < session.runs.size() && i < ids.size(); ++i) {
        if (!session.runs[i].claimLabel.empty())
            runs.emplace_back(ids[i], session.runs[i].claimLabel);
        if (session.runs[i].running) crashed.push_back(ids[i]);
    }
    workspace_->claims()->setInterrupted(std::move(crashed));
    workspace_->claims()->setRuns(std::move(runs));  // judged again on the recovered runs
}

void SessionManager::closeCleanly() {
    recoveryTimer_.stop();
    recoveryWriter_->cancel();
    recoveryWriter_->stop();
    if (!recoveryPath_.isEmpty() && recoveryLock_) QFile::remove(recoveryPath_);
}

bool SessionManager::closeMidRun() {
    recoveryTimer_.stop();
    if (recoveryPath_.isEmpty() || !recoveryLock_) return false;
    QString error;
    const bool kept = writeRecovery(&error);
    recoveryWriter_->stop();  // written: the closed window keeps no thread
    if (!kept) {
        if (!error.isEmpty())
            qWarning(
                "attention-explorer: closed mid-run, and the stopped runs could not be kept "
                "in %s: %s",
                qPrintable(recoveryPath_), qPrintable(error));
        return false;
    }
    qInfo(
        "attention-explorer: closed mid-run; the stopped runs and their histories are kept in "
        "%s and offered at the next start",
        qPrintable(recoveryPath_));
    return true;
}

}  // namespace ade::ui
