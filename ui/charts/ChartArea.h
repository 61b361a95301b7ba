#pragma once
// The live charts of the window: a grid of ChartPanels and the chart toolbar (log y, log x,
// x: iteration / wall time, EMA smoothing, fit). Which charts the grid holds comes from the experiments' descriptions: the
// charts of the form's experiment and of every run's, those shown by default unless the user
// chose otherwise in View > Charts. Knows panels only through the ChartPanel interface.
#include <QWidget>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "charts/ChartPanel.h"

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QMenu;
class QScrollArea;
class QSlider;

namespace ade::ui {

class LegendBar;
class RunStore;
class TimeCursor;

class ChartArea : public QWidget {
    Q_OBJECT
  public:
    explicit ChartArea(RunStore* store, QWidget* parent = nullptr);

    // Pushes the store's new data into every panel; returns the time it took (ms), and the GUI
    // thread's CPU time in `cpuMs`.
    double refresh(bool force = false, double* cpuMs = nullptr);
    // Brings the seed groups' aggregates up to the store's records (the pacer calls it at every
    // drain, with or without a frame): the aggregation is spread over the arrivals, and a frame
    // only draws.
    void advanceAggregates();
    const std::vector<ChartPanel*>& panels() const { return panels_; }
    ChartPanel* panel(const QString& id) const;

    // The experiment of the form: its charts are shown while no run is drawn.
    void setExperiment(const std::string& experiment);
    // Every chart the grid may show now, shown or not: those the visible runs draw, or the
    // form's experiment's while none is drawn (liveChartSpecs).
    std::vector<ChartSpec> availableCharts() const;
    bool isChartShown(const ChartSpec& spec) const;
    void setChartShown(const QString& id, bool shown);
    void restoreDefaultCharts();
    // The user's choices (chart id -> shown) for the settings; applied again by setChartChoices.
    const std::map<QString, bool>& chartChoices() const { return choices_; }
    void setChartChoices(const std::map<QString, bool>& choices);
    // View > Charts: a check item per available chart, rebuilt each time it opens.
    QMenu* chartsMenu();

    bool logY() const;
    bool logX() const;
    bool wallTimeX() const;  // x: wall time (s) of each run instead of iteration
    void setWallTimeX(bool on);
    double smoothing() const;
    void setLogY(bool on);
    void setLogX(bool on);
    void setSmoothing(double weight);
    // View > Show seeds separately: every seed's curve instead of each group's mean and band.
    bool seedsSeparate() const { return seedsSeparate_; }
    void setSeedsSeparate(bool on);
    // Presentation mode: no chart toolbar; the first four shown charts as a 2x2 grid, or only
    // the shown chart `presentationChart()` (0-based; -1 = the grid).
    void setPresentation(bool on);
    void setPresentationChart(int index);
    int presentationChart() const { return presentChart_; }
    // A hint drawn over the charts while the store has no runs ("" = none).
    void setEmptyHint(const QString& html);
    // A widget under the grid (presentation mode's claims checklist); the caller shows it.
    void setFooter(QWidget* footer);
    bool emptyHintShown() const;
    void fitAll();
    // A lesson's highlighted run: these runs' curves thicker, `dimmed` ones faint (run ids;
    // empty lists: every run as usual).
    void setRunEmphasis(const std::vector<int>& emphasised, const std::vector<int>& dimmed);
    const std::vector<int>& emphasisedRuns() const { return emphasisedRuns_; }

    // Time travel: every chart draws a vertical line at the cursor's iteration (none when live);
    // with the wall-time axis, at the focused run's time of that iteration.
    void setTimeCursor(TimeCursor* cursor);
    void updateCursor();

    // The grid's one legend (runs and metrics of every shown chart, each once).
    LegendBar* legend() const { return legend_; }
    // A chart's least height: below it the grid scrolls instead of squeezing the plots.
    int minPanelHeight() const;

  signals:
    void painted(double ms, double cpuMs);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void updateLegend();  // merges the shown charts' legends
    void fitBars();       // the legend's and the footer's heights for the area's size
    void applyOptions();
    void applyPanelOptions(ChartPanel* p);
    // Creates and drops panels to match the charts to show, and lays the grid out again.
    void syncPanels();
    void layoutGrid();  // places the panels (and the empty hint) in the grid

    RunStore* store_;
    std::string experiment_;  // the first experiment until the form says otherwise
    std::vector<ChartPanel*> panels_;
    std::vector<QString> shownIds_;  // the grid's charts (ids, titles) at the last syncPanels
    bool synced_ = false;
    std::map<QString, bool> choices_;
    QGridLayout* grid_ = nullptr;
    QWidget* gridHost_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    LegendBar* legend_ = nullptr;
    QScrollArea* legendScroll_ = nullptr;
    QWidget* footer_ = nullptr;
    QScrollArea* footerScroll_ = nullptr;
    std::shared_ptr<AggregateCache> aggregates_ = std::make_shared<AggregateCache>();
    QLabel* empty_ = nullptr;  // shown when no chart is chosen
    QMenu* chartsMenu_ = nullptr;
    QCheckBox* logY_ = nullptr;
    QCheckBox* logX_ = nullptr;
    QComboBox* xAxis_ = nullptr;  // iteration / wall time
    QSlider* smoothing_ = nullptr;
    QLabel* smoothingLabel_ = nullptr;
    bool presentation_ = false;
    bool seedsSeparate_ = false;
    int presentChart_ = -1;
    QLabel* hint_ = nullptr;  // the empty-state hint, over the grid
    std::vector<int> emphasisedRuns_, dimmedRuns_;
    TimeCursor* cursor_ = nullptr;
};

}  // namespace ade::ui
