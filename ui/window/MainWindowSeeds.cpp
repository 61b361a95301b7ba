// MainWindow: seeds as an axis of every comparison (the "Seeds" box beside Start).
#include <QLabel>
#include <QSpinBox>
#include <QToolBar>

#include "window/MainWindow.h"

namespace ade::ui {

void MainWindow::buildSeedsControl(QToolBar* toolbar) {
    seeds_ = new QSpinBox(this);
    seeds_->setObjectName(QStringLiteral("seeds"));
    seeds_->setRange(1, 32);
    seeds_->setValue(1);
    seeds_->setAccelerated(false);
    seeds_->setFocusPolicy(Qt::ClickFocus);  // Space stays Play / Pause
    const QString tip =
        tr("Seeds per run: Start runs each of the preset's runs with this many seeds (seed, "
           "seed + 1, …: new data and initial weights each), Play the form's settings with as "
           "many. The charts draw each run's mean over its seeds with a min–max band; the run "
           "list gives mean ± sd. A preset's \"seeds\" sets it.");
    seeds_->setToolTip(tip);
    auto* label = new QLabel(tr(" Seeds "), this);
    label->setBuddy(seeds_);
    label->setToolTip(tip);
    toolbar->addSeparator();
    toolbar->addWidget(label);
    toolbar->addWidget(seeds_);
    // The box shows the workspace's count and sets it.
    seeds_->setValue(workspace_->seeds());
    connect(seeds_, &QSpinBox::valueChanged, workspace_, &Workspace::setSeeds);
    connect(workspace_, &Workspace::seedsChanged, seeds_, &QSpinBox::setValue);
}

int MainWindow::seeds() const {
    return workspace_->seeds();
}

void MainWindow::setSeeds(int k) {
    workspace_->setSeeds(k);
}

}  // namespace ade::ui
