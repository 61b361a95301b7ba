#pragma once
// The File menu's work with files: save/open sessions (recent list), an automatic recovery file
// while runs are active (offered after a crash), chart and data exports, "Copy run as config" /
// "Paste config", and continuing a stopped run from its saved parameters. Errors are shown in a
// message box naming the file and the problem; nothing in the window is lost.
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>

class QAction;
class QMenu;

namespace ade::ui {

class Shell;
class Workspace;

class SessionManager : public QObject {
    Q_OBJECT
  public:
    // `persistent`: recent list and recovery file on disk (off in tests unless a path is set).
    // The sessions of `workspace`'s runs; dialogs, messages and the charts' view from `shell`.
    SessionManager(Workspace* workspace, Shell* shell, bool persistent,
                   QObject* parent = nullptr);
    ~SessionManager() override;

    void addToFileMenu(QMenu* file);
    QMenu* editMenu(QMenu* edit);  // copy / paste config

    bool saveSession(const QString& file, QString* error = nullptr);
    bool openSession(const QString& file, QString* error = nullptr, bool replace = true);
    bool exportCharts(const QString& folder, QString* error = nullptr);  // all, default options
    bool copySelectedRunAsConfig();
    bool pasteConfig(const QString& text, QString* error = nullptr);
    bool continueRun(int id, long moreIterations, QString* error = nullptr);

    // Recovery: written every few seconds while runs are active; removed on a clean close.
    void setRecoveryPath(const QString& path);
    QString recoveryPath() const { return recoveryPath_; }
    bool writeRecovery(QString* error = nullptr);
    void offerRecovery();  // at start-up: a recovery file left by a crash is offered
    void closeCleanly();   // window closing normally: the recovery file goes
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
    QTimer recoveryTimer_;
    QMenu* recentMenu_ = nullptr;
    QAction* continueAction_ = nullptr;
    bool interactive_ = true;
    bool unsaved_ = false;  // message boxes (off when the window is driven by tests)
};

}  // namespace ade::ui
