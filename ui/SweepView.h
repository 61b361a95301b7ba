#pragma once
// The sweep view for the data–compute scaling law: choose a key and its values (n by default)
// and seeds, run the grid in parallel on worker threads (core's runPlanned), then plot the floor
// of the excess risk against the key on log-log axes with the fitted slope and the reference
// slopes -1 and -2.
#include <QFutureWatcher>
#include <QTimer>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>

#include "plan/PlanRunner.h"
#include "plan/Preset.h"
#include "util/RunControl.h"

class QComboBox;
class QLineEdit;
class QSpinBox;
class QPushButton;
class QProgressBar;
class QLabel;
class QTableWidget;

namespace ade::ui {

class ScalingPlot;

class SweepView : public QWidget {
    Q_OBJECT
  public:
    explicit SweepView(QWidget* parent = nullptr);
    ~SweepView() override;

    void setPlan(const ade::Plan& plan);            // a preset with a sweep: its runs and grid
    void setFormConfig(const ade::Config& config);  // used when no sweep preset is loaded
    void clearPlan();
    bool start();  // false (with a message) when the grid is invalid
    void cancelAndWait();
    bool isRunning() const { return running_; }
    const std::vector<ade::PowerLawFit>& fits() const { return fits_; }
    ScalingPlot* plot() const { return plot_; }

  signals:
    void finished();

  private:
    void selectMetric(const std::string& column);
    void fillKeys(const std::string& experiment, const std::string& current);
    void onFinished();
    void updateProgress();

    std::optional<ade::Plan> plan_;
    ade::Config formConfig_;
    QComboBox* key_ = nullptr;
    QLineEdit* values_ = nullptr;
    QSpinBox* seeds_ = nullptr;
    QSpinBox* jobs_ = nullptr;
    QComboBox* metric_ = nullptr;
    QPushButton* run_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QTableWidget* table_ = nullptr;
    ScalingPlot* plot_ = nullptr;
    QFutureWatcher<std::vector<ade::RunOutcome>> watcher_;
    std::unique_ptr<ade::RunControl> control_;
    std::shared_ptr<std::atomic<int>> done_;
    QTimer poll_;
    int total_ = 0;
    bool running_ = false;
    std::string xKey_, yMetric_;
    std::vector<ade::PowerLawFit> fits_;
};

}  // namespace ade::ui
