#include "charts/FigureKnobs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace ade::ui {

namespace {

const char* const kKnobFormatNames[] = {"export.png", "export.svg", "export.pdf", "export.pgf",
                                        "export.mpl"};

}  // namespace

FigureKnobs::FigureKnobs(const FigureKnobSpec& spec, QFormLayout* form, QWidget* parent)
    : QObject(parent), offered_(spec.formats) {
    formatsRow_ = new QHBoxLayout;
    const QString texts[] = {QStringLiteral("PNG"), QStringLiteral("SVG"), QStringLiteral("PDF"),
                             QStringLiteral("PGFPlots"), QStringLiteral("matplotlib")};
    const QString tips[] = {
        tr("A raster image (PNG scale × the size in pixels)"),
        tr("Vector graphics: scale without loss, editable in Inkscape or Illustrator"),
        tr("Vector PDF, for LaTeX \\includegraphics"),
        tr("A .tex to \\input in a LaTeX paper, with its data tables beside it: the paper's "
           "fonts, log axes, bands and legend drawn by PGFPlots"),
        tr("A Python script and its CSV (every record) that redraw the figure with matplotlib, "
           "to restyle it")};
    for (FigureFormat f : spec.formats) {
        const int i = static_cast<int>(f);
        auto* c = box_[i] = new QCheckBox(texts[i], parent);
        c->setObjectName(QLatin1String(kKnobFormatNames[i]));
        c->setToolTip(tips[i]);
        c->setChecked(std::find(spec.checked.begin(), spec.checked.end(), f) != spec.checked.end());
        connect(c, &QCheckBox::toggled, this, &FigureKnobs::changed);
        formatsRow_->addWidget(c);
    }
    formatsRow_->addStretch(1);
    form->addRow(tr("Formats"), formatsRow_);

    // The width: pixels, or a paper's column(s) in cm (the size in PDF points, the type in pt).
    auto* widthRow = new QHBoxLayout;
    widthKind_ = new QComboBox(parent);
    widthKind_->setObjectName(QStringLiteral("export.widthKind"));
    widthKind_->addItem(tr("Pixels"), 0.0);
    widthKind_->addItem(tr("One column of a two-column paper (%1 cm)").arg(kOneColumnCm), kOneColumnCm);
    widthKind_->addItem(tr("Two columns (the page, %1 cm)").arg(kTwoColumnsCm), kTwoColumnsCm);
    widthKind_->addItem(tr("Width in cm"), -1.0);
    widthCm_ = new QDoubleSpinBox(parent);
    widthCm_->setObjectName(QStringLiteral("export.widthCm"));
    widthCm_->setRange(3, 50);
    widthCm_->setDecimals(1);
    widthCm_->setValue(kOneColumnCm);
    widthCm_->setSuffix(QStringLiteral(" cm"));
    widthCm_->setEnabled(false);
    widthCm_->setToolTip(tr("The figure's width in a paper, 3 to 50 cm"));
    widthRow->addWidget(widthKind_, 1);
    widthRow->addWidget(widthCm_);
    form->addRow(tr("Width"), widthRow);
    fontPt_ = new QSpinBox(parent);
    fontPt_->setObjectName(QStringLiteral("export.fontPt"));
    fontPt_->setRange(0, 48);
    fontPt_->setSpecialValueText(tr("by size"));
    fontPt_->setSuffix(QStringLiteral(" pt"));
    fontPt_->setToolTip(tr("The labels' type size, 4 to 48 pt (the title a little larger); in a "
                           "PGFPlots figure the document's fonts at that size"));
    form->addRow(tr("Type size"), fontPt_);

    auto* size = new QHBoxLayout;
    width_ = new QSpinBox(parent);
    width_->setObjectName(QStringLiteral("export.width"));
    height_ = new QSpinBox(parent);
    height_->setObjectName(QStringLiteral("export.height"));
    width_->setRange(200, 10000);
    height_->setRange(150, 10000);
    width_->setValue(spec.size.width());
    height_->setValue(spec.size.height());
    width_->setSuffix(QStringLiteral(" px"));
    height_->setSuffix(QStringLiteral(" px"));
    scale_ = new QDoubleSpinBox(parent);
    scale_->setObjectName(QStringLiteral("export.scale"));
    scale_->setRange(0.5, 8);
    scale_->setValue(2);
    scale_->setPrefix(QString::fromUtf8("× "));
    scale_->setToolTip(
        tr("PNG pixel density: 2 gives a sharp image on slides and high-DPI screens"));
    size->addWidget(width_);
    size->addWidget(new QLabel(QString::fromUtf8("×"), parent));
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
        if (paper) {
            applyPaperWidth();
            if (fontPt_->value() == 0) fontPt_->setValue(8);
            scale_->setValue(4);
            // A column is narrow: the legend goes under the plot, in rows.
            if (legend_ && (legend_->currentData().toInt() & (Qt::AlignLeft | Qt::AlignRight)))
                legend_->setCurrentIndex(legend_->findData(int(Qt::AlignBottom)));
        }
        emit changed();
    });
    connect(widthCm_, &QDoubleSpinBox::valueChanged, this, [this] {
        if (widthKind_->currentData().toDouble() != 0) applyPaperWidth();
    });

    if (spec.styleAndLegend) {
        style_ = new QComboBox(parent);
        style_->setObjectName(QStringLiteral("export.style"));
        style_->addItem(tr("Publication (white, large fonts, thick lines)"), 1);
        style_->addItem(tr("Screen"), 0);
        form->addRow(tr("Style"), style_);
        legend_ = new QComboBox(parent);
        legend_->setObjectName(QStringLiteral("export.legend"));
        legend_->addItem(tr("Right"), int(Qt::AlignRight));
        legend_->addItem(tr("Bottom"), int(Qt::AlignBottom));
        legend_->addItem(tr("Top"), int(Qt::AlignTop));
        legend_->addItem(tr("Left"), int(Qt::AlignLeft));
        legend_->addItem(tr("Hidden"), 0);
        form->addRow(tr("Legend"), legend_);
    }
    title_ = new QLineEdit(parent);
    title_->setObjectName(QStringLiteral("export.title"));
    title_->setPlaceholderText(spec.titleHint.isEmpty() ? tr("the view's own title") : spec.titleHint);
    form->addRow(tr("Title"), title_);
    if (spec.axisLabels) {
        xLabel_ = new QLineEdit(parent);
        xLabel_->setObjectName(QStringLiteral("export.xLabel"));
        xLabel_->setPlaceholderText(spec.xHint.isEmpty() ? tr("the view's own") : spec.xHint);
        yLabel_ = new QLineEdit(parent);
        yLabel_->setObjectName(QStringLiteral("export.yLabel"));
        yLabel_->setPlaceholderText(spec.yHint.isEmpty() ? tr("the view's own") : spec.yHint);
        form->addRow(tr("x label"), xLabel_);
        form->addRow(tr("y label"), yLabel_);
    }
    for (QAbstractSpinBox* s : std::initializer_list<QAbstractSpinBox*>{widthCm_, fontPt_, width_, height_, scale_})
        connect(s, &QAbstractSpinBox::editingFinished, this, &FigureKnobs::changed);
}

