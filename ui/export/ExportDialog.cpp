#include "export/ExportDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace ade::ui {

ExportDialog::ExportDialog(const QString& folder, const std::vector<ChartSpec>& charts, bool logY,
                           bool logX, double smoothing, QWidget* parent)
    : QDialog(parent), logY_(logY), logX_(logX), smoothing_(smoothing) {
    setWindowTitle(tr("Export charts"));
    auto* form = new QFormLayout(this);
    chart_ = new QComboBox(this);
    chart_->setObjectName("export.chart");
    chart_->addItem(tr("All charts"), QString());
    for (const auto& spec : charts)
        chart_->addItem(spec.title, spec.id);
    form->addRow(tr("Chart"), chart_);

    auto* fmts = new QHBoxLayout;
    png_ = new QCheckBox("PNG", this);
    svg_ = new QCheckBox("SVG", this);
    pdf_ = new QCheckBox("PDF", this);
    pgf_ = new QCheckBox("PGFPlots", this);
    mpl_ = new QCheckBox("matplotlib", this);
    png_->setChecked(true);
    svg_->setChecked(true);
    pdf_->setChecked(true);
    pgf_->setObjectName("export.pgf");
    mpl_->setObjectName("export.mpl");
    pgf_->setToolTip(tr("A .tex to \\input in a LaTeX paper, with its data tables beside it: "
                        "the paper's fonts, log axes, bands and legend drawn by PGFPlots"));
    mpl_->setToolTip(tr("A Python script and its CSV (every record) that redraw the chart with "
                        "matplotlib, to restyle it"));
    svg_->setToolTip(
        tr("Vector graphics: scale without loss, editable in Inkscape or Illustrator"));
    pdf_->setToolTip(tr("Vector PDF, one page per chart, for LaTeX \\includegraphics"));
    for (auto* c : {png_, svg_, pdf_, pgf_, mpl_})
        fmts->addWidget(c);
    form->addRow(tr("Formats"), fmts);

    // The width: pixels, or a paper's column(s) in cm (the size in PDF points, the type in pt).
    auto* widthRow = new QHBoxLayout;
    widthKind_ = new QComboBox(this);
    widthKind_->setObjectName("export.widthKind");
    widthKind_->addItem(tr("Pixels"), 0.0);
    widthKind_->addItem(tr("One column of a two-column paper (%1 cm)").arg(kOneColumnCm), kOneColumnCm);
    widthKind_->addItem(tr("Two columns (the page, %1 cm)").arg(kTwoColumnsCm), kTwoColumnsCm);
    widthKind_->addItem(tr("Width in cm"), -1.0);
    widthCm_ = new QDoubleSpinBox(this);
    widthCm_->setObjectName("export.widthCm");
    widthCm_->setRange(3, 50);
    widthCm_->setDecimals(1);
    widthCm_->setValue(kOneColumnCm);
    widthCm_->setSuffix(" cm");
    widthCm_->setEnabled(false);
    widthRow->addWidget(widthKind_, 1);
    widthRow->addWidget(widthCm_);
    form->addRow(tr("Width"), widthRow);
    fontPt_ = new QSpinBox(this);
    fontPt_->setObjectName("export.fontPt");
    fontPt_->setRange(0, 48);
    fontPt_->setSpecialValueText(tr("by size"));
    fontPt_->setSuffix(" pt");
    fontPt_->setToolTip(tr("The labels' type size (the title a third larger); PGFPlots figures "
                           "take the document's fonts"));
    form->addRow(tr("Type size"), fontPt_);

    auto* size = new QHBoxLayout;
    width_ = new QSpinBox(this);
    width_->setObjectName("export.width");
    height_ = new QSpinBox(this);
    width_->setRange(200, 10000);
    height_->setRange(150, 10000);
    width_->setValue(1200);
    height_->setValue(800);
    width_->setSuffix(" px");
    height_->setSuffix(" px");
    scale_ = new QDoubleSpinBox(this);
    scale_->setRange(0.5, 8);
    scale_->setValue(2);
    scale_->setPrefix(QString::fromUtf8("× "));
    scale_->setToolTip(
        tr("PNG pixel density: 2 gives a sharp image on slides and high-DPI screens"));
    size->addWidget(width_);
    size->addWidget(new QLabel(QString::fromUtf8("×")));
    size->addWidget(height_);
    size->addWidget(scale_);
    form->addRow(tr("Size"), size);
    // A paper's width sets the size in points (height two thirds of it), 8 pt type and a scale
    // of 4 (about 300 dpi for the PNG); pixels give the fields back.
    connect(widthKind_, &QComboBox::currentIndexChanged, this, [this] {
        const double cm = widthKind_->currentData().toDouble();
        widthCm_->setEnabled(cm < 0);
        if (cm > 0) widthCm_->setValue(cm);
        const bool paper = cm != 0;
        width_->setEnabled(!paper);
        if (!paper) return;
        applyPaperWidth();
        if (fontPt_->value() == 0) fontPt_->setValue(8);
        scale_->setValue(4);
        // A column is narrow: the legend goes under the plot, in rows.
        if (legend_->currentData().toInt() & (Qt::AlignLeft | Qt::AlignRight))
            legend_->setCurrentIndex(legend_->findData(int(Qt::AlignBottom)));
    });
    connect(widthCm_, &QDoubleSpinBox::valueChanged, this, [this] {
        if (widthKind_->currentData().toDouble() != 0) applyPaperWidth();
    });

    style_ = new QComboBox(this);
    style_->addItem(tr("Publication (white, large fonts, thick lines)"), 1);
    style_->addItem(tr("Screen"), 0);
    form->addRow(tr("Style"), style_);
    legend_ = new QComboBox(this);
    legend_->setObjectName("export.legend");
    legend_->addItem(tr("Right"), int(Qt::AlignRight));
    legend_->addItem(tr("Bottom"), int(Qt::AlignBottom));
    legend_->addItem(tr("Top"), int(Qt::AlignTop));
    legend_->addItem(tr("Left"), int(Qt::AlignLeft));
    legend_->addItem(tr("Hidden"), 0);
    form->addRow(tr("Legend"), legend_);
    title_ = new QLineEdit(this);
    title_->setPlaceholderText(tr("the chart's own title"));
    xLabel_ = new QLineEdit(this);
    xLabel_->setPlaceholderText(tr("iteration"));
    yLabel_ = new QLineEdit(this);
    yLabel_->setPlaceholderText(tr("the metric names"));
    form->addRow(tr("Title"), title_);
    form->addRow(tr("x label"), xLabel_);
    form->addRow(tr("y label"), yLabel_);

    auto* dest = new QHBoxLayout;
    folder_ = new QLineEdit(folder, this);
    folder_->setObjectName("export.folder");
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d =
            QFileDialog::getExistingDirectory(this, tr("Export to folder"), folder_->text());
        if (!d.isEmpty()) folder_->setText(d);
    });
    dest->addWidget(folder_, 1);
    dest->addWidget(browse);
    form->addRow(tr("Folder"), dest);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto validate = [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)
            ->setEnabled(!formats().empty() && !folder_->text().trimmed().isEmpty());
    };
    for (auto* c : {png_, svg_, pdf_, pgf_, mpl_})
        connect(c, &QCheckBox::toggled, this, validate);
    connect(folder_, &QLineEdit::textChanged, this, validate);
    form->addRow(buttons);
}

