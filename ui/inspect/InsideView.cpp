#include "inspect/InsideView.h"

#include <QDir>
#include <QPushButton>
#include <QEvent>
#include <QTimer>

#include "charts/FigureExportDialog.h"
#include "charts/FigureRenderer.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "runs/TimeCursor.h"
#include "inspect/AttentionPanel.h"
#include "inspect/FactorPlanePanel.h"
#include "inspect/InsideData.h"
#include "inspect/MatrixPanel.h"

namespace ade::ui {

InsideView::InsideView(RunStore* store, TimeCursor* cursor, QWidget* parent)
    : QTabWidget(parent), store_(store), cursor_(cursor) {
    setObjectName(QStringLiteral("insideView"));
    setDocumentMode(true);
    problems_ = new ProblemCache(this);
    // A tab per row of the panels' table (inspect/InsideFigure: id, name, widget, painter).
    for (const InsidePanelInfo& info : insidePanels()) {
        QWidget* w = info.makeWidget(this);
        setTabToolTip(addTab(w, QString(info.name).remove(QLatin1Char('&'))), info.tip);
        panels_.emplace_back(info.panel, w);
    }
    matrices_ = static_cast<MatrixPanel*>(panelWidget(InsidePanel::Matrices));
    attention_ = static_cast<AttentionPanel*>(panelWidget(InsidePanel::Attention));
    plane_ = static_cast<FactorPlanePanel*>(panelWidget(InsidePanel::FactorPlane));
    auto* exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setObjectName(QStringLiteral("insideExport"));
    exportButton->setToolTip(tr("This panel as PNG, SVG or PDF, as PGFPlots (.tex) or a matplotlib "
                                "script (.py) with its data: width, type size, title"));
    setCornerWidget(exportButton, Qt::TopRightCorner);
    connect(exportButton, &QPushButton::clicked, this, &InsideView::exportCurrent);

    for (QWidget* w : {static_cast<QWidget*>(matrices_), static_cast<QWidget*>(plane_),
                       attention_->findChild<QWidget*>(QStringLiteral("attentionCanvas"))})
        if (w) w->installEventFilter(this);

    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    connect(timer_, &QTimer::timeout, this, &InsideView::refresh);
    connect(store_, &RunStore::dataAppended, this, &InsideView::schedule);
    connect(store_, &RunStore::runChanged, this, &InsideView::schedule);
    connect(store_, &RunStore::runAdded, this, &InsideView::schedule);
    connect(store_, &RunStore::runRemoved, this, [this] {
        shownParams_ = nullptr;  // the record may be gone
        schedule();
    });
    connect(cursor_, &TimeCursor::changed, this, &InsideView::schedule);
    connect(problems_, &ProblemCache::ready, this, [this] {
        shownReady_ = false;
        schedule();
    });
    connect(this, &QTabWidget::currentChanged, this, &InsideView::schedule);
}

InsideView::~InsideView() { problems_->waitForBuilds(); }

void InsideView::addPanel(QWidget* panel, const QString& title) { addTab(panel, title); }

std::optional<InsidePanel> InsideView::currentPanel() const {
    for (const auto& [panel, w] : panels_)
        if (w == currentWidget()) return panel;
    return std::nullopt;
}

QWidget* InsideView::panelWidget(InsidePanel panel) const {
    for (const auto& [p, w] : panels_)
        if (p == panel) return w;
    return nullptr;
}

void InsideView::showEvent(QShowEvent* e) {
    QTabWidget::showEvent(e);
    schedule();
}

bool InsideView::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() != QEvent::Paint || timingPaint_) return QTabWidget::eventFilter(watched, e);
    timingPaint_ = true;
    QElapsedTimer t;
    t.start();
    const double cpu0 = FrameStats::threadCpuMs();
    watched->event(e);
    frames_.paintInFrame(static_cast<double>(t.nsecsElapsed()) / 1e6,
                         FrameStats::threadCpuMs() - cpu0);
    timingPaint_ = false;
    return true;
}

