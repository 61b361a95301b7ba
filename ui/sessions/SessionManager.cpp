#include "sessions/SessionManager.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include "base/ActionTable.h"
#include "charts/ChartArea.h"
#include "export/DataExport.h"
#include "export/ExportDialog.h"
#include "export/FolderDialog.h"
#include "runs/RunController.h"
#include "runs/SessionBridge.h"
#include "sessions/RecoveryWriter.h"
#include "plan/Preset.h"
#include "sweep/OptunaStudy.h"
#include "workspace/Shell.h"
#include "workspace/Workspace.h"

namespace ade::ui {

namespace {
const char* kRecentKey = "session/recent";
}

SessionManager::SessionManager(Workspace* workspace, Shell* shell, bool persistent,
                               QObject* parent)
    : QObject(parent), workspace_(workspace), shell_(shell), persistent_(persistent) {
    interactive_ = persistent;
    recoveryTimer_.setInterval(10000);
    recoveryWriter_ = std::make_unique<RecoveryWriter>();
    connect(&recoveryTimer_, &QTimer::timeout, this, [this] { writeRecovery(nullptr, false); });
    connect(workspace_->controller(), &RunController::activeChanged, this, [this] {
        if (workspace_->controller()->anyActive()) {
            if (!recoveryTimer_.isActive() && !recoveryPath_.isEmpty()) recoveryTimer_.start();
        } else if (recoveryTimer_.isActive()) {
            recoveryTimer_.stop();
            writeRecovery(nullptr, false);  // the finished runs are safe too until a clean close
        }
        updateActions();
    });
    // Unsaved work: any change of the runs since the last save or open.
    const RunStore* store = workspace_->store();
    for (auto signal : {&RunStore::runAdded, &RunStore::runRemoved, &RunStore::runChanged,
                        &RunStore::dataAppended})
        connect(store, signal, this, [this] { unsaved_ = true; });
    if (persistent_) {
        const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        setRecoveryPath(QDir(dir).filePath("recovery.session.json"));
    }
}

SessionManager::~SessionManager() = default;

void SessionManager::addToFileMenu(QMenu* file) {
    QAction* first = file->actions().value(0);
    // Each command one ActionSpec (base/ActionTable.h: Help > Keyboard shortcuts lists it).
    auto add = [&](const QString& text, const QList<QKeySequence>& keys, const QString& tip,
                   auto slot, const char* name) {
        QAction* a = makeActions(shell_->dialogParent(), {{name, text, keys, tip}}).front();
        connect(a, &QAction::triggered, this, slot);
        file->insertAction(first, a);
        return a;
    };
    add(
        tr("&Open session…"), QKeySequence::keyBindings(QKeySequence::Open),
        tr("Open a saved session: runs, histories, charts"),
        [this] {
            const QString f = QFileDialog::getOpenFileName(shell_->dialogParent(), tr("Open session"), current_,
                                                           tr("Sessions (*.json);;Optuna studies, read-only (*.db *.sqlite *.sqlite3 *.log "
                                                              "*.journal);;All files (*)"));
            if (!f.isEmpty()) openSession(f);
        },
        "openSession");
    recentMenu_ = new QMenu(tr("Open &recent"), file);
    recentMenu_->setObjectName("recentSessions");
    file->insertMenu(first, recentMenu_);
    rebuildRecentMenu();
    add(
        tr("&Save session"), QKeySequence::keyBindings(QKeySequence::Save), tr("Save every run, its history and parameters"),
        [this] {
            QString f = current_;
            if (f.isEmpty())
                f = QFileDialog::getSaveFileName(shell_->dialogParent(), tr("Save session"), "session.json",
                                                 tr("Sessions (*.json)"));
            if (!f.isEmpty()) saveSession(f);
        },
        "saveSession");
    add(
        tr("Save session &as…"), QKeySequence::keyBindings(QKeySequence::SaveAs), tr("Save the session under a new name"),
        [this] {
            const QString f = QFileDialog::getSaveFileName(
                shell_->dialogParent(), tr("Save session as"), current_.isEmpty() ? "session.json" : current_,
                tr("Sessions (*.json)"));
            if (!f.isEmpty()) saveSession(f);
        },
        "saveSessionAs");
    file->insertSeparator(first);
    add(
        tr("&Export charts…"), {QKeySequence(Qt::CTRL | Qt::Key_E)},
        tr("Charts to PNG, SVG and PDF, screen or publication style"),
        [this] {
            const auto* charts = shell_->charts();
            const std::vector<ChartSpec> specs = figureCharts(*workspace_->store());
            ExportDialog dlg(QDir::currentPath() + "/figures", specs, charts->logY(),
                             charts->logX(), charts->smoothing(), shell_->dialogParent());
            if (dlg.exec() != QDialog::Accepted) return;
            FigureOptions o = dlg.options();
            o.metadata = reproductionText(*workspace_->store());
            QString error;
            QStringList written;
            // Each figure as its chart is on screen: curves hidden there stay hidden, a zoomed
            // chart exports its zoom (unless the dialog sets an x range).
            auto asOnScreen = [charts](const ChartSpec& spec, FigureOptions& fo) {
                const ChartPanel* panel = charts->panel(spec.id);
                if (!panel) return;
                fo.hidden = panel->hiddenKeys();
                fo.seedBands = panel->options().seedBands;
                if (!panel->zoomed()) return;
                double x0, x1, y0, y1;
                panel->visibleRange(x0, x1, y0, y1);
                if (!(fo.xMax > fo.xMin)) fo.xMin = x0, fo.xMax = x1;
                fo.yMin = y0;
                fo.yMax = y1;
            };
            if (dlg.chartId().isEmpty()) {
                written = renderAllFigures(*workspace_->store(), o, dlg.formats(), dlg.folder(),
                                           &error, asOnScreen);
            } else {
                QDir().mkpath(dlg.folder());
                for (const auto& spec : specs)
                    if (spec.id == dlg.chartId())
                        for (FigureFormat f : dlg.formats()) {
                            o.logY = spec.scale == ade::AxisScale::Log && dlg.options().logY;
                            o.symLogY =
                                spec.scale == ade::AxisScale::SymLog && dlg.options().logY;
                            asOnScreen(spec, o);
                            const QString path =
                                QDir(dlg.folder()).filePath(spec.id + "." + figureSuffix(f));
                            if (!renderFigure(spec, *workspace_->store(), o, f, path, &error)) break;
                            written << path;
                        }
            }
            if (!error.isEmpty())
                showError(tr("Export failed"), error);
            else
                shell_->showMessage(
                    tr("Exported %1 files to %2").arg(written.size()).arg(dlg.folder()), 8000);
        },
        "exportCharts");
    add(
        tr("Export data as &CSV…"), {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E)},
        tr("Selected runs (or all) to CSV, one file per run, metrics.csv schema"),
        [this] { exportData(false); }, "exportCsv");
    add(
        tr("Export data as &JSON…"), {}, tr("Selected runs (or all) to one JSON file"),
        [this] { exportData(true); }, "exportJson");
    add(
        tr("Export final &parameters (.npy)…"), {},
        tr("The selected run's final weights as NumPy .npy files"), [this] { exportParams(); },
        "exportParams");
    file->insertSeparator(first);
    continueAction_ = add(
        tr("C&ontinue selected run…"), {QKeySequence(Qt::CTRL | Qt::Key_K)},
        tr("Train a stopped run further from its saved parameters"),
        [this] {
            const auto ids = shell_->selectedRunIds();
            if (ids.isEmpty()) return;
            bool ok = false;
            const int more = QInputDialog::getInt(
                shell_->dialogParent(), tr("Continue run"), tr("More iterations"), 1000, 1, 100000000, 100, &ok);
            QString error;
            if (ok && !continueRun(ids.front(), more, &error))
                showError(tr("Cannot continue"), error);
        },
        "continueRun");
    file->insertSeparator(first);
}

