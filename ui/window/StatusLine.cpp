#include "window/StatusLine.h"

#include <QEvent>
#include <QFontMetrics>
#include <QLabel>
#include <QStatusBar>

#include <algorithm>

#include "base/SteadyLabel.h"
#include "form/ParamForm.h"
#include "form/TimeEstimator.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "sweep/SweepView.h"
#include "workspace/Workspace.h"

namespace ade::ui {

StatusLine::StatusLine(QStatusBar* bar, Workspace* workspace, ParamForm* form, SweepView* sweep,
                       QObject* parent)
    : QObject(parent), bar_(bar), workspace_(workspace), form_(form), sweep_(sweep) {
    state_ = new QLabel(tr("idle"), bar);
    state_->setObjectName(QStringLiteral("stateLabel"));
    state_->setTextFormat(Qt::RichText);
    connect(state_, &QLabel::linkActivated, form_,
            [this](const QString& key) { form_->showField(key); });
    iteration_ = new QLabel(bar);
    rate_ = new QLabel(bar);
    points_ = new QLabel(bar);
    bar->addWidget(state_);
    bar->addPermanentWidget(iteration_);
    bar->addPermanentWidget(rate_);
    bar->addPermanentWidget(points_);
    iteration_->setObjectName(QStringLiteral("iterationLabel"));
    iteration_->setContentsMargins(12, 0, 0, 0);  // a gap after the message
    if (QWidget* window = bar->window(); window && window != bar) window->installEventFilter(this);
    RunController* controller = workspace_->controller();
    connect(controller, &RunController::runFinished, this, [this](int id) {
        const RunRecord* r = workspace_->store()->run(id);
        if (r && (r->state == RunState::Diverged || r->state == RunState::Failed ||
                  r->stop == QLatin1String("cap")))
            bar_->showMessage(tr("%1 %2: %3").arg(r->name, stateText(r->state), r->message), 15000);
    });
    connect(controller, &RunController::activeChanged, this, &StatusLine::update);
    connect(form_, &ParamForm::validityChanged, this, &StatusLine::update);
    connect(form_, &ParamForm::configChanged, this, &StatusLine::update);
    connect(sweep_, &SweepView::statusChanged, this, &StatusLine::update);
}

bool StatusLine::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::StatusTip) return QObject::eventFilter(watched, event);
    const QString tip = static_cast<QStatusTipEvent*>(event)->tip();
    if (tip.isEmpty()) {
        bar_->clearMessage();
        return true;
    }
    // The room Qt gives a message: from the bar's left edge to the first permanent label.
    int right = bar_->width() - 12;
    for (QLabel* l : {iteration_, rate_, points_})
        if (l->isVisible() && l->width() > 0) right = std::min(right, l->x());
    const int room = std::max(40, right - 10);
    bar_->showMessage(bar_->fontMetrics().elidedText(tip, Qt::ElideRight, room));
    return true;
}

void StatusLine::updateThrottled() {
    if (sinceStreamed_.isValid() && sinceStreamed_.elapsed() < 200) return;
    update();
    sinceStreamed_.start();
}

void StatusLine::update() {
    const RunController* controller = workspace_->controller();
    const RunStore* store = workspace_->store();
    const bool active = controller->anyActive();
    QString state = !active ? tr("idle") : controller->paused() ? tr("paused") : tr("running");
    if (active)
        state += tr(" · %n run(s)", nullptr, static_cast<int>(controller->activeIds().size()));
    // A sweep (or a watched sweep folder) says what runs: "Sweep: 7 of 18 runs done".
    if (const QString sweep = sweep_->statusText(); !sweep.isEmpty())
        state = active ? state + QStringLiteral(" · ") + sweep : sweep;
    state = state.toHtmlEscaped();
    if (!form_->isValid()) {
        // Why Start is disabled, and a link to the field at fault.
        QString reason = form_->errors().value(0);
        state_->setToolTip(form_->errors().join(QStringLiteral("\n")));
        if (reason.size() > 110) reason = reason.left(107) + QStringLiteral("…");
        state += QStringLiteral(" · <span style='color:#b3261e'>%1</span>")
                     .arg(tr("cannot start: %1").arg(reason).toHtmlEscaped());
        if (const QString key = form_->firstProblemKey(); !key.isEmpty())
            state += QStringLiteral(" <a href='%1'>%2</a>").arg(key, tr("Show"));
    } else {
        state_->setToolTip({});
    }
    if (state_->text() != state) state_->setText(state);
    long it = 0;
    for (const auto& r : store->runs())
        if (r->visible || isActive(r->state)) it = std::max(it, r->lastIteration());
    // Steady: these change every frame while runs stream (no relayout of the window).
    setSteadyText(iteration_, tr("iteration %1").arg(it));
    QString rate;
    if (active) {
        rate = tr("%1 it/s").arg(controller->iterationsPerSecond(), 0, 'f', 0);
        // Time left: the slowest active run's remaining iterations at its own rate.
        double left = 0;
        for (int id : controller->activeIds())
            if (const RunRecord* r = store->run(id)) {
                const double v = measuredRate(*r);
                const double todo = static_cast<double>(r->config.getInt("iterations")) -
                                    (r->lastIteration() - r->iterationOffset);
                if (v > 0 && todo > 0) left = std::max(left, todo / v);
            }
        if (left > 0 && !controller->paused()) rate += tr(" · %1 left").arg(durationText(left));
    }
    setSteadyText(rate_, rate);
    setSteadyText(points_, tr("%1 points").arg(store->totalPoints()));
}

}  // namespace ade::ui
