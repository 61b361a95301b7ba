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
    png_->setChecked(true);
    svg_->setChecked(true);
    pdf_->setChecked(true);
    svg_->setToolTip(
        tr("Vector graphics: scale without loss, editable in Inkscape or Illustrator"));
    pdf_->setToolTip(tr("Vector PDF, one page per chart, for LaTeX \\includegraphics"));
    for (auto* c : {png_, svg_, pdf_})
        fmts->addWidget(c);
    form->addRow(tr("Formats"), fmts);

    auto* size = new QHBoxLayout;
    width_ = new QSpinBox(this);
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

    style_ = new QComboBox(this);
    style_->addItem(tr("Publication (white, large fonts, thick lines)"), 1);
    style_->addItem(tr("Screen"), 0);
    form->addRow(tr("Style"), style_);
    legend_ = new QComboBox(this);
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
            ->setEnabled((png_->isChecked() || svg_->isChecked() || pdf_->isChecked()) &&
                         !folder_->text().trimmed().isEmpty());
    };
    for (auto* c : {png_, svg_, pdf_})
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
    return o;
}

QString ExportDialog::folder() const {
    return folder_->text().trimmed();
}

}  // namespace ade::ui