void SessionManager::updateActions() {
    if (continueAction_) continueAction_->setEnabled(!workspace_->controller()->anyActive());
}

void SessionManager::showError(const QString& title, const QString& message) {
    shell_->showMessage(message, 15000);
    if (interactive_) QMessageBox::warning(shell_->dialogParent(), title, message);
}

bool SessionManager::saveSession(const QString& file, QString* error) {
    const auto* charts = shell_->charts();
    const nlohmann::json settings = {
        {"log_y", charts->logY()}, {"log_x", charts->logX()}, {"smoothing", charts->smoothing()},
        {"wall_time_x", charts->wallTimeX()}};
    std::string err;
    if (!ade::writeSessionFile(file.toStdString(), sessionFromStore(*workspace_->store(), settings),
                               true, &err)) {
        const QString msg = QString::fromStdString(err);
        if (error) *error = msg;
        showError(tr("Cannot save the session"), msg + tr("\nThe runs are still in the window."));
        return false;
    }
    current_ = file;
    unsaved_ = false;
    addRecent(file);
    shell_->showMessage(tr("Saved %1").arg(file), 5000);
    return true;
}

bool SessionManager::openSession(const QString& file, QString* error, bool replace) {
    // By its first bytes, or its name (.db .sqlite .sqlite3 .log .journal): a file so named
    // that is no study is refused as one ("not an Optuna storage"), not as a session.
    if (studyOpener_ && (ade::looksLikeOptunaStorage(file.toStdString()) ||
                         ade::isOptunaStorageName(file.toStdString()))) {
        QString err;
        if (!studyOpener_(file, &err)) {
            if (error) *error = err;
            showError(tr("Cannot open the Optuna study"), err);
            return false;
        }
        if (replace) addRecent(file);  // (never current_: Save must not write over a study)
        return true;
    }
    const auto r = ade::readSessionFile(file.toStdString());
    if (!r.session) {
        const QString msg = QString::fromStdString(r.error);
        if (error) *error = msg;
        showError(tr("Cannot open the session"), msg);
        return false;
    }
    if (replace) {
        current_ = file;
        addRecent(file);
    }
    addSession(*r.session, replace, false);
    if (replace) unsaved_ = false;
    QString status = tr("Opened %1 (%2 runs)").arg(file).arg(r.session->runs.size());
    if (!r.warnings.empty())
        status +=
            tr("; ignored: %1").arg(QString::fromStdString(r.warnings.front())) +
            (r.warnings.size() > 1 ? tr(" and %1 more").arg(r.warnings.size() - 1) : QString());
    shell_->showMessage(status, 10000);
    return true;
}