QString ExportDialog::chartId() const {
    return chart_->currentData().toString();
}

std::vector<FigureFormat> ExportDialog::formats() const {
    std::vector<FigureFormat> f;
    if (png_->isChecked()) f.push_back(FigureFormat::Png);
    if (svg_->isChecked()) f.push_back(FigureFormat::Svg);
    if (pdf_->isChecked()) f.push_back(FigureFormat::Pdf);
    if (pgf_->isChecked()) f.push_back(FigureFormat::Pgf);
    if (mpl_->isChecked()) f.push_back(FigureFormat::Mpl);
    return f;
}

FigureOptions ExportDialog::options() const {
    FigureOptions o;
    o.size = QSize(width_->value(), height_->value());
    o.scale = scale_->value();
    o.style = style_->currentData().toInt() ? FigureStyle::Publication : FigureStyle::Screen;
    o.legend = Qt::Alignment(legend_->currentData().toInt());
    o.title = title_->text();
    o.xLabel = xLabel_->text();
    o.yLabel = yLabel_->text();
    o.logY = logY_;
    o.logX = logX_;
    o.smoothing = smoothing_;
    o.fontPt = fontPt_->value();
    if (widthKind_->currentData().toDouble() != 0) o.widthCm = widthCm_->value();
    return o;
}

void ExportDialog::applyPaperWidth() {
    const int w = pointsOfCm(widthCm_->value());
    width_->setValue(std::max(width_->minimum(), w));
    height_->setValue(std::max(height_->minimum(), w * 2 / 3));
}

QString ExportDialog::folder() const {
    return folder_->text().trimmed();
}

}  // namespace ade::ui
