#include "charts/FigureExportDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace ade::ui {

FigureExportDialog::FigureExportDialog(const QString& title, const FigureKnobSpec& spec,
                                       const QString& folder, const QString& name, Writer writer,
                                       QWidget* parent)
    : QDialog(parent), writer_(std::move(writer)) {
    setObjectName(QStringLiteral("figureExportDialog"));
    setWindowTitle(title);
    auto* form = new QFormLayout(this);
    knobs_ = new FigureKnobs(spec, form, this);

    folder_ = addFolderRow(form, folder, this);
    name_ = new QLineEdit(name, this);
    name_->setObjectName(QStringLiteral("export.name"));
    name_->setToolTip(tr("The files' name without its suffix: one file per format (.png, .svg, "
                         ".pdf, .tex with its tables, .py with its CSV)"));
    form->addRow(tr("File name"), name_);

    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("export.message"));
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->hide();
    form->addRow(message_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    exportButton_ = buttons->button(QDialogButtonBox::Ok);
    exportButton_->setText(tr("Export"));
    exportButton_->setObjectName(QStringLiteral("export.ok"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (exportNow()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void FigureExportDialog::addOwnFile(const QString& text, const QString& objectName,
                                    const QString& suffix, bool checked, FileWriter writer) {
    auto* box = new QCheckBox(text, this);
    box->setObjectName(objectName);
    box->setChecked(checked);
    knobs_->formatsRow()->insertWidget(knobs_->formatsRow()->count() - 1, box);
    own_.push_back({box, suffix, std::move(writer)});
}

QString FigureExportDialog::message() const {
    return message_->text();
}

bool FigureExportDialog::exportNow() {
    written_.clear();
    auto refuse = [this](const QString& text) {
        message_->setText(text);
        message_->setStyleSheet(QStringLiteral("color: #b00020;"));
        message_->show();
        return false;
    };
    bool own = false;
    for (const OwnFile& f : own_)
        own = own || f.box->isChecked();
    const QString problem = knobs_->problem(!own);
    if (!problem.isEmpty()) return refuse(problem);
    const QString dir = folder_->text().trimmed();
    const QString name = name_->text().trimmed();
    if (dir.isEmpty()) return refuse(tr("Folder: choose where the files go."));
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\\')) ||
        name.startsWith(QLatin1Char('.')))
        return refuse(tr("File name: \"%1\" is not a file name (no folder, no leading dot).").arg(name));
    if (!QDir().mkpath(dir)) return refuse(tr("Folder: cannot create %1.").arg(QDir::toNativeSeparators(dir)));
    const FigureOptions o = knobs_->options(base_);
    QString error;
    for (FigureFormat f : knobs_->formats()) {
        const QString path = QDir(dir).filePath(name + QLatin1Char('.') + figureSuffix(f));
        if (!writer_(f, path, o, &error))
            return refuse(tr("Cannot export %1: %2").arg(QDir::toNativeSeparators(path), error));
        written_ << path;
    }
    for (const OwnFile& f : own_) {
        if (!f.box->isChecked()) continue;
        const QString path = QDir(dir).filePath(name + QLatin1Char('.') + f.suffix);
        if (!f.writer(path, &error))
            return refuse(tr("Cannot export %1: %2").arg(QDir::toNativeSeparators(path), error));
        written_ << path;
    }
    message_->setStyleSheet(QString());
    message_->setText(tr("Written: %1").arg(written_.join(QStringLiteral(", "))));
    message_->show();
    return true;
}

}  // namespace ade::ui
