// MainWindow: seeds as an axis of every comparison (the "Seeds" box beside Start).
#include <QLabel>
#include <QSpinBox>
#include <QToolBar>

#include "MainWindow.h"

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
}

int MainWindow::seeds() const {
    return seeds_ ? seeds_->value() : 1;
}

void MainWindow::setSeeds(int k) {
    if (seeds_) seeds_->setValue(k);
}

}  // namespace ade::ui
