#pragma once
// The sweep tab's design form: 1–3 keys, each with its values as a list, a linear or log range
// or random samples; seeds; the number of random samples; the objective (metric, final / best /
// floor, lower or higher better); successive halving (eta, first rung's iterations); jobs.
// Keys are offered by their ParamSpec label with the key (tooltip: the ParamSpec's help), only
// those that apply to the experiment and are used under the current config (relevantWhen), so
// Adam's betas are not offered under the SDE optimiser. The metric defaults to the experiment's
// headline metric. design() checks every axis with core's parseAxis.
#include <QWidget>

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/Config.h"
#include "plan/Preset.h"
#include "sweep/Sweep.h"

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ade::ui {

class SweepForm : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kAxes = 3;
    enum Kind { List = 0, Linear, Log, Random };

    explicit SweepForm(QWidget* parent = nullptr);

    // The config the sweep starts from: its experiment and settings decide the keys offered and
    // the metrics; keys chosen before stay when still offered.
    void setBaseConfig(const ade::Config& config);
    const ade::Config& baseConfig() const { return base_; }
    // A preset's sweep (its keys, values, seeds, metric; a fit when it names fitX).
    void setPresetSweep(const ade::SweepSpec& sweep);
    // Sets axis `row` (key "" clears it) with values in the text of `kind`.
    void setAxis(int row, const std::string& key, Kind kind, const QString& values);

    // The design of the form; nullopt with `error` when an axis or the objective is invalid.
    std::optional<ade::SweepDesign> design(std::string* error) const;
    int jobs() const;
    // The tab's Run / Open folder / Open Optuna study buttons, at the right of the key rows.
    void setActionButtons(QWidget* run, QWidget* openFolder, QWidget* openStudy = nullptr);

    // An Optuna study shown (compact): the design's rows hidden (a study is read, not run), the
    // action buttons in one row, "Rank by" offering the study's objective and the metrics its
    // trials have (`metrics`: column and label, the objective first), `lowerIsBetter` its
    // direction. showDesign() gives the sweep's form back (its metrics, its rows).
    void showStudy(const std::vector<std::pair<QString, QString>>& metrics, bool lowerIsBetter);
    void showDesign();
    bool showsStudy() const { return study_; }
    QString stat() const;         // final | best | floor
    bool lowerIsBetter() const;   // the direction box

    // The keys offered (canonical), in the list's order; for tests.
    QStringList offeredKeys() const;
    QString metric() const;  // the objective's metric column
    QComboBox* keyBox(int row) const { return rows_[row].key; }
    QComboBox* kindBox(int row) const { return rows_[row].kind; }
    QLineEdit* valuesEdit(int row) const { return rows_[row].values; }
    QComboBox* metricBox() const { return metric_; }

  signals:
    void changed();
    void objectiveChanged();  // Rank by: metric, statistic or direction chosen by the user

  private:
    struct Row {
        QComboBox* key = nullptr;
        QComboBox* kind = nullptr;
        QLineEdit* values = nullptr;
        QLabel* label = nullptr;
    };
    void updateRowVisibility();  // key row r shows once row r − 1 has a key
    void fillKeys();
    void fillMetrics();
    void onKeyChosen(int row);  // proposes values around the base config's value
    void updateKind(int row);
    std::string axisText(int row) const;  // the row's values in parseAxis's text form

    ade::Config base_;
    std::string experiment_;
    std::array<Row, kAxes> rows_;
    QGridLayout* grid_ = nullptr;
    QSpinBox* seeds_ = nullptr;
    QSpinBox* samples_ = nullptr;
    QComboBox* metric_ = nullptr;
    QComboBox* stat_ = nullptr;
    QComboBox* direction_ = nullptr;
    QCheckBox* halving_ = nullptr;
    QSpinBox* eta_ = nullptr;
    QSpinBox* minIterations_ = nullptr;
    QSpinBox* jobs_ = nullptr;
    std::string fitX_, fitY_;  // a preset's power law (kept while its key stays chosen)
    bool filling_ = false;
    bool study_ = false;
    QWidget *run_ = nullptr, *openFolder_ = nullptr, *openStudy_ = nullptr;
    std::vector<QWidget*> designOnly_;  // hidden while a study is shown
};

}  // namespace ade::ui