std::vector<FigureFormat> FigureKnobs::formats() const {
    std::vector<FigureFormat> f;
    for (FigureFormat o : offered_)
        if (box_[static_cast<int>(o)]->isChecked()) f.push_back(o);
    return f;
}

FigureOptions FigureKnobs::options(FigureOptions o) const {
    o.size = QSize(width_->value(), height_->value());
    o.scale = scale_->value();
    if (style_) o.style = style_->currentData().toInt() ? FigureStyle::Publication : FigureStyle::Screen;
    if (legend_) o.legend = Qt::Alignment(legend_->currentData().toInt());
    o.title = title_->text().trimmed();
    if (xLabel_) o.xLabel = xLabel_->text().trimmed();
    if (yLabel_) o.yLabel = yLabel_->text().trimmed();
    o.fontPt = fontPt_->value();
    o.widthCm = widthKind_->currentData().toDouble() != 0 ? widthCm_->value() : 0.0;
    return o;
}

QString FigureKnobs::problem(bool formatNeeded) const {
    // A spin box keeps its last valid value while its text is not one (a width of "2" in a
    // 3..50 cm box): the text the user sees is what is refused, by name and range.
    if (widthKind_->currentData().toDouble() < 0 && !widthCm_->hasAcceptableInput())
        return tr("Width: \"%1\" is not a width in cm from 3 to 50.").arg(widthCm_->text());
    if (!fontPt_->hasAcceptableInput() || (fontPt_->value() > 0 && fontPt_->value() < 4))
        return tr("Type size: \"%1\" is not a size from 4 to 48 pt (or 0, by size).").arg(fontPt_->text());
    if (widthKind_->currentData().toDouble() == 0 && !width_->hasAcceptableInput())
        return tr("Size: \"%1\" is not a width from 200 to 10000 px.").arg(width_->text());
    if (!height_->hasAcceptableInput())
        return tr("Size: \"%1\" is not a height from 150 to 10000 px.").arg(height_->text());
    if (!scale_->hasAcceptableInput())
        return tr("PNG scale: \"%1\" is not a scale from 0.5 to 8.").arg(scale_->text());
    if (formatNeeded && formats().empty()) return tr("Choose at least one format.");
    return {};
}

void FigureKnobs::applyPaperWidth() {
    FigureOptions o;
    ui::applyPaperWidth(o, widthCm_->value());
    width_->setValue(std::max(width_->minimum(), o.size.width()));
    height_->setValue(std::max(height_->minimum(), o.size.height()));
}

QLineEdit* addFolderRow(QFormLayout* form, const QString& folder, QWidget* parent) {
    auto* row = new QHBoxLayout;
    auto* field = new QLineEdit(folder, parent);
    field->setObjectName(QStringLiteral("export.folder"));
    auto* browse = new QPushButton(QObject::tr("Browse…"), parent);
    QObject::connect(browse, &QPushButton::clicked, field, [field, parent] {
        const QString d = QFileDialog::getExistingDirectory(parent, QObject::tr("Export to folder"),
                                                            field->text());
        if (!d.isEmpty()) field->setText(d);
    });
    row->addWidget(field, 1);
    row->addWidget(browse);
    form->addRow(QObject::tr("Folder"), row);
    return field;
}

}  // namespace ade::ui
