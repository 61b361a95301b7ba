#include "lessons/LessonPlayer.h"

#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTextEdit>

#include "base/ActionTable.h"
#include "charts/ChartArea.h"
#include "lessons/LessonPanel.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "workspace/Shell.h"
#include "workspace/Workspace.h"

namespace ade::ui {

namespace {
// Arrow keys belong to a field that has the focus (its cursor, its value, its rows).
bool isEditor(const QWidget* w) {
    return qobject_cast<const QLineEdit*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
           qobject_cast<const QComboBox*>(w) || qobject_cast<const QTextEdit*>(w) ||
           qobject_cast<const QPlainTextEdit*>(w) || qobject_cast<const QAbstractItemView*>(w) ||
           qobject_cast<const QAbstractSlider*>(w);
}
}  // namespace

LessonPlayer::LessonPlayer(Workspace* workspace, Shell* shell, const std::string& argv0,
                           QObject* parent)
    : QObject(parent), workspace_(workspace), shell_(shell) {
    setObjectName(QStringLiteral("lessonPlayer"));
    library_ = std::make_unique<ade::LessonLibrary>(ade::LessonLibrary::defaultDirectories(argv0));
    panel_ = new LessonPanel(shell->dialogParent());
    connect(panel_, &LessonPanel::nextClicked, this, &LessonPlayer::next);
    connect(panel_, &LessonPanel::backClicked, this, &LessonPlayer::back);
    connect(panel_, &LessonPanel::leaveClicked, this, &LessonPlayer::leave);

    // Keys of the whole window (base/ActionTable.h), only while a lesson plays: free otherwise.
    const auto actions = makeActions(
        shell_->dialogParent(),
        {{"lessonNextStep", tr("&Next step"), {QKeySequence(Qt::Key_PageDown)},
          tr("The lesson's next step (Page Down, as a presentation clicker sends)"),
          QStyle::SP_CustomBase},
         {"lessonPreviousStep", tr("&Previous step"), {QKeySequence(Qt::Key_PageUp)},
          tr("The lesson's previous step (Page Up)"), QStyle::SP_CustomBase},
         {"lessonLeave", tr("&Leave lesson"), {QKeySequence(Qt::Key_Escape)},
          tr("End the lesson; its runs and charts stay"), QStyle::SP_CustomBase}});
    next_ = actions[0];
    back_ = actions[1];
    leave_ = actions[2];
    for (QAction* a : actions)
        a->setEnabled(false);
    connect(next_, &QAction::triggered, this, &LessonPlayer::next);
    connect(back_, &QAction::triggered, this, &LessonPlayer::back);
    connect(leave_, &QAction::triggered, this, &LessonPlayer::leave);

    RunController* c = workspace_->controller();
    connect(c, &RunController::runStarted, this, [this] { updateEmphasis(); });
    connect(c, &RunController::activeChanged, this, [this] { onDrained(); });
    connect(c, &RunController::allFinished, this, [this] { onDrained(); });
    connect(c, &RunController::drained, this, [this] { checkPauseClaim(); });
}

LessonPlayer::~LessonPlayer() {
    qApp->removeEventFilter(this);
}

QWidget* LessonPlayer::panel() const {
    return panel_;
}

int LessonPlayer::stepCount() const {
    return lesson_ ? static_cast<int>(lesson_->steps.size()) : 0;
}

void LessonPlayer::buildMenu(QMenu* menu) {
    menu->setObjectName(QStringLiteral("lessonsMenu"));
    menu->setToolTipsVisible(true);
    for (const auto& e : library_->entries()) {
        const QString name = QString::fromStdString(e.name);
        QAction* a = menu->addAction(QString::fromStdString(e.title), this, [this, name] {
            QString error;
            if (!playNamed(name, &error))
                QMessageBox::warning(shell_->dialogParent(), tr("Cannot play the lesson"), error);
        });
        a->setObjectName(QStringLiteral("lesson.") + name);
        a->setToolTip(QString::fromStdString(e.description));
        a->setStatusTip(a->toolTip());
    }
    if (library_->entries().empty())
        menu->addAction(tr("(no lessons found)"))->setEnabled(false);
    menu->addSeparator();
    menu->addAction(tr("&Open lesson file…"), this, [this] {
        const QString file = QFileDialog::getOpenFileName(shell_->dialogParent(), tr("Open lesson"), QString(),
                                                          tr("Lessons (*.json)"));
        if (file.isEmpty()) return;
        QString error;
        if (!playFile(file, &error))
            QMessageBox::warning(shell_->dialogParent(), tr("Cannot play the lesson"), error);
    })->setObjectName(QStringLiteral("openLesson"));
    menu->addSeparator();
    for (QAction* a : {next_, back_, leave_})
        menu->addAction(a);
}

bool LessonPlayer::playNamed(const QString& name, QString* error) {
    ade::LessonError e;
    auto lesson = library_->load(name.toStdString(), &e);
    if (!lesson) {
        if (error) *error = QString::fromStdString(e.message);
        return false;
    }
    return play(*lesson, error);
}

bool LessonPlayer::playFile(const QString& file, QString* error) {
    ade::LessonError e;
    auto lesson = ade::loadLessonFile(file.toStdString(), &e);
    if (!lesson) {
        if (error) *error = QString::fromStdString(e.message);
        return false;
    }
    return play(*lesson, error);
}

bool LessonPlayer::play(const ade::Lesson& lesson, QString* error) {
    if (auto e = ade::checkLesson(lesson, workspace_->presets())) {
        if (error) *error = QString::fromStdString(e->message);
        return false;
    }
    const bool wasPlaying = playing();
    lesson_ = lesson;
    if (!wasPlaying) {
        setPlayingActions(true);
        enteredPresentation_ = !shell_->presentation();
    }
    shell_->setPresentation(true);
    panel_->show();
    index_ = 0;
    showStep();
    return true;
}

void LessonPlayer::setPlayingActions(bool on) {
    for (QAction* a : {next_, back_, leave_})
        a->setEnabled(on);
    // Esc: Stop's key normally; while a lesson plays it leaves the lesson.
    QAction* stop = shell_->action(QStringLiteral("stop"));
    if (on) {
        stopKeys_ = stop->shortcuts();
        stop->setShortcuts({});
        qApp->installEventFilter(this);
    } else {
        stop->setShortcuts(stopKeys_);
        qApp->removeEventFilter(this);
    }
}

bool LessonPlayer::next() {
    return playing() && goTo(index_ + 1);
}

bool LessonPlayer::back() {
    return playing() && goTo(index_ - 1);
}

bool LessonPlayer::goTo(int index) {
    if (!playing() || index < 0 || index >= stepCount()) return false;
    index_ = index;
    showStep();
    return true;
}

void LessonPlayer::stopStep() {
    RunController* c = workspace_->controller();
    c->setPauseAtIteration(-1);
    if (c->anyActive()) c->stopAndWait();
    shell_->cancelSweep();
}

bool LessonPlayer::continuesBatch(const ade::Plan& plan) const {
    // The window's current comparison is this plan's runs (same labels and configs), all still
    // in the list: a step that only points at something else in the same runs.
    if (plan.sweep) return false;
    const auto wanted = ade::plainRuns(plan);
    const auto& runs = workspace_->batchRuns();
    const auto& ids = workspace_->batchIds();
    if (runs.size() != wanted.size() || ids.size() != wanted.size()) return false;
    for (std::size_t i = 0; i < wanted.size(); ++i)
        if (runs[i].label != wanted[i].label ||
            runs[i].config.toJson() != wanted[i].config.toJson() || !workspace_->store()->run(ids[i]))
            return false;
    return true;
}

void LessonPlayer::showStep() {
    const ade::LessonStep& step = lesson_->steps[static_cast<std::size_t>(index_)];
    shell_->charts()->setRunEmphasis({}, {});
    ade::LessonError err;
    plan_ = ade::stepPlan(*lesson_, static_cast<std::size_t>(index_), workspace_->presets(), &err);
    // Steps that share a plan share its runs: the next one carries on where they are.
    const bool carryOn = plan_ && continuesBatch(*plan_);
    if (!carryOn) stopStep();
    panel_->showStep(QString::fromStdString(lesson_->title), index_, stepCount(),
                     QString::fromStdString(step.title), QString::fromStdString(step.caption));
    panel_->setLarge(shell_->presentation());
    if (!plan_) {  // checked when the lesson started; a preset file changed since
        panel_->setStatus(QString::fromStdString(err.message));
        emit stepShown(index_);
        return;
    }
    panel_->setStatus({});
    RunController* c = workspace_->controller();
    c->setPauseAtIteration(step.pauseIteration);
    if (carryOn) {
        if (c->anyActive() && c->paused()) c->resumeAll();  // a pause of the step before
    } else {
        const QString name =
            !step.preset.empty()
                ? QString::fromStdString(step.preset)
                : tr("%1, step %2").arg(QString::fromStdString(lesson_->name)).arg(index_ + 1);
        shell_->loadPlan(*plan_, name, true);
    }
    // The chart it names, alone on the screen (shown first if View > Charts had it off).
    int chart = -1;
    if (!step.highlightChart.empty()) {
        const QString id = QString::fromStdString(step.highlightChart);
        auto find = [&] {
            const auto& panels = shell_->charts()->panels();
            for (std::size_t i = 0; i < panels.size(); ++i)
                if (panels[i]->spec().id == id) return static_cast<int>(i);
            return -1;
        };
        chart = find();
        if (chart < 0) {
            shell_->charts()->setChartShown(id, true);
            chart = find();
        }
    }
    shell_->showPresentationChart(chart);
    updateEmphasis();
    claimPaused_ = false;
    sinceClaimCheck_.invalidate();
    highlightedClaim_ = QString::fromStdString(step.highlightClaim);
    emit claimHighlighted(highlightedClaim_);
    onDrained();
    emit stepShown(index_);
}

void LessonPlayer::updateEmphasis() {
    if (!playing() || !plan_) return;
    const ade::LessonStep& step = lesson_->steps[static_cast<std::size_t>(index_)];
    if (step.highlightRun.empty()) return;
    // The step's comparison (or its Reset / Re-seed): the named run thick, its others faint.
    const auto& ids = workspace_->batchIds();
    const auto& runs = workspace_->batchRuns();
    std::vector<int> bold, dim;
    for (std::size_t i = 0; i < ids.size() && i < runs.size(); ++i) {
        // A re-seeded run is labelled "<run> · seed N".
        const QString label = QString::fromStdString(runs[i].label)
                                  .section(QStringLiteral(" · seed "), 0, 0);
        (label == QString::fromStdString(step.highlightRun) ? bold : dim).push_back(ids[i]);
    }
    if (!bold.empty()) shell_->charts()->setRunEmphasis(bold, dim);
}

void LessonPlayer::onDrained() {
    if (!playing() || !plan_) return;
    const ade::LessonStep& step = lesson_->steps[static_cast<std::size_t>(index_)];
    RunController* c = workspace_->controller();
    if (!step.pauseClaim.empty() && !claimPaused_)
        panel_->setStatus(c->anyActive() ? tr("The runs pause when the claim “%1” first holds.")
                                               .arg(QString::fromStdString(step.pauseClaim))
                                         : QString());
    else if (!step.pauseClaim.empty() && !c->paused())
        panel_->setStatus(c->anyActive() ? tr("The claim “%1” held; the runs go on.")
                                               .arg(QString::fromStdString(step.pauseClaim))
                                         : QString());
    if (step.pauseIteration > 0) {
        // Paused there: every run of the step's comparison has reached the pause point.
        bool reached = c->anyActive();
        for (int id : workspace_->batchIds())
            if (const RunRecord* r = workspace_->store()->run(id);
                r && isActive(r->state) && r->lastIteration() < step.pauseIteration)
                reached = false;
        if (reached && c->paused())
            panel_->setStatus(tr("Paused at iteration %1. Space resumes the runs; Next (Page "
                                 "Down) goes on to the next step.")
                                  .arg(step.pauseIteration));
        else if (c->anyActive() && !reached)
            panel_->setStatus(tr("The runs pause at iteration %1.").arg(step.pauseIteration));
        else
            panel_->setStatus({});
    }
}

std::optional<ade::ClaimResult> LessonPlayer::evaluateClaim(const QString& id,
                                                            bool* holdsSoFar) const {
    if (holdsSoFar) *holdsSoFar = false;
    if (!plan_) return std::nullopt;
    const ade::ClaimSpec* spec = nullptr;
    for (const auto& c : plan_->claims)
        if (QString::fromStdString(c.id) == id) spec = &c;
    if (!spec) return std::nullopt;
    // The step's comparison, every seed, as the claim sees it (the store's columns in place).
    const auto& ids = workspace_->batchIds();
    const auto& planned = workspace_->batchRuns();
    std::vector<ade::ClaimRun> runs;
    int expected = 0;  // runs (seeds) of the claim's run
    for (std::size_t i = 0; i < ids.size() && i < planned.size(); ++i) {
        const RunRecord* r = workspace_->store()->run(ids[i]);
        if (!r) continue;
        runs.push_back({planned[i].label, planned[i].config.getInt("seed"), planned[i].varied,
                        r->view(), !isActive(r->state), &planned[i].config});
        runs.back().capped = r->stop == QLatin1String("cap");  // as the claims checklist says
        expected += planned[i].label == spec->run;
    }
    ade::ClaimResult result = ade::evaluateClaim(*spec, runs);
    if (holdsSoFar)
        *holdsSoFar = result.status == ade::ClaimStatus::Holds ||
                      (result.status == ade::ClaimStatus::Pending && result.seeds > 0 &&
                       result.seeds >= expected && result.seedsInRange == result.seeds);
    return result;
}

void LessonPlayer::checkPauseClaim() {
    if (!playing() || !plan_ || claimPaused_) return;
    const ade::LessonStep& step = lesson_->steps[static_cast<std::size_t>(index_)];
    RunController* c = workspace_->controller();
    if (step.pauseClaim.empty() || !c->anyActive() || c->paused()) return;
    // Throttled: a claim copies every history of the comparison.
    if (sinceClaimCheck_.isValid() && sinceClaimCheck_.elapsed() < 250) return;
    sinceClaimCheck_.start();
    bool holds = false;
    const auto result = evaluateClaim(QString::fromStdString(step.pauseClaim), &holds);
    if (!result || !holds) return;
    claimPaused_ = true;
    c->pauseAll();
    QString text;
    for (const auto& claim : plan_->claims)
        if (claim.id == step.pauseClaim) text = QString::fromStdString(claim.text);
    panel_->setStatus(tr("Paused: the claim holds on the data so far — %1 (%2). Space resumes "
                         "the runs.")
                          .arg(text, QString::fromStdString(result->measured)));
}

void LessonPlayer::leave() {
    if (!playing()) return;
    workspace_->controller()->setPauseAtIteration(-1);
    shell_->charts()->setRunEmphasis({}, {});
    shell_->showPresentationChart(-1);
    lesson_.reset();
    plan_.reset();
    index_ = -1;
    highlightedClaim_.clear();
    emit claimHighlighted({});
    setPlayingActions(false);
    panel_->hide();
    if (enteredPresentation_) shell_->setPresentation(false);
    emit left();
}

bool LessonPlayer::eventFilter(QObject* watched, QEvent* event) {
    // → and ← turn the pages too, unless a field that uses the arrows has the focus.
    if (event->type() == QEvent::KeyPress && playing()) {
        auto* ke = static_cast<QKeyEvent*>(event);
        auto* w = qobject_cast<QWidget*>(watched);
        const bool ours = w && w->window() == shell_->dialogParent()->window();
        if (ours && ke->modifiers() == Qt::NoModifier &&
            (ke->key() == Qt::Key_Right || ke->key() == Qt::Key_Left) &&
            !isEditor(QApplication::focusWidget())) {
            if (ke->key() == Qt::Key_Right)
                next();
            else
                back();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace ade::ui
