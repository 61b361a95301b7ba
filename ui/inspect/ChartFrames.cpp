#include "inspect/ChartFrames.h"

#include <QApplication>
#include <QPainter>
#include <QGridLayout>
#include <QWidget>

#include <algorithm>
#include <cmath>

#include "runs/RunStore.h"
#include "inspect/InsideData.h"
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

bool parseAnimationPanels(const QString& text, AnimationPanels* out, QString* error) {
    AnimationPanels a;
    a.charts = false;
    for (const QString& name : text.split(',', Qt::SkipEmptyParts)) {
        InsidePanel panel;
        if (name.trimmed() == QLatin1String("charts")) {
            a.charts = true;
        } else if (parseInsidePanel(name.trimmed(), &panel)) {
            if (std::find(a.inside.begin(), a.inside.end(), panel) == a.inside.end())
                a.inside.push_back(panel);
        } else {
            *error = QStringLiteral("unknown panel '%1': expected charts, matrices, attention or "
                                    "factor-plane")
                         .arg(name);
            return false;
        }
    }
    if (a.count() == 0) {
        *error = QStringLiteral("no panel: expected charts, matrices, attention or factor-plane");
        return false;
    }
    a.runId = out->runId;
    *out = a;
    return true;
}

FrameRenderer animationFrameRenderer(const RunStore& store, QSize size,
                                     const AnimationPanels& panels) {
    const int n = std::max(panels.count(), 1);
    if (n == 1 && panels.charts) {
        auto frames = std::make_shared<ChartFrames>(store, size);
        return [frames](long iteration) { return (*frames)(iteration); };
    }
    // A grid of cells, two columns; each cell one panel.
    const int cols = n == 1 ? 1 : 2, rows = (n + cols - 1) / cols;
    const QSize cell(size.width() / cols, size.height() / rows);
    auto charts = panels.charts ? std::make_shared<ChartFrames>(store, cell) : nullptr;
    auto problems = std::make_shared<ProblemCache>();
    return [&store, size, cell, cols, panels, charts, problems](long iteration) {
        QImage image(size, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter p(&image);
        int k = 0;
        auto cellRect = [&](int i) {
            return QRect(QPoint((i % cols) * cell.width(), (i / cols) * cell.height()), cell);
        };
        if (charts) p.drawImage(cellRect(k++), (*charts)(iteration));
        for (InsidePanel panel : panels.inside) {
            InsideFrameSpec spec;
            spec.panel = panel;
            spec.runId = panels.runId;
            spec.iteration = iteration;
            const QRect r = cellRect(k++);
            p.save();
            p.setClipRect(r);
            paintInsidePanel(p, QRectF(r), store, *problems, spec);
            p.restore();
        }
        return image;
    };
}

std::vector<long> snapshotIterations(const RunRecord& run) {
    std::vector<long> out;
    out.reserve(run.snapshots.size());
    for (const auto& s : run.snapshots)
        out.push_back(s.iteration);
    return out;
}

}  // namespace ade::ui
