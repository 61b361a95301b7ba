#pragma once
// The knobs of a figure's export, one set for every export dialog: File > Export charts…
// (ExportDialog, the live charts) and the Export… of an inside view or a sweep view
// (FigureExportDialog). The formats the view supports (PNG, SVG, PDF, PGFPlots, matplotlib),
// the width (pixels, or centimetres: one or two columns of a two-column paper, or any), the
// type size, the pixel size and PNG scale, screen or publication style and the legend's place
// (charts), the title and the axis labels (where the view has axes). `options()` turns them into
// the FigureOptions every writer takes; `problem()` says what is wrong before anything is
// written (a width or type size out of range, no format).
#include <QObject>
#include <QSize>
#include <QString>

#include <vector>

#include "base/FigureFile.h"
#include "charts/FigureRenderer.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QHBoxLayout;
class QLineEdit;
class QSpinBox;
class QWidget;

namespace ade::ui {

struct FigureKnobSpec {
    std::vector<FigureFormat> formats = {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf,
                                         FigureFormat::Pgf, FigureFormat::Mpl};
    std::vector<FigureFormat> checked = {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf};
    bool axisLabels = true;      // the view has axes: x and y label fields
    bool styleAndLegend = true;  // a chart's screen / publication style and legend position
    QSize size{1200, 800};       // the pixel size at first
    QString titleHint, xHint, yHint;  // what an empty field keeps (placeholder texts)
};

class FigureKnobs : public QObject {
    Q_OBJECT
  public:
    // Adds the knobs' rows to `form`, their widgets children of `parent`.
    FigureKnobs(const FigureKnobSpec& spec, QFormLayout* form, QWidget* parent);

    std::vector<FigureFormat> formats() const;  // the checked ones, in the spec's order
    // `base` (metadata, log axes, …) with the knobs' size, scale, style, legend, texts, type
    // size and paper width.
    FigureOptions options(FigureOptions base = {}) const;
    // What keeps the export from being written ("" when nothing): a field whose text is not a
    // value in its range, a type size under 4 pt, no format (when `formatNeeded`).
    QString problem(bool formatNeeded = true) const;
    QHBoxLayout* formatsRow() const { return formatsRow_; }  // room for a dialog's own files

  signals:
    void changed();

  private:
    void applyPaperWidth();  // the size fields from the width in cm

    QCheckBox* box_[5] = {};  // by FigureFormat
    QHBoxLayout* formatsRow_ = nullptr;
    QComboBox* widthKind_ = nullptr;  // pixels, one column, two columns, centimetres
    QSpinBox *width_ = nullptr, *height_ = nullptr, *fontPt_ = nullptr;
    QDoubleSpinBox *scale_ = nullptr, *widthCm_ = nullptr;
    QComboBox *style_ = nullptr, *legend_ = nullptr;
    QLineEdit *title_ = nullptr, *xLabel_ = nullptr, *yLabel_ = nullptr;
    std::vector<FigureFormat> offered_;
};

// The export dialogs' destination row: a folder field (object name "export.folder") with a
// Browse… button beside it, added to `form` as "Folder"; returns the field.
QLineEdit* addFolderRow(QFormLayout* form, const QString& folder, QWidget* parent);

}  // namespace ade::ui
