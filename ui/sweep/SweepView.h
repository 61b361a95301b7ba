#pragma once
// The sweep tab (issue #16): a design of 1–3 keys (SweepForm), run in parallel on worker threads
// through core's runSweepLocal (successive halving on request) with live progress, or read from
// a sweep folder (local or Slurm, re-read every 2 s while tasks still run) or an Optuna study's
// storage (re-read when the file changes). The results show as
// a sortable table (one row per config, mean ± sd over seeds) and a view chosen by the number of
// keys: one key — the metric against it with seed bands (the scaling-law fit when the design
// asks for one); two — a heatmap; three — parallel coordinates. Clicking a config asks the
// window to show its runs' curves (openRunsRequested); "Apply to form" asks it to copy the
// selected (or best) config's values into the parameter panel.
#include <QFutureWatcher>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>

#include "base/FigureFile.h"
#include "plan/PlanRunner.h"
#include "plan/Preset.h"
#include "sweep/Sweep.h"
#include "sweep/SweepResults.h"
#include "util/RunControl.h"

class QComboBox;
class QFileSystemWatcher;
class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;

namespace ade::ui {

// Completed runs that reached their iteration cap before their stopping rule.
int cappedRuns(const std::vector<ade::RunOutcome>& outcomes);

class FigureExportDialog;
class SweepChart;
class SweepForm;
class SweepHeatmap;
class SweepLinePlot;
class SweepParallel;
class SweepTable;

// An Optuna study's "Rank by" choices: its objective (the trials' value) first, then every
// column its trials' histories have (their intermediate values), each as (column, label).
std::vector<std::pair<QString, QString>> studyMetrics(const ade::SweepFolder& folder);
QString studyMetricLabel(const QString& column);

class SweepView : public QWidget {
    Q_OBJECT
  public:
    explicit SweepView(QWidget* parent = nullptr);
    ~SweepView() override;

    void setPlan(const ade::Plan& plan);            // a preset with a sweep: its runs and grid
    void setFormConfig(const ade::Config& config);  // the base of a sweep of the form
    void clearPlan();
    bool start();  // false (with a message) when the design is invalid
    void cancelAndWait();
    bool isRunning() const { return running_; }
    // The last sweep started ran the loaded preset's sweep (not the form's, not a folder), and
    // whether the user cancelled it.
    bool ranPreset() const { return ranPreset_; }
    bool wasCancelled() const { return control_ && control_->stopRequested(); }
    // Reads a sweep folder now and every 2 s while it has unfinished tasks; false with a message
    // when it is not a sweep folder.
    bool openFolder(const QString& dir);
    // Shows an Optuna study's storage (SQLite .db or journal file; core/sweep/OptunaStudy.h),
    // read-only: its trials as configs, re-read every 2 s while trials run. `study` empty: the
    // first; a file with several studies offers them in a combo box. A folder path goes to
    // openFolder, and openFolder gives a file to this. False with a message when the file is
    // not an Optuna storage (nothing shown changes).
    // The file is watched (QFileSystemWatcher): a study an Optuna process is still writing is
    // re-read whenever the file changes, whether or not trials were running when it opened.
    bool openOptunaStudy(const QString& path, const QString& study = {}, QString* error = nullptr);
    bool showsOptunaStudy() const { return !optunaStudy_.isEmpty(); }
    QString optunaStudy() const { return optunaStudy_; }  // the study shown ("" when none)
    QStringList optunaStudies() const;                    // the shown file's studies
    void stopWatchingFolder();

    SweepForm* form() const { return form_; }
    SweepTable* table() const { return table_; }
    SweepLinePlot* linePlot() const { return line_; }
    SweepHeatmap* heatmap() const { return heatmap_; }
    SweepParallel* parallel() const { return parallel_; }
    SweepChart* currentChart() const;  // the view the number of keys picked
    const SweepResults& results() const { return results_; }
    const std::vector<ade::RunOutcome>& outcomes() const { return outcomes_; }
    const std::vector<ade::HalvingRung>& rungs() const { return rungs_; }
    QString statusText() const;  // "Sweep: 7 of 18 runs done" ("" when idle)
    QString folderStatus() const { return folderStatus_; }

