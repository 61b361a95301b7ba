#pragma once
// The one chart interface the rest of the GUI sees. Everything Qt Charts-specific lives behind
// createChartPanel() in this folder, so moving to Qt Graphs (Qt Charts is deprecated from 6.10)
// or rendering a panel for an export is one folder's work.
#include <QWidget>

#include <functional>
#include <string>
#include <vector>

namespace ade::ui {

class RunStore;

struct ChartOptions {
    bool logY = true;
    bool logX = false;
    double smoothing = 0.0;     // EMA weight in [0, 1); 0 = raw curve only
    bool presentation = false;  // larger fonts, thicker lines
};

// Which metric columns a panel shows: chosen by column name, so every experiment's columns
// (excess_risk, rmse, rel_l2, norm_WQ, ...) land somewhere without GUI changes.
struct ChartSpec {
    QString id;     // stable name (settings, tests)
    QString title;  // shown above the plot
    std::function<bool(const std::string& column)> accepts;
    bool logYByDefault = true;
};
std::vector<ChartSpec> defaultChartSpecs();  // loss, weight norms, manifold, other metrics

class ChartPanel : public QWidget {
    Q_OBJECT
  public:
    using QWidget::QWidget;
    virtual void setOptions(const ChartOptions& options) = 0;
    virtual const ChartOptions& options() const = 0;
    // Redraws from the store's visible runs if anything changed since the last call (or force).
    virtual void refresh(const RunStore& store, bool force = false) = 0;
    virtual void fitToData() = 0;  // back to automatic ranges after zoom/pan
    virtual QString title() const = 0;
    virtual QStringList seriesNames() const = 0;  // drawn series, as in the legend
    virtual int drawnPoints() const = 0;          // points handed to the plot at the last refresh
    virtual void setSeriesHidden(const QString& name, bool hidden) = 0;  // as a legend click

  signals:
    void painted(double milliseconds, double cpuMilliseconds);  // each paint of the plot
    void interacted();                                          // user zoomed or panned
};

ChartPanel* createChartPanel(const ChartSpec& spec, QWidget* parent = nullptr);

}  // namespace ade::ui
