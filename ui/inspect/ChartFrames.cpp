#include "inspect/ChartFrames.h"

#include <QApplication>
#include <QGridLayout>
#include <QWidget>

#include <algorithm>
#include <cmath>

#include "RunStore.h"
#include "charts/ChartPanel.h"
#include "experiments/MetricInfo.h"

namespace ade::ui {

ChartFrames::ChartFrames(const RunStore& store, QSize size)
    : store_(store), widget_(std::make_unique<QWidget>()) {
    widget_->setObjectName(QStringLiteral("animationFrame"));
    widget_->setAttribute(Qt::WA_DontShowOnScreen);
    widget_->setAutoFillBackground(true);
    QPalette pal = widget_->palette();
    pal.setColor(QPalette::Window, Qt::white);
    widget_->setPalette(pal);
    auto* grid = new QGridLayout(widget_.get());
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setSpacing(4);
    std::vector<std::string> experiments;
    for (const RunRecord* r : store.visibleRuns())
        if (std::find(experiments.begin(), experiments.end(), r->config.experiment()) ==
            experiments.end())
            experiments.push_back(r->config.experiment());
    std::vector<ChartSpec> specs;
    for (const ChartSpec& s : chartSpecsFor(experiments, &store, true))
        if (s.shownByDefault) specs.push_back(s);
    const int n = static_cast<int>(specs.size());
    const int cols = n <= 1 ? 1 : (n <= 4 ? 2 : 3);
    for (int i = 0; i < n; ++i) {
        ChartPanel* p = createChartPanel(specs[static_cast<std::size_t>(i)], widget_.get());
        ChartOptions o = p->options();
        o.logY = specs[static_cast<std::size_t>(i)].scale == ade::AxisScale::Log;
        o.symLogY = specs[static_cast<std::size_t>(i)].scale == ade::AxisScale::SymLog;
        p->setOptions(o);
        grid->addWidget(p, i / cols, i % cols);
        panels_.push_back(p);
    }
    widget_->resize(size);
    widget_->show();  // laid out and polished, never on screen (WA_DontShowOnScreen)
    for (ChartPanel* p : panels_)
        p->refresh(store_, true);
    QApplication::processEvents();
}

ChartFrames::~ChartFrames() = default;

QImage ChartFrames::operator()(long iteration) {
    for (ChartPanel* p : panels_) {
        p->refresh(store_, false);
        p->setCursorLine(static_cast<double>(iteration),
                     QObject::tr("iteration %1").arg(iteration));
    }
    return widget_->grab().toImage();
}

FrameRenderer animationFrameRenderer(const RunStore& store, QSize size) {
    auto frames = std::make_shared<ChartFrames>(store, size);
    return [frames](long iteration) { return (*frames)(iteration); };
}

std::vector<long> snapshotIterations(const RunRecord& run) {
    std::vector<long> out;
    out.reserve(run.snapshots.size());
    for (const auto& s : run.snapshots)
        out.push_back(s.iteration);
    return out;
}

}  // namespace ade::ui