std::vector<int> SessionManager::addSession(const ade::Session& session, bool replace,
                                            bool recovered) {
    if (replace) {
        workspace_->controller()->stopAndWait();
        std::vector<int> ids;
        for (const auto& run : workspace_->store()->runs())
            ids.push_back(run->id);
        for (int id : ids)
            workspace_->store()->removeRun(id);
    }
    const std::vector<int> ids = addSessionToStore(session, *workspace_->store(), recovered);
    auto* charts = shell_->charts();
    const auto& cs = session.chartSettings;
    if (cs.contains("log_y") && cs["log_y"].is_boolean()) charts->setLogY(cs["log_y"].get<bool>());
    if (cs.contains("log_x") && cs["log_x"].is_boolean()) charts->setLogX(cs["log_x"].get<bool>());
    // x: wall time (optional: sessions of older versions have no such field).
    if (cs.contains("wall_time_x") && cs["wall_time_x"].is_boolean())
        charts->setWallTimeX(cs["wall_time_x"].get<bool>());
    if (cs.contains("smoothing") && cs["smoothing"].is_number())
        charts->setSmoothing(std::clamp(cs["smoothing"].get<double>(), 0.0, 0.999));
    charts->refresh(true);
    emit sessionOpened();
    return ids;
}

bool SessionManager::exportCharts(const QString& folder, QString* error) {
    FigureOptions o;
    o.metadata = reproductionText(*workspace_->store());
    QString err;
    renderAllFigures(*workspace_->store(), o,
                     {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf}, folder, &err);
    if (error) *error = err;
    return err.isEmpty();
}

