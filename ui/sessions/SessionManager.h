#pragma once
// The File menu's work with files: save/open sessions (recent list), an automatic recovery file
// while runs are active (offered after a crash), chart and data exports, "Copy run as config" /
// "Paste config", and continuing a stopped run from its saved parameters. Errors are shown in a
// message box naming the file and the problem; nothing in the window is lost.
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <vector>

#include "output/Session.h"

class QAction;
class QMenu;

namespace ade::ui {

class RecoveryWriter;
class Shell;
class Workspace;

class SessionManager : public QObject {
    Q_OBJECT
  public:
    // `persistent`: recent list and recovery file on disk (off in tests unless a path is set).
    // The sessions of `workspace`'s runs; dialogs, messages and the charts' view from `shell`.
    SessionManager(Workspace* workspace, Shell* shell, bool persistent, QObject* parent = nullptr);
    ~SessionManager() override;

    void addToFileMenu(QMenu* file);
    QMenu* editMenu(QMenu* edit);  // copy / paste config

    bool saveSession(const QString& file, QString* error = nullptr);
    // An Optuna study's storage (ade::looksLikeOptunaStorage: an SQLite file or a journal; or a
    // file named as one, .db .sqlite .sqlite3 .log .journal) goes to the study opener when one is set (the window's: the sweep tab, read-only) and
    // joins Open recent; the runs and the session file to save stay as they were.
    bool openSession(const QString& file, QString* error = nullptr, bool replace = true);
    void setStudyOpener(std::function<bool(const QString& file, QString* error)> opener) {
        studyOpener_ = std::move(opener);
    }
    bool exportCharts(const QString& folder, QString* error = nullptr);  // all, default options
    bool copySelectedRunAsConfig();
    bool pasteConfig(const QString& text, QString* error = nullptr);
    bool continueRun(int id, long moreIterations, QString* error = nullptr);

    // Recovery: written every few seconds while runs are active; removed on a clean close.
    // Everything a session keeps (records, snapshots, parameters), the loaded preset and which
    // runs its claims are about; written by a RecoveryWriter off the GUI thread, each save
    // handing over only what is new. `wait`: returns once the file is on disk (with its error);
    // otherwise at once (the periodic save).
    void setRecoveryPath(const QString& path);
    QString recoveryPath() const { return recoveryPath_; }
    bool writeRecovery(QString* error = nullptr, bool wait = true);
    // The GUI thread's time in the last save (ms: wall clock, and its own CPU time, which a
    // loaded machine does not inflate), and the writer (its own times and sizes).
    double lastRecoverySaveMs() const { return lastRecoveryMs_; }
    double lastRecoverySaveCpuMs() const { return lastRecoveryCpuMs_; }
    const RecoveryWriter* recoveryWriter() const { return recoveryWriter_.get(); }
    // At start-up: a recovery file left by a crash is offered. Accepted, its runs come back
    // (those that were running: stopped, "by a crash", with their last snapshot as parameters)
    // and the loaded preset with its claims, judged again on them.
    void offerRecovery();
    void closeCleanly();  // window closing normally: the recovery file goes
    // Window closing while runs were active: the stopped runs, with every record, go to the
    // recovery file, which stays and is offered at the next start. False when nothing was kept.
    bool closeMidRun();

    // Runs changed since the last save or open (a closing window asks, see askToSave).
    bool hasUnsavedRuns() const;
    enum class CloseChoice { Saved, Discard, Cancel };
    // Save / Discard / Cancel. Save writes the current session file (asks for one if none);
    // a failed or cancelled save is Cancel.
    CloseChoice askToSave();

    // Where the folder dialogs of exports open (FolderDialog.h): the last folder chosen.
    QString exportFolder() const { return exportFolder_; }
    void setExportFolder(const QString& folder) { exportFolder_ = folder; }

    QStringList recentSessions() const;
    QString currentFile() const { return current_; }

  signals:
    // A session was opened (or recovered): its runs are in the store.
    void sessionOpened();

  private:
    // The session's runs into the store (after the store's runs, or in their place), the chart
    // settings, sessionOpened; the ids added.
    std::vector<int> addSession(const ade::Session& session, bool replace, bool recovered);
    // The loaded preset as a plan document for the recovery file (null: none to restore).
    nlohmann::json planDocument() const;
    // A recovered session's preset, and its claims over the recovered runs.
    void restorePlan(const ade::Session& session, const std::vector<int>& ids);
    void addRecent(const QString& file);
    void rebuildRecentMenu();
    void showError(const QString& title, const QString& message);
    void exportData(bool json);
    void exportParams();
    QString chooseExportFolder(const QString& title);
    void updateActions();

    Workspace* workspace_;
    Shell* shell_;
    bool persistent_;
    QString current_;  // the session file last saved or opened
    QString exportFolder_;
    QString recoveryPath_;
    std::unique_ptr<QLockFile> recoveryLock_;
    std::unique_ptr<RecoveryWriter> recoveryWriter_;
    double lastRecoveryMs_ = 0.0, lastRecoveryCpuMs_ = 0.0;
    QTimer recoveryTimer_;
    QMenu* recentMenu_ = nullptr;
    QAction* continueAction_ = nullptr;
    std::function<bool(const QString&, QString*)> studyOpener_;
    bool interactive_ = true;
    bool unsaved_ = false;  // message boxes (off when the window is driven by tests)
};

}  // namespace ade::ui
