#include "inspect/LandscapePanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include "base/FigureFile.h"
#include "charts/FigureExportDialog.h"
#include "charts/FigureRenderer.h"
#include "inspect/InsideFigurePaper.h"
#include "runs/RunStore.h"
#include "runs/TimeCursor.h"
#include "inspect/LandscapeJob.h"
#include "inspect/LandscapeSurface.h"

namespace ade::ui {

namespace {

// The contour map on screen: drawLandscapeMap into the widget.
class MapView : public QWidget {
  public:
    explicit MapView(LandscapePanel* panel) : QWidget(panel), panel_(panel) {
        setMinimumSize(320, 280);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        const auto o = panel_->outcome();
        if (!o) {
            p.fillRect(rect(), palette().window());
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap,
                       tr("No landscape yet. Compute draws the training objective around the "
                          "focused run's iterate at the time cursor: t moves along the symmetry "
                          "orbit, s along a normal direction."));
            return;
        }
        drawLandscapeMap(p, QRectF(rect()), *o, panel_->mapOptions());
    }

  private:
    LandscapePanel* panel_;
};

}  // namespace

LandscapePanel::LandscapePanel(RunStore* store, TimeCursor* cursor, QWidget* parent)
    : QWidget(parent), store_(store), cursor_(cursor), job_(new LandscapeJob(this)) {
    auto* controls = new QHBoxLayout;
    computeButton_ = new QPushButton(tr("Compute"), this);
    computeButton_->setToolTip(tr("Compute the landscape around the focused run's iterate at the "
                                  "time cursor, in the background at the lowest priority (nice 19)."));
    grid_ = new QSpinBox(this);
    grid_->setRange(3, 64);
    grid_->setValue(33);
    grid_->setToolTip(tr("Grid points per axis (the objective is evaluated grid² times; odd "
                         "sizes put the iterate on a grid point)."));
    tRange_ = new QDoubleSpinBox(this);
    tRange_->setRange(0.01, 5.0);
    tRange_->setSingleStep(0.1);
    tRange_->setValue(1.0);
    tRange_->setToolTip(tr("t ∈ [−range, range]: the orbit move scales the factors by e^{±t}."));
    sRange_ = new QDoubleSpinBox(this);
    sRange_->setRange(0.001, 10.0);
    sRange_->setDecimals(3);
    sRange_->setSingleStep(0.1);
    sRange_->setValue(1.0);
    sRange_->setToolTip(tr("s ∈ [−range, range]: s = 1 is a step as long as the trainable "
                           "parameters (filter-normalised)."));
    normal_ = new QComboBox(this);
    normal_->addItem(tr("filter-normalised random"), int(ade::LandscapeNormal::FilterRandom));
    normal_->addItem(tr("top Hessian eigenvector"), int(ade::LandscapeNormal::HessianTop));
    normal_->setToolTip(tr("The normal direction d (orthogonal to the orbit's tangent): a random "
                           "direction scaled row by row to the parameters (Li et al. 2018), or "
                           "the Hessian's top eigenvector by power iteration on Hessian-vector "
                           "products."));
    quantity_ = new QComboBox(this);
    quantity_->addItem(tr("objective Q"));
    quantity_->addItem(tr("data loss"));
    quantity_->setToolTip(tr("Q = data loss + regulariser, what the optimiser minimises; or the "
                             "data loss alone (flat along the orbit for B, C and Darcy)."));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(true);
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    exportButton_ = new QPushButton(tr("Export…"), this);
    exportButton_->setToolTip(tr("Save the contour map as PNG, SVG or PDF."));
    // Two rows (what to compute; what to show and the job): in one row the controls made the
    // panel wider than its tab at 1600x1000, and the map's right part, colour bar and caption
    // needed sideways scrolling.
    controls->addWidget(computeButton_);
    controls->addWidget(new QLabel(tr("grid"), this));
    controls->addWidget(grid_);
    controls->addWidget(new QLabel(tr("t ±"), this));
    controls->addWidget(tRange_);
    controls->addWidget(new QLabel(tr("s ±"), this));
    controls->addWidget(sRange_);
    controls->addWidget(new QLabel(tr("d:"), this));
    controls->addWidget(normal_);
    controls->addStretch(1);
    auto* jobRow = new QHBoxLayout;
    jobRow->addWidget(new QLabel(tr("show:"), this));
    jobRow->addWidget(quantity_);
    jobRow->addWidget(progress_, 1);
    jobRow->addWidget(cancelButton_);
    jobRow->addWidget(exportButton_);

    status_ = new QLabel(this);
    status_->setWordWrap(true);
    tabs_ = new QTabWidget(this);
    mapView_ = new MapView(this);
    surface_ = new LandscapeSurface(this);
    tabs_->addTab(mapView_, tr("Contour map"));
    tabs_->addTab(surface_, tr("3-D surface"));

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(jobRow);
    layout->addWidget(status_);
    layout->addWidget(tabs_, 1);

    connect(computeButton_, &QPushButton::clicked, this, &LandscapePanel::compute);
    connect(cancelButton_, &QPushButton::clicked, this, &LandscapePanel::cancel);
    connect(exportButton_, &QPushButton::clicked, this, &LandscapePanel::exportMap);
    connect(job_, &LandscapeJob::progress, this, [this](int done, int total) {
        progress_->setRange(0, total);
        progress_->setValue(done);
    });
    connect(job_, &LandscapeJob::finished, this, &LandscapePanel::onFinished);
    connect(quantity_, &QComboBox::currentIndexChanged, this, [this] {
        surface_->setLandscape(outcome_, quantity_->currentIndex() == 1);
        mapView_->update();
    });
    if (cursor_) connect(cursor_, &TimeCursor::changed, mapView_, qOverload<>(&QWidget::update));
    updateState();
}