void InsideView::schedule() {
    if (!isVisible() || timer_->isActive()) return;
    const qint64 since = sinceRefresh_.isValid() ? sinceRefresh_.elapsed() : 1'000'000;
    timer_->start(static_cast<int>(std::max<qint64>(0, 1000 / kRefreshHz - since)));
}

void InsideView::refresh() {
    QElapsedTimer t;
    t.start();
    const double cpu0 = FrameStats::threadCpuMs();
    sinceRefresh_.start();
    ++refreshes_;
    const RunRecord* r = focusRecord(*store_, cursor_->focusRun());
    QString error;
    ade::Problem* problem = r ? problems_->problem(r->config, &error) : nullptr;
    const QString pending = !error.isEmpty() ? error
                                             : tr("Preparing the experiment's data to compare "
                                                  "with (teacher, target, held-out sequence)…");
    const long iteration = cursor_->iteration();
    long shown = -1;
    const void* params = r ? paramsAt(*r, iteration, &shown, nullptr) : nullptr;
    const bool same = r && params == shownParams_ && shown == shownIteration_ &&
                      r->id == shownRun_ && shownReady_ == (problem != nullptr);
    if (!same) {
        // Heatmaps and attention only when what they show changed (not at every new record).
        matrices_->setScene(matrixScene(r, problem, iteration, pending));
        attention_->setScene(attentionScene(r, problem, iteration, pending));
        shownParams_ = params;
        shownIteration_ = shown;
        shownRun_ = r ? r->id : -1;
        shownReady_ = problem != nullptr;
    }
    plane_->setScene(factorPlaneScene(*store_, r, problem, iteration, pending));
    frames_.beginFrame(static_cast<double>(t.nsecsElapsed()) / 1e6,
                       FrameStats::threadCpuMs() - cpu0);
}

bool InsideView::exportPanel(InsidePanel panel, FigureFormat format, const QString& path,
                             QSize size, QString* error) {
    InsideFrameSpec spec;
    spec.panel = panel;
    spec.runId = cursor_->focusRun();
    spec.iteration = cursor_->iteration();
    spec.sortFeature = attention_->scene().sortFeature;
    FigureOptions o;
    o.size = size;
    o.metadata = reproductionText(*store_);
    return renderInsidePanel(*store_, *problems_, spec, o, format, path, error);
}

FigureExportDialog* InsideView::exportCurrent() {
    const auto panel = currentPanel();
    if (!panel) return nullptr;
    FigureKnobSpec spec;
    spec.checked = {FigureFormat::Png};
    // The axes a panel has: the factor plane's norms, the attention's tokens (the matrices'
    // rows and columns are indices without a name).
    spec.axisLabels = *panel != InsidePanel::Matrices;
    spec.styleAndLegend = false;
    spec.size = currentWidget()->size().expandedTo(QSize(800, 600));
    spec.titleHint = tr("the panel's heading");
    InsideFrameSpec frame;
    frame.panel = *panel;
    frame.runId = cursor_->focusRun();
    frame.iteration = cursor_->iteration();
    frame.sortFeature = attention_->scene().sortFeature;
    // The panel as it is now (run, iteration, token order), whenever Export is pressed.
    auto writer = [this, frame](FigureFormat format, const QString& path, const FigureOptions& o,
                                QString* error) {
        return renderInsidePanel(*store_, *problems_, frame, o, format, path, error);
    };
    auto* dlg = new FigureExportDialog(tr("Export %1").arg(QString(insidePanelInfo(*panel).name).remove(QLatin1Char('&'))),
                                       spec, QDir::current().filePath(QStringLiteral("figures")),
                                       insidePanelId(*panel), writer, this);
    FigureOptions base;
    base.metadata = reproductionText(*store_);
    dlg->setBaseOptions(base);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->open();
    return dlg;
}

}  // namespace ade::ui
