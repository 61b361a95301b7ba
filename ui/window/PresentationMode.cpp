#include "window/PresentationMode.h"

#include <QAction>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenu>
#include <QScreen>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>

#include "charts/ChartArea.h"
#include "charts/ChartPanel.h"

namespace ade::ui {

namespace {
// The window's preferred size; smaller screens get their available area.
constexpr int kPreferredWidth = 1400;
constexpr int kPreferredHeight = 900;
// Below this width the About panel and the parameters share the left dock area as tabs: side
// by side, the two panels and a 2x2 chart grid do not fit.
constexpr int kTabbedDocksBelow = 1280;
}  // namespace

void fitToScreen(QMainWindow& w) {
    QScreen* s = w.screen() ? w.screen() : QGuiApplication::primaryScreen();
    if (!s) return;
    const QRect avail = s->availableGeometry();
    // A window manager's frame (title bar) is outside geometry(): known once shown.
    const QSize frame =
        w.isVisible() ? w.frameGeometry().size() - w.geometry().size() : QSize(0, 0);
    const int width = std::min(kPreferredWidth, avail.width() - frame.width());
    const int height = std::min(kPreferredHeight, avail.height() - frame.height());
    w.resize(width, height);
    w.move(avail.left() + (avail.width() - width - frame.width()) / 2,
           avail.top() + (avail.height() - height - frame.height()) / 2);
    auto* form = w.findChild<QDockWidget*>(QStringLiteral("parametersDock"));
    auto* about = w.findChild<QDockWidget*>(QStringLiteral("aboutDock"));
    if (form && about && avail.width() < kTabbedDocksBelow) {
        w.tabifyDockWidget(form, about);
        form->raise();
    }
    // A short screen: the run list gives the charts some of its height.
    if (auto* runs = w.findChild<QDockWidget*>(QStringLiteral("runsDock"));
        runs && height < kPreferredHeight)
        w.resizeDocks({runs}, {110}, Qt::Vertical);
    // The smaller screen: let the window manager fit the frame too.
    if (width < kPreferredWidth || height < kPreferredHeight)
        w.setWindowState(w.windowState() | Qt::WindowMaximized);
}

PresentationMode::PresentationMode(QMainWindow* window, QTabWidget* tabs, ChartArea* charts)
    : QObject(window), window_(window), tabs_(tabs), charts_(charts) {}

QAction* PresentationMode::action(const QString& id) const {
    return window_->findChild<QAction*>(id);
}

void PresentationMode::addToMenu(QMenu* view) {
    view->addAction(action(QStringLiteral("presentation")));
    QMenu* which = view->addMenu(tr("Presentation &chart"));
    which->setObjectName(QStringLiteral("presentationChartMenu"));
    for (int i = 0; i <= 4; ++i)
        which->addAction(action(QStringLiteral("presentChart%1").arg(i)));
    // Each item names the chart it shows (the grid's charts depend on the experiment).
    connect(which, &QMenu::aboutToShow, this, [this] {
        const auto& panels = charts_->panels();
        for (int i = 1; i <= 4; ++i) {
            QAction* a = action(QStringLiteral("presentChart%1").arg(i));
            const bool exists = i <= static_cast<int>(panels.size());
            a->setText(exists ? tr("Presentation: chart &%1, %2").arg(i).arg(panels[i - 1]->title())
                              : tr("Presentation: chart %1 (none: the grid)").arg(i));
            a->setEnabled(on_);
        }
    });
}

void PresentationMode::showChart(int index) {
    charts_->setPresentationChart(index);
    for (int k = 0; k <= 4; ++k)
        if (QAction* a = action(QStringLiteral("presentChart%1").arg(k)))
            a->setChecked(k == index + 1 || (k == 0 && index >= 4));
}

QByteArray PresentationMode::windowGeometry() const {
    return on_ ? savedGeometry_ : window_->saveGeometry();
}

QByteArray PresentationMode::windowState() const {
    return on_ ? savedState_ : window_->saveState();
}

int PresentationMode::centreTab() const {
    return on_ ? savedTab_ : tabs_->currentIndex();
}

void PresentationMode::setOn(bool on) {
    if (on == on_) return;
    on_ = on;
    if (QAction* a = action(QStringLiteral("presentation")); a && a->isChecked() != on)
        a->setChecked(on);
    if (on) {
        savedState_ = window_->saveState();
        savedGeometry_ = window_->saveGeometry();
        savedWindowState_ = window_->windowState();
        savedTab_ = tabs_->currentIndex();
        for (QDockWidget* d : window_->findChildren<QDockWidget*>())
            d->hide();
        tabs_->setCurrentWidget(charts_);
        tabs_->tabBar()->hide();
        charts_->setPresentation(true);
        window_->setWindowState(savedWindowState_ | Qt::WindowFullScreen);
        // Without a window manager (a bare X server) full screen is only a state: take the
        // screen's area ourselves once the state change is processed.
        QTimer::singleShot(0, this, [this] {
            if (on_ && window_->screen() && window_->geometry() != window_->screen()->geometry())
                window_->setGeometry(window_->screen()->geometry());
        });
    } else {
        charts_->setPresentation(false);
        tabs_->tabBar()->show();
        tabs_->setCurrentIndex(savedTab_);
        window_->setWindowState(savedWindowState_);
        window_->restoreGeometry(savedGeometry_);
        window_->restoreState(savedState_);
        // Once the window has its size again (the resize is processed later), the docks get
        // their sizes of before: restored in a smaller window they would be scaled.
        QTimer::singleShot(0, this, [this] {
            if (!on_) window_->restoreState(savedState_);
        });
    }
    // A key beyond the charts shown shows the grid.
    for (int i = 0; i <= 4; ++i)
        if (QAction* a = action(QStringLiteral("presentChart%1").arg(i))) a->setEnabled(on);
    emit toggled(on);
}

}  // namespace ade::ui
