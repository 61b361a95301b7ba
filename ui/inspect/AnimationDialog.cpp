#include "inspect/AnimationDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QStatusBar>

#include "workspace/Shell.h"
#include "workspace/Workspace.h"
#include "runs/RunStore.h"
#include "runs/TimeCursor.h"
#include "runs/TimeTravelBar.h"
#include "inspect/ChartFrames.h"

namespace ade::ui {

AnimationDialog::AnimationDialog(const QString& runName, int frames, QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("animationDialog"));
    setWindowTitle(tr("Export animation"));
    auto* form = new QFormLayout;
    auto* what = new QLabel(tr("<b>%1</b>: %2 frames, one per parameter snapshot; each frame "
                               "shows the chosen panels at that snapshot's iteration.")
                                .arg(runName.toHtmlEscaped())
                                .arg(frames),
                            this);
    what->setWordWrap(true);
    form->addRow(what);
    auto* panelRow = new QHBoxLayout;
    auto box = [&](const QString& text, const char* name, bool on, const QString& tip) {
        auto* b = new QCheckBox(text, this);
        b->setObjectName(QLatin1String(name));
        b->setChecked(on);
        b->setToolTip(tip);
        panelRow->addWidget(b);
        return b;
    };
    charts_ = box(tr("&Charts"), "animationCharts", true,
                  tr("The charts with a cursor line at the frame's iteration"));
    for (const InsidePanelInfo& info : insidePanels())  // one box per inside panel
        insideBoxes_.emplace_back(info.panel, box(info.name, info.boxName, false, info.tip));
    panelRow->addStretch(1);
    form->addRow(tr("Panels"), panelRow);
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("animationFormat"));
    format_->addItem(tr("MP4 video (H.264)"), QStringLiteral("mp4"));
    format_->addItem(tr("Animated GIF"), QStringLiteral("gif"));
    format_->addItem(tr("PNG sequence (a folder of frames)"), QStringLiteral("png"));
    format_->setToolTip(tr("MP4 and GIF are made by the ffmpeg command from the PNG frames, "
                           "which are kept beside the film"));
    form->addRow(tr("&Format"), format_);
    fps_ = new QSpinBox(this);
    fps_->setObjectName(QStringLiteral("animationFps"));
    fps_->setRange(1, 60);
    fps_->setValue(10);
    fps_->setSuffix(tr(" frames/s"));
    form->addRow(tr("&Speed"), fps_);
    auto* sizeRow = new QHBoxLayout;
    width_ = new QSpinBox(this);
    width_->setObjectName(QStringLiteral("animationWidth"));
    width_->setRange(320, 3840);
    width_->setSingleStep(2);
    width_->setValue(1280);
    height_ = new QSpinBox(this);
    height_->setObjectName(QStringLiteral("animationHeight"));
    height_->setRange(240, 2160);
    height_->setSingleStep(2);
    height_->setValue(720);
    sizeRow->addWidget(width_);
    sizeRow->addWidget(new QLabel(QStringLiteral("×"), this));
    sizeRow->addWidget(height_);
    sizeRow->addWidget(new QLabel(tr("pixels (even: H.264 needs it)"), this));
    form->addRow(tr("Si&ze"), sizeRow);
    auto* fileRow = new QHBoxLayout;
    file_ = new QLineEdit(QDir::current().filePath(QStringLiteral("animation.mp4")), this);
    file_->setObjectName(QStringLiteral("animationFile"));
    auto* browse = new QPushButton(tr("&Browse…"), this);
    fileRow->addWidget(file_, 1);
    fileRow->addWidget(browse);
    form->addRow(tr("F&ile"), fileRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    auto* outer = new QVBoxLayout(this);
    outer->addLayout(form);
    outer->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(format_, &QComboBox::currentIndexChanged, this, [this] { formatChanged(); });
    connect(browse, &QPushButton::clicked, this, [this] {
        const bool folder = options().format == AnimationFormat::PngSequence;
        const QString f =
            folder ? QFileDialog::getExistingDirectory(this, tr("Folder of the frames"),
                                                       file_->text())
                   : QFileDialog::getSaveFileName(this, tr("Export animation"), file_->text());
        if (!f.isEmpty()) file_->setText(f);
    });
}

void AnimationDialog::formatChanged() {
    // The file name follows the format: animation.mp4, animation.gif, animation_frames/.
    const QFileInfo f(file_->text());
    const QString base = f.dir().filePath(f.suffix().isEmpty() ? f.fileName().remove("_frames")
                                                               : f.completeBaseName());
    const QString fmt = format_->currentData().toString();
    file_->setText(fmt == QLatin1String("png") ? base + QStringLiteral("_frames")
                                               : base + "." + fmt);
}

void AnimationDialog::setFile(const QString& file) {
    file_->setText(file);
}

AnimationPanels AnimationDialog::panels() const {
    AnimationPanels a;
    a.charts = charts_->isChecked();
    for (const auto& [panel, b] : insideBoxes_)
        if (b->isChecked()) a.inside.push_back(panel);
    return a;
}

AnimationOptions AnimationDialog::options() const {
    AnimationOptions o;
    parseAnimationFormat(format_->currentData().toString(), &o.format);
    o.file = file_->text();
    o.fps = fps_->value();
    o.size = QSize(width_->value(), height_->value());
    return o;
}

void exportAnimationOfFocusedRun(Workspace& workspace, Shell& shell) {
    QWidget* window = shell.dialogParent();
    const RunRecord* run = focusedRun(*workspace.store(), *workspace.timeCursor());
    if (!run || run->snapshots.empty()) {
        QMessageBox::information(
            window, QObject::tr("Export animation"),
            QObject::tr("The selected run has no parameter snapshots to animate. Runs keep them "
                        "unless snapshots = 0; sessions saved before snapshots existed have "
                        "none."));
        return;
    }
    const std::vector<long> iterations = snapshotIterations(*run);
    AnimationDialog dlg(run->name, static_cast<int>(iterations.size()), window);
    if (dlg.exec() != QDialog::Accepted) return;
    const AnimationOptions o = dlg.options();
    AnimationPanels panels = dlg.panels();
    if (panels.count() == 0) {
        QMessageBox::information(window, QObject::tr("Export animation"),
                                 QObject::tr("Choose at least one panel for the frames."));
        return;
    }
    panels.runId = run->id;
    QProgressDialog progress(QObject::tr("Rendering frames…"), QObject::tr("Cancel"), 0,
                             static_cast<int>(iterations.size()), window);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    const FrameRenderer frames = animationFrameRenderer(*workspace.store(), o.size, panels);
    const AnimationResult r = exportAnimation(frames, iterations, o, [&](int done, int) {
        progress.setValue(done);
        return !progress.wasCanceled();
    });
    progress.reset();
    if (!r.ok) {
        QMessageBox::warning(window, QObject::tr("Export animation"), r.error);
        return;
    }
    shell.showMessage(
        QObject::tr("Animation written: %1 (%2 frames, %3 s)")
            .arg(r.film.isEmpty() ? r.framesFolder : r.film)
            .arg(r.frames.size())
            .arg(r.seconds, 0, 'g', 3),
        10000);
}

}  // namespace ade::ui
