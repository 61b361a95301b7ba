#include "SweepView.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "charts/ScalingPlot.h"
#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"

namespace ade::ui {

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("sweepView"));
    auto* top = new QHBoxLayout;
    key_ = new QComboBox(this);
    key_->setObjectName(QStringLiteral("sweepKey"));
    values_ = new QLineEdit(QStringLiteral("32, 64, 128, 256, 512"), this);
    values_->setObjectName(QStringLiteral("sweepValues"));
    values_->setToolTip(tr("Comma-separated values of the key; each is validated like the form"));
    seeds_ = new QSpinBox(this);
    seeds_->setObjectName(QStringLiteral("sweepSeeds"));
    seeds_->setRange(1, 64);
    seeds_->setValue(2);
    seeds_->setToolTip(tr("Seeds per grid point (seed, seed+1, ...); points are geometric means"));
    jobs_ = new QSpinBox(this);
    jobs_->setRange(1, 64);
    jobs_->setValue(std::max(1, QThread::idealThreadCount()));
    jobs_->setToolTip(tr("Runs in parallel (worker threads)"));
    metric_ = new QComboBox(this);
    metric_->setObjectName(QStringLiteral("sweepMetric"));
    metric_->setToolTip(tr("Metric on the y axis: its floor (mean of the last 10% of records)"));
    run_ = new QPushButton(tr("Run sweep"), this);
    run_->setObjectName(QStringLiteral("sweepRun"));
    top->addWidget(new QLabel(tr("Vary"), this));
    top->addWidget(key_);
    top->addWidget(values_, 1);
    top->addWidget(new QLabel(tr("Seeds"), this));
    top->addWidget(seeds_);
    top->addWidget(new QLabel(tr("Parallel"), this));
    top->addWidget(jobs_);
    top->addWidget(new QLabel(tr("y"), this));
    top->addWidget(metric_);
    top->addWidget(run_);
    progress_ = new QProgressBar(this);
    progress_->setTextVisible(true);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("sweepStatus"));
    status_->setWordWrap(true);
    table_ = new QTableWidget(0, 5, this);
    table_->setHorizontalHeaderLabels(
        {tr("Series"), tr("Points"), tr("Fitted slope"), tr("R²"), tr("Values (x: y)")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    plot_ = createScalingPlot(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plot_);
    split->addWidget(table_);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(top);
    lay->addWidget(progress_);
    lay->addWidget(status_);
    lay->addWidget(split, 1);

    if (!ade::experiments().empty()) fillKeys(ade::experiments().front().name, "data.n");
    connect(run_, &QPushButton::clicked, this, [this] {
        if (running_)
            control_->requestStop();
        else
            start();
    });
    connect(&watcher_, &QFutureWatcherBase::finished, this, &SweepView::onFinished);
    poll_.setInterval(100);
    connect(&poll_, &QTimer::timeout, this, &SweepView::updateProgress);
}

SweepView::~SweepView() {
    cancelAndWait();
}

void SweepView::fillKeys(const std::string& experiment, const std::string& current) {
    key_->clear();
    for (const auto& s : ade::ParamRegistry::instance().all())
        if (s.appliesTo(experiment) &&
            (s.type == ade::ParamType::Int || s.type == ade::ParamType::Real) && s.key != "seed")
            key_->addItem(QString::fromStdString(s.key));
    key_->setCurrentText(QString::fromStdString(current));
    // The y metric: the experiment's charted metrics, by their labels; its headline first.
    const QString before = metric_->currentData().toString();
    metric_->clear();
    const ade::ExperimentInfo* info = ade::findExperiment(experiment);
    for (const ade::MetricInfo& m : ade::metricsOf(experiment))
        if (!m.chart.empty() && m.column != "step_size" && m.column != "reg_value")
            metric_->addItem(QString::fromStdString(m.label), QString::fromStdString(m.column));
    if (!before.isEmpty() && metric_->findData(before) >= 0)
        selectMetric(before.toStdString());
    else if (info)
        selectMetric(info->headlineMetric);
}

void SweepView::selectMetric(const std::string& column) {
    int i = metric_->findData(QString::fromStdString(column));
    if (i < 0) {  // a preset's metric this experiment does not describe: offered as is
        metric_->addItem(QString::fromStdString(column), QString::fromStdString(column));
        i = metric_->count() - 1;
    }
    metric_->setCurrentIndex(i);
}

void SweepView::setPlan(const ade::Plan& plan) {
    plan_ = plan;
    if (plan.sweep && !plan.sweep->vary.empty()) {
        const auto& [k, vals] = plan.sweep->vary.front();
        fillKeys(plan.runs.empty() ? ade::experiments().front().name
                                   : plan.runs.front().config.experiment(),
                 k);
        QStringList v;
        for (const auto& s : vals)
            v << QString::fromStdString(s);
        values_->setText(v.join(QStringLiteral(", ")));
        seeds_->setValue(plan.sweep->seeds);
        selectMetric(plan.sweep->fitY);
    }
    status_->setText(
        tr("Preset %1: %2")
            .arg(QString::fromStdString(plan.name), QString::fromStdString(plan.description)));
}

void SweepView::setFormConfig(const ade::Config& config) {
    if (formConfig_.experiment() != config.experiment())
        fillKeys(config.experiment(), key_->currentText().toStdString());
    formConfig_ = config;
}

void SweepView::clearPlan() {
    plan_.reset();
}

bool SweepView::start() {
    if (running_) return false;
    ade::Plan plan;
    if (plan_) {
        plan = *plan_;
    } else {
        plan.name = "form";
        plan.runs.push_back({"form", formConfig_});
    }
    ade::SweepSpec spec;
    std::vector<std::string> vals;
    for (const QString& v : values_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!v.trimmed().isEmpty()) vals.push_back(v.trimmed().toStdString());
    spec.vary = {{key_->currentText().toStdString(), vals}};
    spec.seeds = seeds_->value();
    spec.fitX = key_->currentText().toStdString();
    spec.fitY = metric_->currentData().toString().toStdString();
    std::string error;
    if (vals.size() < 2) error = "give at least two values to fit a slope";
    std::optional<std::vector<ade::PlannedRun>> runs;
    if (error.empty()) runs = ade::expandSweep(plan, spec, &error);
    if (!runs) {
        status_->setText(tr("Cannot run the sweep: %1").arg(QString::fromStdString(error)));
        return false;
    }
    xKey_ = spec.fitX;
    yMetric_ = spec.fitY;
    control_ = std::make_unique<ade::RunControl>();
    done_ = std::make_shared<std::atomic<int>>(0);
    total_ = static_cast<int>(runs->size());
    progress_->setRange(0, total_);
    progress_->setValue(0);
    ade::PlanRunOptions opt;
    opt.jobs = jobs_->value();
    opt.control = control_.get();
    auto done = done_;
    opt.finished = [done](const ade::RunOutcome&) { done->fetch_add(1); };
    const std::string name = plan.name;
    watcher_.setFuture(
        QtConcurrent::run([runs = *runs, name, opt] { return ade::runPlanned(runs, name, opt); }));
    running_ = true;
    run_->setText(tr("Cancel"));
    status_->setText(tr("Running %1 runs (%2 values × %3 seeds × %4 series) on %5 threads…")
                         .arg(total_)
                         .arg(vals.size())
                         .arg(spec.seeds)
                         .arg(plan.runs.size())
                         .arg(opt.jobs));
    poll_.start();
    return true;
}

void SweepView::updateProgress() {
    if (done_) progress_->setValue(done_->load());
}

void SweepView::cancelAndWait() {
    if (!running_) return;
    control_->requestStop();
    watcher_.waitForFinished();
}

void SweepView::onFinished() {
    poll_.stop();
    running_ = false;
    run_->setText(tr("Run sweep"));
    updateProgress();
    const auto outcomes = watcher_.result();
    fits_ = ade::fitPowerLaw(outcomes, xKey_, yMetric_, "floor");
    std::vector<ScalingSeries> series;
    table_->setRowCount(0);
    for (const auto& f : fits_) {
        ScalingSeries s;
        s.name = QString::fromStdString(f.series);
        s.points = f.xy;
        s.slope = f.slope;
        s.intercept = f.intercept;
        s.fitted = f.points >= 2;
        series.push_back(s);
        const int row = table_->rowCount();
        table_->insertRow(row);
        QStringList xy;
        for (const auto& [x, y] : f.xy)
            xy << QStringLiteral("%1: %2").arg(x).arg(y, 0, 'g', 4);
        table_->setItem(row, 0, new QTableWidgetItem(s.name));
        table_->setItem(row, 1, new QTableWidgetItem(QString::number(f.points)));
        table_->setItem(row, 2, new QTableWidgetItem(QString::number(f.slope, 'f', 3)));
        table_->setItem(row, 3, new QTableWidgetItem(QString::number(f.r2, 'f', 3)));
        table_->setItem(row, 4, new QTableWidgetItem(xy.join(QStringLiteral(", "))));
    }
    plot_->setData(series, QString::fromStdString(xKey_),
                   QStringLiteral("%1 (floor)").arg(QString::fromStdString(yMetric_)),
                   {-1.0, -2.0});
    int failed = 0;
    for (const auto& o : outcomes)
        if (o.result.status != ade::RunStatus::Completed) ++failed;
    QString msg = tr("%1 runs done").arg(outcomes.size());
    if (failed) msg += tr(", %1 not completed (cancelled, diverged or failed)").arg(failed);
    for (const auto& f : fits_)
        msg += tr("; %1: slope %2").arg(QString::fromStdString(f.series)).arg(f.slope, 0, 'f', 2);
    status_->setText(msg);
    emit finished();
}

}  // namespace ade::ui