    // The config Apply to form uses: the selected one, else the best (-1 when none).
    int targetConfig() const;
    bool exportView(FigureFormat format, const QString& path, QString* error = nullptr) const;
    bool exportCsv(const QString& path, QString* error = nullptr) const;
    // Export…: the current view's export dialog (charts/FigureExportDialog: PNG, SVG, PDF,
    // PGFPlots, matplotlib; width in pixels or cm / columns, type size, title, axis labels
    // where the view has them; the table as CSV), open; nullptr when there is nothing to export.
    FigureExportDialog* exportDialog();

  signals:
    void started();  // a sweep started or a folder was opened: earlier results are gone
    void finished();
    void statusChanged(const QString& text);  // the window's status bar follows
    // The runs of config `label` (its seeds) to show in the run list and charts.
    void openRunsRequested(const std::vector<ade::RunOutcome>& runs, const QString& label);
    void applyRequested(const std::vector<std::pair<std::string, std::string>>& values);
    void openFolderRequested();  // the tab's "Open sweep folder…" button
    void openOptunaRequested();  // the tab's "Open Optuna study…" button

  private:
    struct Result {
        std::vector<ade::RunOutcome> outcomes;
        std::vector<ade::HalvingRung> rungs;
        std::string error;
    };
    void onRunFinished(const ade::RunOutcome& outcome);
    void onFinished();
    void refreshResults();  // aggregate the outcomes, fill the table and the views
    void readFolder();      // one re-read of the watched folder (on a worker thread)
    void onFolderRead();
    void applyFolder(const ade::SweepFolder& folder);
    void openConfig(int index);
    void showDesignForm();  // the form's design rows back (after a study), Run sweep
    void setStatus(const QString& text);
    QString configName(int index) const;

    std::optional<ade::Plan> plan_;
    ade::Config formConfig_;
    SweepForm* form_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* openFolder_ = nullptr;
    QPushButton* openStudy_ = nullptr;
    QComboBox* studies_ = nullptr;  // the Optuna file's studies (shown when it has several)
    QPushButton* apply_ = nullptr;
    QPushButton* export_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QStackedWidget* views_ = nullptr;
    SweepLinePlot* line_ = nullptr;
    SweepHeatmap* heatmap_ = nullptr;
    SweepParallel* parallel_ = nullptr;
    SweepTable* table_ = nullptr;

    ade::SweepDesign design_;
    std::vector<ade::RunOutcome> outcomes_;
    std::vector<ade::HalvingRung> rungs_;
    SweepResults results_;
    QFutureWatcher<Result> watcher_;
    std::unique_ptr<ade::RunControl> control_;
    QTimer refresh_;  // coalesces live updates of the table and views
    int total_ = 0, done_ = 0, failed_ = 0;
    bool running_ = false;
    bool ranPreset_ = false;
    QString experiment_;
    // The watched sweep folder.
    QString folder_;
    QTimer folderTimer_;
    QFutureWatcher<std::optional<ade::SweepFolder>> folderWatcher_;
    QString folderStatus_;
    QString optunaStudy_;  // the Optuna study shown from folder_ (a file), "" for a sweep folder
    // The study's trials still running or waiting (rows without a value) and every trial's state.
    std::vector<ade::PlannedRun> pending_;
    std::map<std::string, std::string> trialStates_;
    QFileSystemWatcher* fileWatcher_ = nullptr;  // the study's file
    QTimer fileChanged_;        // coalesces a writer's bursts of changes into one re-read
    bool readAgain_ = false;    // the file changed during a read: read once more after it
    void watchFile(const QString& path);  // "" stops watching
};

}  // namespace ade::ui
