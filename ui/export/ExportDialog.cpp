#include "export/ExportDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

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

    FigureKnobSpec spec;
    spec.titleHint = tr("the chart's own title");
    spec.xHint = tr("iteration");
    spec.yHint = tr("the metric names");
    knobs_ = new FigureKnobs(spec, form, this);

    folder_ = addFolderRow(form, folder, this);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        // A knob whose text is no value in its range: said, and nothing exported.
        const QString problem = knobs_->problem();
        if (!problem.isEmpty()) {
            QMessageBox::warning(this, windowTitle(), problem);
            return;
        }
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto validate = [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)
            ->setEnabled(!formats().empty() && !folder_->text().trimmed().isEmpty());
    };
    connect(knobs_, &FigureKnobs::changed, this, validate);
    connect(folder_, &QLineEdit::textChanged, this, validate);
    form->addRow(buttons);
}

QString ExportDialog::chartId() const {
    return chart_->currentData().toString();
}

std::vector<FigureFormat> ExportDialog::formats() const {
    return knobs_->formats();
}

FigureOptions ExportDialog::options() const {
    FigureOptions o;
    o.logY = logY_;
    o.logX = logX_;
    o.smoothing = smoothing_;
    return knobs_->options(o);
}

QString ExportDialog::folder() const {
    return folder_->text().trimmed();
}

}  // namespace ade::ui
