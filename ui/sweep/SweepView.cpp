#include "sweep/SweepView.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "charts/FigureExportDialog.h"
#include "experiments/ExperimentRegistry.h"
#include "sweep/SweepForm.h"
#include "sweep/SweepHeatmap.h"
#include "sweep/SweepLinePlot.h"
#include "sweep/SweepParallel.h"
#include "sweep/SweepTable.h"
#include "io/Files.h"

namespace ade::ui {

int cappedRuns(const std::vector<ade::RunOutcome>& outcomes) {
    int n = 0;
    for (const auto& o : outcomes)
        n += o.result.stop == "cap" ? 1 : 0;
    return n;
}

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sweepView"));
    form_ = new SweepForm(this);
    run_ = new QPushButton(tr("Run sweep"), this);
    run_->setObjectName(QStringLiteral("sweepRun"));
    run_->setToolTip(tr("Run every config × seed on the worker threads; Cancel keeps the runs "
                        "already finished."));
    openFolder_ = new QPushButton(tr("Open sweep folder…"), this);
    openFolder_->setObjectName(QStringLiteral("sweepOpenFolder"));
    openFolder_->setToolTip(tr("Show a sweep folder written by the command line (local or "
                               "Slurm), re-read every 2 s while its tasks still run."));
    openStudy_ = new QPushButton(tr("Open Optuna study…"), this);
    openStudy_->setObjectName(QStringLiteral("sweepOpenStudy"));
    openStudy_->setToolTip(tr("Show an Optuna study's storage (its SQLite .db or journal file) "
                              "like a sweep, read-only: each trial a config, its intermediate "
                              "values its curve; re-read every 2 s while trials run."));
    form_->setActionButtons(run_, openFolder_, openStudy_);
    studies_ = new QComboBox(this);
    studies_->setObjectName(QStringLiteral("sweepStudies"));
    studies_->setToolTip(tr("The studies in this Optuna storage: pick the one to show."));
    studies_->hide();
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("sweepProgress"));
    progress_->setTextVisible(true);
    progress_->setMaximumHeight(progress_->fontMetrics().height() + 4);
    progress_->setFixedWidth(progress_->fontMetrics().horizontalAdvance(QStringLiteral("0")) * 24);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("sweepStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    line_ = new SweepLinePlot(this);
    heatmap_ = new SweepHeatmap(this);
    parallel_ = new SweepParallel(this);
    views_ = new QStackedWidget(this);
    views_->addWidget(line_);
    views_->addWidget(heatmap_);
    views_->addWidget(parallel_);
    table_ = new SweepTable(this);
    apply_ = new QPushButton(tr("Apply to form"), this);
    apply_->setObjectName(QStringLiteral("sweepApply"));
    apply_->setToolTip(tr("Copy the selected config's values (the best one when none is "
                          "selected) into the parameter panel."));
    export_ = new QPushButton(tr("Export…"), this);
    export_->setObjectName(QStringLiteral("sweepExport"));
    export_->setToolTip(tr("The view as PNG, SVG or PDF, as PGFPlots (.tex) or a matplotlib "
                           "script (.py) with its data, or the table as CSV."));
    auto* tableBox = new QWidget(this);
    auto* tableLay = new QVBoxLayout(tableBox);
    tableLay->setContentsMargins(0, 0, 0, 0);
    auto* tableButtons = new QHBoxLayout;
    tableButtons->addWidget(apply_);
    tableButtons->addWidget(export_);
    tableButtons->addStretch(1);
    tableLay->addLayout(tableButtons);
    tableLay->addWidget(table_, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("sweepSplit"));
    split->addWidget(views_);
    split->addWidget(tableBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({3000, 1000});
    split->setChildrenCollapsible(false);
    views_->setMinimumHeight(200);
    // The table keeps room for its rows (SweepTable::minimumSizeHint): at 1024x768 the tab
    // scrolls rather than show one or two rows.

    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(6, 6, 6, 6);
    lay->addWidget(form_);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(progress_);
    progressRow->addWidget(studies_);
    progressRow->addWidget(status_, 1);
    lay->addLayout(progressRow);
    lay->addWidget(split, 1);

    connect(run_, &QPushButton::clicked, this, [this] {
        if (form_->showsStudy()) {  // a study shown: the sweep's form first, then Run
            showDesignForm();
            return;
        }
        if (running_)
            control_->requestStop();
        else
            start();
    });
    connect(form_, &SweepForm::objectiveChanged, this, [this] {
        if (!optunaStudy_.isEmpty()) refreshResults();  // a study re-ranked (a sweep: at Run)
    });
    connect(openFolder_, &QPushButton::clicked, this, &SweepView::openFolderRequested);
    connect(openStudy_, &QPushButton::clicked, this, &SweepView::openOptunaRequested);
    connect(studies_, &QComboBox::activated, this, [this](int i) {
        if (!optunaStudy_.isEmpty() && studies_->itemText(i) != optunaStudy_)
            openOptunaStudy(folder_, studies_->itemText(i));
    });
    connect(apply_, &QPushButton::clicked, this, [this] {
        const int i = targetConfig();
        if (i >= 0) emit applyRequested(results_.configs[i].values);
    });
    connect(export_, &QPushButton::clicked, this, &SweepView::exportDialog);
    for (SweepChart* c : {static_cast<SweepChart*>(line_), static_cast<SweepChart*>(heatmap_),
                          static_cast<SweepChart*>(parallel_)})
        connect(c, &SweepChart::configActivated, this, [this](int i) {
            table_->selectConfig(i);
            openConfig(i);
        });
    connect(table_, &SweepTable::configSelected, this, [this](int i) {
        if (SweepChart* c = currentChart()) c->setSelected(i);
        apply_->setEnabled(targetConfig() >= 0);
    });
    connect(table_, &SweepTable::configActivated, this, &SweepView::openConfig);
    connect(&watcher_, &QFutureWatcherBase::finished, this, &SweepView::onFinished);
    refresh_.setSingleShot(true);
    refresh_.setInterval(250);
    connect(&refresh_, &QTimer::timeout, this, &SweepView::refreshResults);
    fileWatcher_ = new QFileSystemWatcher(this);
    fileChanged_.setSingleShot(true);
    fileChanged_.setInterval(300);
    connect(fileWatcher_, &QFileSystemWatcher::fileChanged, this, [this](const QString& path) {
        if (path != folder_ || optunaStudy_.isEmpty()) return;
        // A file replaced (not written in place) leaves the watcher: watch the new one.
        if (!fileWatcher_->files().contains(path) && QFileInfo::exists(path))
            fileWatcher_->addPath(path);
        fileChanged_.start();
    });
    connect(&fileChanged_, &QTimer::timeout, this, &SweepView::readFolder);
    folderTimer_.setInterval(2000);
    connect(&folderTimer_, &QTimer::timeout, this, &SweepView::readFolder);
    connect(&folderWatcher_, &QFutureWatcherBase::finished, this, &SweepView::onFolderRead);
    apply_->setEnabled(false);
    export_->setEnabled(false);
    progress_->hide();
}

SweepView::~SweepView() {
    cancelAndWait();
    folderTimer_.stop();
    folderWatcher_.waitForFinished();
}

SweepChart* SweepView::currentChart() const {
    return static_cast<SweepChart*>(views_->currentWidget());
}

void SweepView::setPlan(const ade::Plan& plan) {
    plan_ = plan;
    if (!plan.runs.empty()) form_->setBaseConfig(plan.runs.front().config);
    if (plan.sweep && !plan.sweep->vary.empty()) form_->setPresetSweep(*plan.sweep);
    setStatus(tr("Preset %1: %2")
                  .arg(QString::fromStdString(plan.name), QString::fromStdString(plan.description)));
}

void SweepView::setFormConfig(const ade::Config& config) {
    formConfig_ = config;
    if (!plan_) form_->setBaseConfig(config);
}

void SweepView::clearPlan() {
    plan_.reset();
    form_->setBaseConfig(formConfig_);
}

void SweepView::setStatus(const QString& text) {
    status_->setText(text);
    emit statusChanged(statusText());
}

QString SweepView::statusText() const {
    if (running_)
        return design_.halving.enabled ? tr("Sweep: %1 runs done (successive halving)").arg(done_)
                                       : tr("Sweep: %1 of %2 runs done").arg(done_).arg(total_);
    if (folderTimer_.isActive())
        return optunaStudy_.isEmpty() ? tr("Sweep folder: %1").arg(folderStatus_)
                                      : tr("Optuna study: %1").arg(folderStatus_);
    return {};
}

void SweepView::showDesignForm() {
    form_->showDesign();
    run_->setText(running_ ? tr("Cancel") : tr("Run sweep"));
    run_->setToolTip(tr("Run every config × seed on the worker threads; Cancel keeps the runs "
                        "already finished."));
}

bool SweepView::start() {
    if (running_) return false;
    stopWatchingFolder();
    showDesignForm();
    std::string error;
    const auto design = form_->design(&error);
    ade::Plan plan;
    if (plan_) {
        plan = *plan_;
    } else {
        plan.name = "form";
        plan.runs.push_back({"form", formConfig_});
    }
    std::optional<std::vector<ade::PlannedRun>> tasks;
    if (design) tasks = ade::expandDesign(plan, *design, &error);
    if (!design || !tasks) {
        setStatus(tr("Cannot run the sweep: %1").arg(QString::fromStdString(error)));
        return false;
    }
    design_ = *design;
    ranPreset_ = plan_.has_value();
    experiment_ = QString::fromStdString(plan.runs.front().config.experiment());
    outcomes_.clear();
    rungs_.clear();
    folder_.clear();
    control_ = std::make_unique<ade::RunControl>();
    total_ = static_cast<int>(tasks->size());
    done_ = failed_ = 0;
    progress_->setRange(0, design_.halving.enabled ? 0 : total_);
    progress_->setValue(0);
    progress_->show();
    ade::PlanRunOptions opt;
    opt.jobs = form_->jobs();
    opt.control = control_.get();
    opt.keepSnapshots = false;
    // Called on worker threads: a copy goes to the GUI thread (this outlives the workers:
    // the destructor waits for them).
    opt.finished = [this](const ade::RunOutcome& o) {
        QMetaObject::invokeMethod(this, [this, o] { onRunFinished(o); }, Qt::QueuedConnection);
    };
    const ade::SweepDesign d = design_;
    watcher_.setFuture(QtConcurrent::run([plan, d, opt] {
        Result r;
        r.outcomes = ade::runSweepLocal(plan, d, opt, &r.rungs, &r.error);
        return r;
    }));
    running_ = true;
    emit started();
    run_->setText(tr("Cancel"));
    setStatus(tr("Running %1 runs (%2 configs × %3 seeds) on %4 threads…")
                  .arg(total_)
                  .arg(total_ / std::max(1, design_.seeds * static_cast<int>(plan.runs.size())))
                  .arg(design_.seeds)
                  .arg(opt.jobs));
    refreshResults();
    return true;
}

void SweepView::onRunFinished(const ade::RunOutcome& outcome) {
    if (!running_) return;
    outcomes_.push_back(outcome);
    ++done_;
    if (outcome.result.status != ade::RunStatus::Completed) ++failed_;
    if (progress_->maximum() > 0) progress_->setValue(std::min(done_, total_));
    emit statusChanged(statusText());
    if (!refresh_.isActive()) refresh_.start();
}

void SweepView::cancelAndWait() {
    if (!running_) return;
    control_->requestStop();
    watcher_.waitForFinished();
}

void SweepView::onFinished() {
    running_ = false;
    run_->setText(tr("Run sweep"));
    refresh_.stop();
    const Result r = watcher_.result();
    outcomes_ = r.outcomes;
    rungs_ = r.rungs;
    progress_->setRange(0, 1);
    progress_->setValue(1);
    int failed = 0;
    for (const auto& o : outcomes_)
        if (o.result.status != ade::RunStatus::Completed) ++failed;
    QString msg = control_ && control_->stopRequested()
                      ? tr("Cancelled: %1 runs kept").arg(outcomes_.size())
                      : tr("%1 runs done").arg(outcomes_.size());
    if (failed) msg += tr(", %1 not completed (cancelled, diverged or failed)").arg(failed);
    if (const int capped = cappedRuns(outcomes_))
        msg += tr(", %1 reached the iteration cap before the stopping rule (not converged)")
                   .arg(capped);
    if (!r.error.empty()) msg += tr("; %1").arg(QString::fromStdString(r.error));
    if (!rungs_.empty()) {
        QStringList rs;
        for (const auto& h : rungs_)
            rs << tr("%1 it: %2 → %3").arg(h.iterations).arg(h.configs).arg(h.kept);
        msg += tr("; rungs: %1").arg(rs.join(QStringLiteral(", ")));
    }
    refreshResults();
    setStatus(msg);
    emit finished();
}

void SweepView::refreshResults() {
    SweepResults r;
    for (const auto& a : design_.axes)
        r.keys.push_back(a.key);
    ade::Objective objective = design_.objective;
    if (!optunaStudy_.isEmpty() && form_->showsStudy()) {
        // A study ranked as Rank by says: its value, or a statistic of what its trials reported.
        objective.metric = form_->metric().toStdString();
        objective.stat = form_->stat().toStdString();
        objective.lowerIsBetter = form_->lowerIsBetter();
    }
    if (objective.metric.empty())
        if (const ade::ExperimentInfo* info = ade::findExperiment(experiment_.toStdString()))
            objective.metric = info->headlineMetric;
    r.configs = ade::aggregateConfigs(outcomes_, objective);
    r.optuna = !optunaStudy_.isEmpty();
    if (r.optuna) {
        // The trials still running or waiting: a row each, without a value (yet).
        r.trialStates = trialStates_;
        for (const auto& t : pending_) {
            ade::ConfigResult c;
            c.label = t.label;
            c.values = t.varied;
            c.runNames = {t.name};
            r.configs.push_back(std::move(c));
        }
        // Each row's trial (a failed trial's too, which has no finished run to name it), and
        // its own value (the history's "value" column), whatever the rows are ranked by.
        for (const auto& c : r.configs) {
            std::string name = c.runNames.empty() ? std::string() : c.runNames.front();
            for (const auto& o : outcomes_)
                if (name.empty() && o.run.label == c.label && o.run.varied == c.values)
                    name = o.run.name;
            r.trialNames.push_back(name);
            double value = NAN;
            for (const auto& o : outcomes_)
                if (o.run.name == name && !o.result.history.rows.empty())
                    for (std::size_t k = 0; k < o.result.history.columns.size(); ++k)
                        if (o.result.history.columns[k] == "value")
                            value = o.result.history.rows.back()[k];
            r.trialValues.push_back(value);
        }
    }
    r.metric = QString::fromStdString(objective.metric);
    QString label = r.metric;
    for (const ade::MetricInfo& m : ade::metricsOf(experiment_.toStdString()))
        if (m.column == objective.metric) label = QString::fromStdString(m.label);
    if (r.optuna && objective.metric != "value")
        label = studyMetricLabel(r.metric);
    r.metricLabel = optunaStudy_.isEmpty() || objective.metric != "value"
                        ? tr("%1 (%2)").arg(label, QString::fromStdString(objective.stat))
                        : tr("objective (the Optuna trial's value)");
    r.lowerIsBetter = objective.lowerIsBetter;
    r.stat = QString::fromStdString(objective.stat);
    r.fit = !design_.fitX.empty();
    r.halving = design_.halving.enabled;
    results_ = r;
    views_->setCurrentIndex(std::clamp(static_cast<int>(r.keys.size()) - 1, 0, 2));
    currentChart()->setResults(results_);
    table_->setResults(results_);
    apply_->setEnabled(results_.best() >= 0 || table_->selectedConfig() >= 0);
    export_->setEnabled(!results_.configs.empty());
}

QString studyMetricLabel(const QString& column) {
    if (column == QLatin1String("value")) return SweepView::tr("the trial's value (value)");
    if (column == QLatin1String("objective"))
        return SweepView::tr("intermediate values (objective)");
    return column;
}

std::vector<std::pair<QString, QString>> studyMetrics(const ade::SweepFolder& folder) {
    // The objective (the trials' value) first, then every column the trials' histories have.
    std::vector<std::pair<QString, QString>> out = {
        {QStringLiteral("value"), studyMetricLabel(QStringLiteral("value"))}};
    for (const auto& o : folder.finished)
        for (const std::string& c : o.result.history.columns) {
            const QString column = QString::fromStdString(c);
            if (c == "iteration" || std::any_of(out.begin(), out.end(),
                                                [&](const auto& m) { return m.first == column; }))
                continue;
            out.emplace_back(column, studyMetricLabel(column));
        }
    return out;
}

int SweepView::targetConfig() const {
    const int s = table_->selectedConfig();
    return s >= 0 ? s : results_.best();
}

QString SweepView::configName(int index) const {
    QStringList parts;
    for (const auto& [k, v] : results_.configs[index].values)
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(k), QString::fromStdString(v));
    return parts.join(QLatin1Char(' '));
}

