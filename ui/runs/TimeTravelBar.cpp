#include "runs/TimeTravelBar.h"

#include <QAction>
#include <QLabel>
#include <QSlider>

#include <algorithm>

#include "base/ActionTable.h"
#include "base/SteadyLabel.h"
#include "runs/RunStore.h"
#include "runs/TimeCursor.h"

namespace ade::ui {

const RunRecord* focusedRun(const RunStore& store, const TimeCursor& cursor) {
    if (const RunRecord* r = store.run(cursor.focusRun())) return r;
    const auto visible = store.visibleRuns();
    if (!visible.empty()) return visible.front();
    return store.runs().empty() ? nullptr : store.runs().front().get();
}

QString snapshotMemoryText(const RunRecord& r) {
    const double kib = static_cast<double>(r.snapshotBytes()) / 1024.0;
    const QString size = kib < 1024 ? QObject::tr("%1 KiB").arg(kib, 0, 'f', 1)
                                    : QObject::tr("%1 MiB").arg(kib / 1024.0, 0, 'f', 1);
    return QObject::tr("Parameter snapshots (time travel): %1, %2 in memory and in a saved "
                       "session; at most %3 per run and %4 MiB (keys snapshots, snapshot_mb)")
        .arg(r.snapshots.size())
        .arg(size)
        .arg(r.config.getInt("snapshots"))
        .arg(r.config.getReal("snapshot_mb"), 0, 'g', 4);
}

TimeTravelBar::TimeTravelBar(RunStore* store, TimeCursor* cursor, QWidget* parent)
    : QToolBar(tr("Time travel"), parent), store_(store), cursor_(cursor) {
    setObjectName(QStringLiteral("timeTravelBar"));
    setMovable(false);
    auto* title = new QLabel(tr("Time travel "), this);
    title->setToolTip(tr("Scrub back to any recorded iteration of the selected run: the charts "
                         "draw a cursor there and the inside views show its parameters then"));
    addWidget(title);
    // Each button one ActionSpec (base/ActionTable.h), placed in the bar as it is made.
    // Named for the menus and Help > Keyboard shortcuts; the bar's buttons show only an arrow.
    earlier_ = makeActions(this, {{"timeEarlier", tr("Step back in time"),
                                   {QKeySequence(Qt::Key_BracketLeft)},
                                   tr("Earlier: the previous parameter snapshot")}})
                   .front();
    earlier_->setIconText(QStringLiteral("◀"));
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("timeSlider"));
    slider_->setMinimumWidth(80);
    slider_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    slider_->setPageStep(10);
    slider_->setToolTip(tr("The focused run's parameter snapshots, first to latest: drag to show "
                           "the run as it was at that iteration"));
    addWidget(slider_);
    later_ = makeActions(this, {{"timeLater", tr("Step forward in time"),
                                 {QKeySequence(Qt::Key_BracketRight)},
                                 tr("Later: the next parameter snapshot")}})
                 .front();
    later_->setIconText(QStringLiteral("▶"));
    live_ = makeActions(this, {{"timeLive", tr("Live"), {QKeySequence(Qt::Key_L)},
                                tr("Live: follow the latest snapshot of the run"),
                                QStyle::SP_CustomBase, true}})
                .front();
    live_->setChecked(true);
    label_ = new QLabel(this);
    label_->setObjectName(QStringLiteral("timeLabel"));
    label_->setContentsMargins(8, 0, 0, 0);
    addWidget(label_);

