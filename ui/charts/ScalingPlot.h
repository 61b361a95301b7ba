#pragma once
// Log-log plot of a scaling law: measured points per series, the fitted power law, and
// reference slopes through the first point. Behind this interface like ChartPanel.
#include <QWidget>

#include <vector>

namespace ade::ui {

struct ScalingSeries {
    QString name;
    std::vector<std::pair<double, double>> points;  // (x, y), y > 0
    double slope = 0, intercept = 0;                // ln y = intercept + slope ln x
    bool fitted = false;
};

class ScalingPlot : public QWidget {
    Q_OBJECT
  public:
    using QWidget::QWidget;
    virtual void setData(const std::vector<ScalingSeries>& series, const QString& xLabel,
                         const QString& yLabel, const std::vector<double>& referenceSlopes) = 0;
    virtual int seriesCount() const = 0;
};

ScalingPlot* createScalingPlot(QWidget* parent = nullptr);

}  // namespace ade::ui
