#pragma once
// The Export… dialog of one view (an inside view's panel, the loss landscape, a sweep view): the
// knobs every export dialog shares (FigureKnobs: the formats the view supports, width in pixels
// or cm / columns of a two-column paper, type size, title, axis labels where the view has axes),
// the folder and the file name (without suffix: one file per format, <name>.png, <name>.tex, …),
// and files of the view's own (a sweep's table as CSV). Export checks the knobs first: a bad
// value is said in the dialog and nothing is written; then it calls the view's writer for each
// format, and stays open with the error when one fails. It shows the files written.
#include <QDialog>
#include <QStringList>

#include <functional>
#include <vector>

#include "charts/FigureKnobs.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace ade::ui {

class FigureExportDialog : public QDialog {
    Q_OBJECT
  public:
    // Writes the view as `format` at `path` with `options`; false with `error`.
    using Writer = std::function<bool(FigureFormat format, const QString& path,
                                      const FigureOptions& options, QString* error)>;
    // Writes one of the view's own files (the table as CSV) at `path`; false with `error`.
    using FileWriter = std::function<bool(const QString& path, QString* error)>;

    FigureExportDialog(const QString& title, const FigureKnobSpec& spec, const QString& folder,
                       const QString& name, Writer writer, QWidget* parent = nullptr);

    // A file of the view's own beside the formats: a box `text` (object name `objectName`)
    // that writes <name>.<suffix> through `writer`.
    void addOwnFile(const QString& text, const QString& objectName, const QString& suffix,
                    bool checked, FileWriter writer);
    // `base`'s fields the knobs do not set (metadata, log axes) go into every file.
    void setBaseOptions(const FigureOptions& base) { base_ = base; }

    FigureKnobs* knobs() const { return knobs_; }
    QStringList written() const { return written_; }  // the files of the last Export
    QString message() const;  // what the dialog says (an error, or the files written)
    // Checks the knobs, the folder and the name, then writes every checked format; false when
    // something was refused (nothing written) or a write failed (the error said).
    bool exportNow();

  private:
    FigureKnobs* knobs_;
    QLineEdit *folder_, *name_;
    QLabel* message_;
    QPushButton* exportButton_ = nullptr;
    Writer writer_;
    struct OwnFile {
        QCheckBox* box;
        QString suffix;
        FileWriter writer;
    };
    std::vector<OwnFile> own_;
    FigureOptions base_;
    QStringList written_;
};

}  // namespace ade::ui
