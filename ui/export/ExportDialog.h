#pragma once
// File > Export charts…: which chart (or all), the figure knobs every export dialog shares
// (charts/FigureKnobs: formats PNG, SVG, PDF, PGFPlots, matplotlib; the width in pixels or
// centimetres, one or two columns of a two-column paper, or any; scale, type size, screen or
// publication style, editable title and axis labels, legend position), destination folder.
#include <QDialog>

#include "charts/FigureKnobs.h"
#include "charts/FigureRenderer.h"

class QComboBox;
class QLineEdit;

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

    // The widths of a two-column paper (IEEE / ACM / NeurIPS-like: a column 8.5 cm, the page's
    // text 17.8 cm) and the pixels (PDF points) of a width in cm.
    static constexpr double kOneColumnCm = ui::kOneColumnCm, kTwoColumnsCm = ui::kTwoColumnsCm;
    static int pointsOfCm(double cm) { return ui::pointsOfCm(cm); }

  private:
    QComboBox* chart_;
    FigureKnobs* knobs_;
    QLineEdit* folder_;
    bool logY_, logX_;
    double smoothing_;
};

}  // namespace ade::ui
