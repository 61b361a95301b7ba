// MainWindow: the window's size on its screen and presentation mode (charts alone, full screen,
// large type, thick lines, the projector palette; keys 1-4 pick one chart, 0 the grid).
#include <QAction>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMenu>
#include <QScreen>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>

#include "charts/ChartArea.h"
#include "window/MainWindow.h"

namespace ade::ui {

namespace {
// The window's preferred size; smaller screens get their available area.
constexpr int kPreferredWidth = 1400;
constexpr int kPreferredHeight = 900;
// Below this width the About panel and the parameters share the left dock area as tabs: side
// by side, the two panels and a 2x2 chart grid do not fit.
constexpr int kTabbedDocksBelow = 1280;
}  // namespace

void MainWindow::fitToScreen() {
    QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!s) return;
    const QRect avail = s->availableGeometry();
    // A window manager's frame (title bar) is outside geometry(): known once shown.
    const QSize frame = isVisible() ? frameGeometry().size() - geometry().size() : QSize(0, 0);
    const int w = std::min(kPreferredWidth, avail.width() - frame.width());
    const int h = std::min(kPreferredHeight, avail.height() - frame.height());
    resize(w, h);
    move(avail.left() + (avail.width() - w - frame.width()) / 2,
         avail.top() + (avail.height() - h - frame.height()) / 2);
    auto* form = findChild<QDockWidget*>(QStringLiteral("parametersDock"));
    auto* about = findChild<QDockWidget*>(QStringLiteral("aboutDock"));
    if (form && about && avail.width() < kTabbedDocksBelow) {
        tabifyDockWidget(form, about);
        form->raise();
    }
    // A short screen: the run list gives the charts some of its height.
    if (auto* runs = findChild<QDockWidget*>(QStringLiteral("runsDock")); runs && h < kPreferredHeight)
        resizeDocks({runs}, {110}, Qt::Vertical);
    // The smaller screen: let the window manager fit the frame too.
    if (w < kPreferredWidth || h < kPreferredHeight)
        setWindowState(windowState() | Qt::WindowMaximized);
}

void MainWindow::buildPresentationMenu(QMenu* view) {
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
            a->setEnabled(presentation_);
        }
    });
}

void MainWindow::showPresentationChart(int index) {
    charts_->setPresentationChart(index);
    for (int k = 0; k <= 4; ++k)
        if (QAction* a = action(QStringLiteral("presentChart%1").arg(k)))
            a->setChecked(k == index + 1 || (k == 0 && index >= 4));
}

void MainWindow::setPresentation(bool on) {
    if (on == presentation_) return;
    presentation_ = on;
    if (QAction* a = action(QStringLiteral("presentation")); a && a->isChecked() != on)
        a->setChecked(on);
    if (on) {
        savedState_ = saveState();
        savedGeometry_ = saveGeometry();
        savedWindowState_ = windowState();
        savedTab_ = tabs_->currentIndex();
        for (QDockWidget* d : findChildren<QDockWidget*>())
            d->hide();
        tabs_->setCurrentWidget(charts_);
        tabs_->tabBar()->hide();
        charts_->setPresentation(true);
        setWindowState(savedWindowState_ | Qt::WindowFullScreen);
        // Without a window manager (a bare X server) full screen is only a state: take the
        // screen's area ourselves once the state change is processed.
        QTimer::singleShot(0, this, [this] {
            if (presentation_ && screen() && geometry() != screen()->geometry())
                setGeometry(screen()->geometry());
        });
    } else {
        charts_->setPresentation(false);
        tabs_->tabBar()->show();
        tabs_->setCurrentIndex(savedTab_);
        setWindowState(savedWindowState_);
        restoreGeometry(savedGeometry_);
        restoreState(savedState_);
        // Once the window has its size again (the resize is processed later), the docks get
        // their sizes of before: restored in a smaller window they would be scaled.
        QTimer::singleShot(0, this, [this] {
            if (!presentation_) restoreState(savedState_);
        });
    }
    // A key beyond the charts shown shows the grid.
    for (int i = 0; i <= 4; ++i)
        if (QAction* a = action(QStringLiteral("presentChart%1").arg(i))) a->setEnabled(on);
}

}  // namespace ade::ui
