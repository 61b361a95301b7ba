#pragma once
// Presentation mode (F11): docks and tab bar hidden, full screen, the charts alone with large
// type, thick lines and the projector palette; keys 1-4 show one chart, 0 the 2x2 grid; leaving
// restores the layout of before. And the window's size on its screen (fitToScreen).
#include <QByteArray>
#include <QObject>

class QMainWindow;
class QMenu;
class QTabWidget;

namespace ade::ui {

class ChartArea;

// The window's size from the available geometry of its screen (at most 1400 x 900; on a narrow
// screen the About panel shares the left dock area with the parameters, as tabs).
void fitToScreen(QMainWindow& window);

class PresentationMode : public QObject {
    Q_OBJECT
  public:
    PresentationMode(QMainWindow* window, QTabWidget* tabs, ChartArea* charts);
    bool isOn() const { return on_; }
    void setOn(bool on);
    // The grid's chart `index` alone (0-based), or -1 the grid; the menu's check marks follow.
    void showChart(int index);
    // View > Presentation mode and its "Presentation chart" submenu (the window's actions
    // "presentation", "presentChart0".."presentChart4").
    void addToMenu(QMenu* view);
    // The layout the window had before presentation mode (what its settings keep).
    QByteArray windowGeometry() const;
    QByteArray windowState() const;
    int centreTab() const;

  signals:
    void toggled(bool on);

  private:
    QAction* action(const QString& id) const;
    QMainWindow* window_;
    QTabWidget* tabs_;
    ChartArea* charts_;
    bool on_ = false;
    QByteArray savedState_, savedGeometry_;
    Qt::WindowStates savedWindowState_;
    int savedTab_ = 0;
};

}  // namespace ade::ui