LandscapePanel::~LandscapePanel() = default;

int LandscapePanel::targetRun() const {
    if (!store_) return 0;
    if (cursor_ && cursor_->focusRun() != 0 && store_->run(cursor_->focusRun()))
        return cursor_->focusRun();
    for (const RunRecord* r : store_->visibleRuns())
        if (!r->snapshots.empty() || r->finalParams || r->initialParams) return r->id;
    return 0;
}

bool LandscapePanel::isComputing() const { return job_->isRunning(); }

LandscapeMapOptions LandscapePanel::mapOptions() const {
    LandscapeMapOptions o;
    o.dataLossOnly = quantity_->currentIndex() == 1;
    if (cursor_ && !cursor_->isLive()) o.markerIteration = cursor_->iteration();
    return o;
}

int LandscapePanel::markerIndex() const {
    return outcome_ ? landscapeMarkerIndex(*outcome_, mapOptions().markerIteration) : -1;
}

void LandscapePanel::compute() {
    const int id = targetRun();
    const RunRecord* run = id ? store_->run(id) : nullptr;
    if (!run) {
        status_->setText(tr("No run with parameters to compute a landscape for."));
        return;
    }
    QString why;
    auto input = landscapeInput(*run, cursor_ ? cursor_->iteration() : -1, &why);
    if (!input) {
        status_->setText(why);
        return;
    }
    ade::LandscapeSpec spec;
    spec.grid = grid_->value();
    spec.tRange = tRange_->value();
    spec.sRange = sRange_->value();
    spec.normal = static_cast<ade::LandscapeNormal>(normal_->currentData().toInt());
    status_->setText(tr("Computing %1×%1 points around %2 at iteration %3 (one thread at nice "
                        "19: running solvers go first)…")
                         .arg(spec.grid)
                         .arg(input->runName)
                         .arg(input->centreIteration));
    progress_->setRange(0, spec.grid * spec.grid);
    progress_->setValue(0);
    job_->start(std::move(*input), spec);
    updateState();
}

void LandscapePanel::cancel() {
    job_->cancel();
    status_->setText(tr("Cancelled."));
    progress_->setValue(0);
    // The worker stops at its next grid point; the buttons follow when it has.
    QMetaObject::invokeMethod(this, [this] { updateState(); }, Qt::QueuedConnection);
    updateState();
}

void LandscapePanel::onFinished(std::shared_ptr<const LandscapeOutcome> outcome) {
    if (!outcome->error.isEmpty()) {
        status_->setText(tr("Landscape failed: %1").arg(outcome->error));
    } else if (!outcome->grid.cancelled) {
        outcome_ = std::move(outcome);
        const auto& g = outcome_->grid;
        status_->setText(tr("%1×%1 points in %2 s. %3; %4.")
                             .arg(g.spec.grid)
                             .arg(outcome_->seconds, 0, 'f', 1)
                             .arg(landscapeTAxisName(g), landscapeSAxisName(g)));
        surface_->setLandscape(outcome_, quantity_->currentIndex() == 1);
        mapView_->update();
        emit computed();
    }
    updateState();
}

void LandscapePanel::updateState() {
    const bool busy = job_->isRunning();
    computeButton_->setText(busy ? tr("Restart") : tr("Compute"));
    cancelButton_->setEnabled(busy);
    exportButton_->setEnabled(outcome_ != nullptr);
    if (!busy && !outcome_ && status_->text().isEmpty())
        status_->setText(tr("Compute draws the objective around the focused run's iterate."));
}

void LandscapePanel::exportMap() {
    if (!outcome_) return;
    FigureKnobSpec spec;
    spec.checked = {FigureFormat::Png};
    spec.axisLabels = false;  // the orbit's and the normal's names, as the papers write them
    spec.styleAndLegend = false;
    spec.size = QSize(900, 760);
    spec.titleHint = tr("<run>: loss landscape at iteration N");
    // The map as computed now (a later Compute gives the next export its own outcome).
    auto outcome = outcome_;
    const LandscapeMapOptions map = mapOptions();
    auto writer = [outcome, map](FigureFormat format, const QString& path, const FigureOptions& o,
                                 QString* error) {
        LandscapeMapOptions m = map;
        if (!o.title.isEmpty()) m.title = o.title;
        return isPaintedFormat(format)
                   ? renderLandscapeMap(*outcome, m, format, o.size, path, error)
                   : writePaperFigure({std::nullopt, landscapeHeatmap(*outcome, m)}, o, format, path, error);
    };
    auto* dlg = new FigureExportDialog(tr("Export the loss landscape"), spec,
                                       QDir::current().filePath(QStringLiteral("figures")),
                                       QStringLiteral("landscape"), writer, this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->open();
}

}  // namespace ade::ui
