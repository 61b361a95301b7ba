#pragma once
// The one chart interface the rest of the GUI sees. Everything Qt Charts-specific lives behind
// createChartPanel() in this folder, so moving to Qt Graphs (Qt Charts is deprecated from 6.10)
// or rendering a panel for an export is one folder's work.
#include <QWidget>

#include <memory>
#include <string>
#include <vector>

#include "charts/LegendBar.h"
#include "runs/SeedGroups.h"
#include "experiments/MetricInfo.h"

namespace ade::ui {

class RunStore;

struct ChartOptions {
    bool logY = true;
    bool symLogY = false;  // symmetric log (charts of signed quantities over decades; SymLog.h)
    bool logX = false;
    double smoothing = 0.0;     // EMA weight in [0, 1); 0 = raw curve only
    bool presentation = false;  // larger fonts, thicker lines
    // x = seconds since the run started (the trainer's wall-time column) instead of iteration.
    bool wallTime = false;
    // Seeds of one group (RunRecord::group) as one curve, their mean, with a min–max band;
    // false: every seed's own curve ("Show seeds separately").
    bool seedBands = true;
    // A lesson's highlighted run (run ids): its curves drawn thicker, the other runs of its
    // comparison faint; runs in neither list as usual.
    std::vector<int> emphasisedRuns, dimmedRuns;
};

// One chart: which metric columns it shows and how its y axis reads, all from the experiments'
// descriptions (core/experiments/MetricInfo.h), so a new experiment's metrics land in their
// charts without GUI changes.
struct ChartSpec {
    QString id;      // stable name (settings, file names of figures, tests)
    QString title;   // shown above the plot
    QString yLabel;  // the units its metrics share
    ade::AxisScale scale = ade::AxisScale::Log;  // Log charts follow the "Log y" switch
    bool shownByDefault = true;
    // Whether the chart draws `column` of a run of `experiment` (the column's description
    // names this chart).
    bool accepts(const std::string& experiment, const std::string& column) const;
};
ChartSpec chartSpec(const ade::ChartInfo& info);
ChartSpec chartSpec(const std::string& id);  // any experiment's chart, by id
// The charts of these experiments, in the order of the first one's list, then the others' new
// ones; unknown columns of `runs` get a chart each. `onlyWithData`: only charts that draw a
// column some run of `runs` has.
std::vector<ChartSpec> chartSpecsFor(const std::vector<std::string>& experiments,
                                     const RunStore* runs = nullptr, bool onlyWithData = false);
// The charts the live grid offers: those the visible runs of `runs` draw (a run with no columns
// yet: its experiment's charts), titled for the experiments drawn (a chart two experiments title
// differently gets its generic title); with no visible run, the charts of `formExperiment`, the
// ones a Start would fill. A chart no visible run draws is not offered: Darcy's runs bring no
// empty "Distance to the minimisers", C's no empty "Test error".
std::vector<ChartSpec> liveChartSpecs(const std::string& formExperiment, const RunStore& runs);
// A metric column as a person reads it: "‖W_Q‖_F" for norm_WQ of Experiment B.
QString metricLabel(const std::string& experiment, const std::string& column);

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
    virtual const ChartSpec& spec() const = 0;
    virtual QStringList seriesNames() const = 0;  // drawn series, as in the legend
    virtual int drawnPoints() const = 0;          // points handed to the plot at the last refresh
    virtual void setSeriesHidden(const QString& name, bool hidden) = 0;  // as a legend click
    // The chart's legend: its metrics (line styles) and runs (colours), as its own legend under
    // the plot shows them, or the grid's one legend (ChartArea) merges them.
    virtual const std::vector<LegendEntry>& legendEntries() const = 0;
    virtual void setLegendKeyHidden(const QString& key, bool hidden) = 0;  // "m:<col>", "r:<id>"
    virtual void setOwnLegendShown(bool shown) = 0;  // false: the grid's legend speaks for it
    // The seed groups' aggregates, shared with the other charts of an area (each group is then
    // brought up to date once per frame, not once per chart).
    virtual void shareAggregates(std::shared_ptr<AggregateCache> cache) = 0;
    // The plot's rectangle in the panel (inside the axes), and the texts of the ticks of a
    // linear axis (empty for a log axis, whose labels Qt places at powers).
    virtual QRectF plotArea() const = 0;
    virtual QStringList tickTexts(Qt::Orientation axis) const = 0;
    virtual QString crosshairText() const = 0;  // the crosshair's values (HTML), "" when none
    // What an export of this chart should keep of the screen: the curves hidden by legend clicks
    // ("m:<column>", "r:<run id>"), and the axes' ranges when the user zoomed or panned.
    virtual QStringList hiddenKeys() const = 0;
    virtual bool zoomed() const = 0;
    virtual void visibleRange(double& x0, double& x1, double& y0, double& y1) const = 0;
    // Time travel: a vertical line across the plot at `x` (the x axis' units: an iteration, or
    // seconds with the wall-time axis), labelled `label`; NaN = no line (live).
    virtual void setCursorLine(double x, const QString& label = {}) = 0;
    virtual double cursorLineX() const = 0;  // NaN when there is no cursor
    // The cursor line's horizontal position in the chart's scene (NaN when not drawn: no cursor,
    // or x outside the visible range).
    virtual double cursorLinePosition() const = 0;

  signals:
    void painted(double milliseconds, double cpuMilliseconds);  // each paint of the plot
    void interacted();                                          // user zoomed or panned
    void legendChanged();  // legendEntries() changed (runs, metrics, hidden entries)
};

ChartPanel* createChartPanel(const ChartSpec& spec, QWidget* parent = nullptr);

}  // namespace ade::ui