void SessionManager::exportData(bool json) {
    std::vector<const RunRecord*> runs;
    for (int id : shell_->selectedRunIds())
        if (const auto* r = workspace_->store()->run(id)) runs.push_back(r);
    if (runs.empty()) runs = workspace_->store()->visibleRuns();  // "all": those on the charts
    if (runs.empty()) return;
    QString error;
    if (json) {
        const QString f = QFileDialog::getSaveFileName(shell_->dialogParent(), tr("Export data as JSON"),
                                                       "runs.json", tr("JSON (*.json)"));
        if (f.isEmpty() || exportRunsJson(runs, f, {}, &error)) return;
    } else {
        const QString d = chooseExportFolder(tr("Export CSV files to folder"));
        if (d.isEmpty() || !exportRunsCsv(runs, d, {}, &error).isEmpty()) return;
    }
    if (!error.isEmpty()) showError(tr("Export failed"), error);
}

QString SessionManager::chooseExportFolder(const QString& title) {
    const QString d = chooseFolder(shell_->dialogParent(), title, exportFolder_);
    if (!d.isEmpty()) exportFolder_ = d;  // the next export starts there
    return d;
}

void SessionManager::exportParams() {
    const auto ids = shell_->selectedRunIds();
    if (ids.isEmpty()) return;
    const RunRecord* r = workspace_->store()->run(ids.front());
    const QString d = chooseExportFolder(tr("Export parameters to folder"));
    if (!r || d.isEmpty()) return;
    QString error;
    exportParamsNpy(*r, d, &error);
    if (!error.isEmpty()) showError(tr("Export failed"), error);
}

bool SessionManager::hasUnsavedRuns() const {
    return unsaved_ && !workspace_->store()->runs().empty();
}

SessionManager::CloseChoice SessionManager::askToSave() {
    QMessageBox box(QMessageBox::Question, tr("Save the runs?"),
                    tr("The runs in the window have not been saved. Save them as a session "
                       "before closing?"),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, shell_->dialogParent());
    box.setObjectName(QStringLiteral("askToSave"));
    box.setInformativeText(tr("Discard closes without keeping them; Cancel keeps the window "
                              "open (active runs go on)."));
    box.setDefaultButton(QMessageBox::Save);
    const int answer = box.exec();
    if (answer == QMessageBox::Discard) return CloseChoice::Discard;
    if (answer != QMessageBox::Save) return CloseChoice::Cancel;
    QString file = current_;
    if (file.isEmpty())
        file = QFileDialog::getSaveFileName(shell_->dialogParent(), tr("Save session"), "session.json",
                                            tr("Sessions (*.json)"));
    if (file.isEmpty()) return CloseChoice::Cancel;
    workspace_->controller()->stopAndWait();  // the saved runs are the final ones
    return saveSession(file) ? CloseChoice::Saved : CloseChoice::Cancel;
}

QStringList SessionManager::recentSessions() const {
    if (!persistent_) return {};
    return QSettings().value(kRecentKey).toStringList();
}

void SessionManager::addRecent(const QString& file) {
    if (!persistent_) return;
    QStringList list = recentSessions();
    list.removeAll(QFileInfo(file).absoluteFilePath());
    list.prepend(QFileInfo(file).absoluteFilePath());
    while (list.size() > 8)
        list.removeLast();
    QSettings().setValue(kRecentKey, list);
    rebuildRecentMenu();
}

void SessionManager::rebuildRecentMenu() {
    if (!recentMenu_) return;
    recentMenu_->clear();
    const QStringList list = recentSessions();
    for (const QString& f : list)
        recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openSession(f); })
            ->setStatusTip(f);
    recentMenu_->setEnabled(!list.isEmpty());
}

}  // namespace ade::ui
