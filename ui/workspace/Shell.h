#pragma once
// What the parts below the window (sessions, lessons, animation export) need of the window that
// hosts them, and nothing more: a parent for their dialogs, a status message, presentation mode,
// the chart area, the form's config, the run list's selection, loading a plan into the form.
// MainWindow implements it; the parts take a Workspace (the document) and a Shell, never the
// window itself, so no include goes up to it.
#include <QList>
#include <QString>

#include "config/Config.h"
#include "plan/Preset.h"

class QAction;
class QWidget;

namespace ade::ui {

class ChartArea;

class Shell {
  public:
    virtual ~Shell() = default;
    // The parent of dialogs and message boxes (and of actions whose keys work window-wide).
    virtual QWidget* dialogParent() = 0;
    virtual void showMessage(const QString& text, int ms) = 0;  // in the status bar
    virtual bool presentation() const = 0;
    virtual void setPresentation(bool on) = 0;
    // Presentation mode's chart: the grid's chart `index` alone, or -1 the grid.
    virtual void showPresentationChart(int index) = 0;
    virtual ChartArea* charts() const = 0;
    // An action of the window by its id (start, pause, stop, ...); nullptr when there is none.
    virtual QAction* action(const QString& id) const = 0;
    // The run list's selected runs (ids, first the current one).
    virtual QList<int> selectedRunIds() const = 0;
    virtual ade::Config formConfig() const = 0;
    virtual void setFormConfig(const ade::Config& config) = 0;
    // Loads `plan` into the form and the workspace under `name`, and starts it when asked.
    virtual bool loadPlan(const ade::Plan& plan, const QString& name, bool start) = 0;
    virtual void cancelSweep() = 0;  // a running sweep ends (its runs stay)
};

}  // namespace ade::ui