void SweepView::openConfig(int index) {
    if (index < 0 || index >= static_cast<int>(results_.configs.size())) return;
    const auto& names = results_.configs[index].runNames;
    std::vector<ade::RunOutcome> runs;
    for (const auto& o : outcomes_)
        if (std::find(names.begin(), names.end(), o.run.name) != names.end()) runs.push_back(o);
    if (!runs.empty()) emit openRunsRequested(runs, configName(index));
}

bool SweepView::exportView(FigureFormat format, const QString& path, QString* error) const {
    return currentChart()->exportTo(format, path, {1200, 800}, error);
}

bool SweepView::exportCsv(const QString& path, QString* error) const {
    std::string err;
    if (ade::writeFileAtomic(path.toStdString(), resultsCsv(results_).toStdString(), &err))
        return true;
    if (error) *error = QString::fromStdString(err);
    return false;
}

FigureExportDialog* SweepView::exportDialog() {
    SweepChart* chart = currentChart();
    if (!chart || results_.configs.empty()) return nullptr;
    FigureKnobSpec spec;
    spec.checked = {FigureFormat::Png};
    spec.axisLabels = chart != parallel_;  // parallel coordinates: an axis per key, named by it
    spec.styleAndLegend = false;
    spec.size = QSize(1200, 800);
    spec.titleHint = tr("the view's own title");
    const PaperFigure paper = chart->paperFigure();
    const QString id = paper.lines ? paper.lines->id : paper.maps ? paper.maps->id : QStringLiteral("sweep");
    auto writer = [chart](FigureFormat format, const QString& path, const FigureOptions& o,
                          QString* error) { return chart->exportTo(format, path, o, error); };
    auto* dlg = new FigureExportDialog(optunaStudy_.isEmpty() ? tr("Export the sweep")
                                                              : tr("Export the Optuna study"),
                                       spec, QDir::home().filePath(QStringLiteral("figures")),
                                       optunaStudy_.isEmpty() ? id : QStringLiteral("study-") + id,
                                       writer, this);
    dlg->addOwnFile(optunaStudy_.isEmpty() ? tr("Table as CSV") : tr("Trials as CSV"),
                    QStringLiteral("export.csv"), QStringLiteral("csv"), false,
                    [this](const QString& path, QString* error) { return exportCsv(path, error); });
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->open();
    return dlg;
}

}  // namespace ade::ui