    connect(slider_, &QSlider::valueChanged, this, [this](int i) {
        if (!syncing_) showSnapshot(i);
    });
    // While the handle is held, new snapshots do not rescale the slider (the handle crept away
    // from the pointer as the run grew, issue 30 item 14); the range catches up on release.
    connect(slider_, &QSlider::sliderReleased, this, &TimeTravelBar::sync);
    connect(live_, &QAction::toggled, this, [this](bool on) {
        if (syncing_) return;
        if (on)
            cursor_->setLive();
        else
            showSnapshot(slider_->value());
    });
    connect(earlier_, &QAction::triggered, this, [this] { stepSnapshot(-1); });
    connect(later_, &QAction::triggered, this, [this] { stepSnapshot(+1); });
    connect(cursor_, &TimeCursor::changed, this, &TimeTravelBar::sync);
    auto ifFocused = [this](int id) {
        const RunRecord* r = focusedRun(*store_, *cursor_);
        if (r && r->id == id) sync();
    };
    connect(store_, &RunStore::snapshotsAppended, this, ifFocused);
    recordsTimer_.setSingleShot(true);
    recordsTimer_.setInterval(200);
    connect(&recordsTimer_, &QTimer::timeout, this, &TimeTravelBar::sync);
    connect(store_, &RunStore::dataAppended, this, [this](int id) {  // "of M": the latest iteration
        if (recordsTimer_.isActive()) return;
        const RunRecord* r = focusedRun(*store_, *cursor_);
        if (r && r->id == id) recordsTimer_.start();
    });
    connect(store_, &RunStore::runChanged, this, ifFocused);
    connect(store_, &RunStore::runAdded, this, &TimeTravelBar::sync);
    connect(store_, &RunStore::runRemoved, this, &TimeTravelBar::sync);
    sync();
}

void TimeTravelBar::sync() {
    recordsTimer_.stop();
    syncing_ = true;
    const RunRecord* r = focusedRun(*store_, *cursor_);
    const int count = r ? static_cast<int>(r->snapshots.size()) : 0;
    slider_->setEnabled(count > 1);
    earlier_->setEnabled(count > 1);
    later_->setEnabled(count > 1 && !cursor_->isLive());
    const bool held = slider_->isSliderDown();
    if (!held) slider_->setRange(0, std::max(count - 1, 0));
    live_->setChecked(cursor_->isLive());
    long shown = -1;
    if (count > 0 && held) {
        shown = cursor_->isLive() ? r->snapshots.back().iteration : cursor_->iteration();
    } else if (count > 0) {
        if (cursor_->isLive()) {
            slider_->setValue(count - 1);
            shown = r->snapshots.back().iteration;
        } else {
            const ade::Snapshot* s = r->snapshotAt(cursor_->iteration());
            slider_->setValue(s ? static_cast<int>(s - r->snapshots.data()) : 0);
            shown = cursor_->iteration();
        }
    }
    if (!r) {
        setSteadyText(label_, tr("no run"));
        label_->setToolTip({});
    } else if (count == 0) {
        setSteadyText(label_, tr("no snapshots"));
        label_->setToolTip(tr("%1 has no parameter snapshots (snapshots = 0, or a session saved "
                              "before they existed)")
                               .arg(r->name));
    } else {
        setSteadyText(label_, tr("iteration %1 of %2%3")
                            .arg(shown)
                            .arg(std::max(r->lastIteration(), r->snapshots.back().iteration))
                            .arg(cursor_->isLive() ? tr(" · live") : QString()));
        label_->setToolTip(tr("%1, snapshot %2 of %3.\n%4")
                               .arg(r->name)
                               .arg(slider_->value() + 1)
                               .arg(count)
                               .arg(snapshotMemoryText(*r)));
    }
    syncing_ = false;
}

void TimeTravelBar::showSnapshot(int index) {
    const RunRecord* r = focusedRun(*store_, *cursor_);
    if (!r || r->snapshots.empty()) return;
    index = std::clamp(index, 0, static_cast<int>(r->snapshots.size()) - 1);
    cursor_->setIteration(r->snapshots[static_cast<std::size_t>(index)].iteration);
    sync();  // live off even when the iteration did not change
}

void TimeTravelBar::stepSnapshot(int delta) {
    const RunRecord* r = focusedRun(*store_, *cursor_);
    if (!r || r->snapshots.empty()) return;
    const int last = static_cast<int>(r->snapshots.size()) - 1;
    if (cursor_->isLive() && delta >= 0) return;  // already at the latest
    showSnapshot((cursor_->isLive() ? last : slider_->value()) + delta);
}

}  // namespace ade::ui
