#pragma once
// File > Export charts…: which chart (or all), formats, pixel size and scale, screen or
// publication style, editable title and axis labels, legend position, destination folder.
#include <QDialog>

#include "charts/FigureRenderer.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;
class QDoubleSpinBox;

namespace ade::ui {

class ExportDialog : public QDialog {
    Q_OBJECT
  public:
    // `charts`: the charts to offer (figureCharts of the store), besides "All charts".
    ExportDialog(const QString& folder, const std::vector<ChartSpec>& charts, bool logY, bool logX,
                 double smoothing, QWidget* parent = nullptr);

    QString chartId() const;  // "" = all charts
    std::vector<FigureFormat> formats() const;
    FigureOptions options() const;
    QString folder() const;

  private:
    QComboBox* chart_;
    QCheckBox *png_, *svg_, *pdf_;
    QSpinBox *width_, *height_;
    QDoubleSpinBox* scale_;
    QComboBox *style_, *legend_;
    QLineEdit *title_, *xLabel_, *yLabel_, *folder_;
    bool logY_, logX_;
    double smoothing_;
};

}  // namespace ade::ui
