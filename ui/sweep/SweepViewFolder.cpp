// The sweep view's side of files: a sweep folder or an Optuna study's storage opened, read
// again (on a worker thread: every 2 s while tasks or trials run, and a study whenever its file
// changes, QFileSystemWatcher) and shown (applyFolder). SweepView.cpp has the rest of the view.
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QtConcurrent/QtConcurrentRun>

#include "sweep/OptunaStudy.h"
#include "sweep/SweepForm.h"
#include "sweep/SweepView.h"

namespace ade::ui {

bool SweepView::openFolder(const QString& dir) {
    if (QFileInfo(dir).isFile()) return openOptunaStudy(dir);
    if (running_) {
        setStatus(tr("A sweep is running: cancel it before opening a folder."));
        return false;
    }
    std::string error;
    const auto folder = ade::readSweepFolder(dir.toStdString(), &error);
    if (!folder) {
        setStatus(tr("Cannot open %1: %2").arg(dir, QString::fromStdString(error)));
        return false;
    }
    folder_ = dir;
    watchFile({});
    optunaStudy_.clear();
    studies_->hide();
    showDesignForm();
    ranPreset_ = false;
    emit started();
    applyFolder(*folder);
    return true;
}

bool SweepView::openOptunaStudy(const QString& path, const QString& study, QString* error) {
    if (running_) {
        setStatus(tr("A sweep is running: cancel it before opening an Optuna study."));
        if (error) *error = status_->text();
        return false;
    }
    std::string err;
    std::vector<std::string> names;
    const auto folder = ade::readOptunaStudy(path.toStdString(), study.toStdString(), &err,
                                             &names);
    if (!folder) {
        setStatus(tr("Cannot open %1: %2")
                      .arg(QDir::toNativeSeparators(path), QString::fromStdString(err)));
        if (error) *error = QString::fromStdString(err);
        return false;
    }
    folderTimer_.stop();
    folder_ = path;
    watchFile(path);
    optunaStudy_ = QString::fromStdString(folder->planName);
    {
        const QSignalBlocker block(studies_);
        studies_->clear();
        for (const auto& n : names)
            studies_->addItem(QString::fromStdString(n));
        studies_->setCurrentText(optunaStudy_);
    }
    studies_->setVisible(names.size() > 1);
    // Rank by: the study's objective and its trials' metrics; the design's rows hidden (a
    // study is read, not run) so that its table keeps rows in view on a small screen.
    form_->showStudy(studyMetrics(*folder), folder->design.objective.lowerIsBetter);
    run_->setText(tr("Sweep form…"));
    run_->setToolTip(tr("Show the form that designs and runs a sweep (the study stays shown "
                        "until a sweep runs or a folder opens)."));
    ranPreset_ = false;
    emit started();
    applyFolder(*folder);
    return true;
}

QStringList SweepView::optunaStudies() const {
    QStringList out;
    for (int i = 0; i < studies_->count(); ++i)
        out << studies_->itemText(i);
    return out;
}

void SweepView::watchFile(const QString& path) {
    fileChanged_.stop();
    if (!fileWatcher_->files().isEmpty()) fileWatcher_->removePaths(fileWatcher_->files());
    if (!path.isEmpty()) fileWatcher_->addPath(path);
}

void SweepView::stopWatchingFolder() {
    watchFile({});
    folderTimer_.stop();
    folder_.clear();
    optunaStudy_.clear();
    studies_->hide();
}

void SweepView::readFolder() {
    if (folder_.isEmpty()) return;
    if (folderWatcher_.isRunning()) {
        readAgain_ = true;  // the file changed while it was read: once more after this read
        return;
    }
    const std::string dir = folder_.toStdString();
    const std::string study = optunaStudy_.toStdString();
    folderWatcher_.setFuture(QtConcurrent::run([dir, study]() -> std::optional<ade::SweepFolder> {
        std::string error;
        // An Optuna storage being written may be locked a moment: the next read catches up.
        return study.empty() ? ade::readSweepFolder(dir, &error)
                             : ade::readOptunaStudy(dir, study, &error);
    }));
}

void SweepView::onFolderRead() {
    const auto folder = folderWatcher_.result();
    // (Only the study still shown: another may have been picked while this one was read.)
    if (folder && !folder_.isEmpty() &&
        (optunaStudy_.isEmpty() || QString::fromStdString(folder->planName) == optunaStudy_))
        applyFolder(*folder);
    if (readAgain_) {
        readAgain_ = false;
        readFolder();
    }
}

void SweepView::applyFolder(const ade::SweepFolder& f) {
    const ade::SweepFolder* folder = &f;
    design_ = folder->design;
    experiment_ = folder->tasks.empty()
                      ? QString()
                      : QString::fromStdString(folder->tasks.front().config.experiment());
    outcomes_ = folder->finished;
    rungs_.clear();
    pending_.clear();
    for (int i : folder->missing)
        if (i >= 0 && i < static_cast<int>(folder->tasks.size()))
            pending_.push_back(folder->tasks[static_cast<std::size_t>(i)]);
    trialStates_.clear();
    for (const auto& [i, state] : folder->trialStates)
        if (i >= 0 && i < static_cast<int>(folder->tasks.size()))
            trialStates_[folder->tasks[static_cast<std::size_t>(i)].name] = state;
    const int n = static_cast<int>(folder->tasks.size());
    const int failed = static_cast<int>(folder->failed.size());
    const int finished = n - static_cast<int>(folder->missing.size());
    folderStatus_ = tr("%1 of %2 finished, %3 failed").arg(finished).arg(n).arg(failed);
    if (const int capped = cappedRuns(outcomes_))
        folderStatus_ += tr(", %1 reached the iteration cap (not converged)").arg(capped);
    progress_->setVisible(optunaStudy_.isEmpty());  // a study's status says its counts
    progress_->setRange(0, std::max(1, n));
    progress_->setValue(finished);
    if (!optunaStudy_.isEmpty()) {
        int pruned = 0;
        for (const auto& o : outcomes_)
            pruned += o.result.stop == "pruned" ? 1 : 0;
        folderStatus_ = tr("%1 trials: %2 complete, %3 pruned, %4 failed, %5 running or waiting")
                            .arg(n)
                            .arg(finished - failed - pruned)
                            .arg(pruned)
                            .arg(failed)
                            .arg(folder->missing.size());
    }
    refreshResults();
    if (folder->missing.empty())
        folderTimer_.stop();
    else if (!folderTimer_.isActive())
        folderTimer_.start();
    if (!optunaStudy_.isEmpty()) {
        // The file's name (its folder in the tooltip): a long path wrapped the status over
        // three lines and took a row of the table on a small screen.
        setStatus(tr("Study \"%1\" in %2 (Optuna study, read-only): %3; re-read when the "
                     "file changes")
                      .arg(optunaStudy_, QFileInfo(folder_).fileName(), folderStatus_));
        status_->setToolTip(QDir::toNativeSeparators(QFileInfo(folder_).absoluteFilePath()));
        return;
    }
    status_->setToolTip({});
    setStatus(tr("Sweep folder %1 (%2): %3%4")
                  .arg(QDir::toNativeSeparators(folder_), QString::fromStdString(folder->planName),
                       folderStatus_,
                       folder->missing.empty() ? QString() : tr("; re-read every 2 s")));
}

}  // namespace ade::ui
