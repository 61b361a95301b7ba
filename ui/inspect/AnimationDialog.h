#pragma once
// File > Export animation…: the focused run's snapshots as a film for a slide. The dialog
// chooses the panels (charts, matrices, attention, factor plane), the format (MP4, animated GIF,
// PNG sequence), the frames per second, the frame size and the file; the frames come from animationFrameRenderer (ChartFrames.h).
#include <QDialog>

#include "inspect/AnimationExport.h"
#include "inspect/ChartFrames.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace ade::ui {

class Shell;
class Workspace;

class AnimationDialog : public QDialog {
    Q_OBJECT
  public:
    AnimationDialog(const QString& runName, int frames, QWidget* parent = nullptr);
    AnimationOptions options() const;
    // The panels the frames show (the run's id is the caller's).
    AnimationPanels panels() const;
    void setFile(const QString& file);

  private:
    void formatChanged();
    QComboBox* format_ = nullptr;
    QSpinBox* fps_ = nullptr;
    QSpinBox* width_ = nullptr;
    QSpinBox* height_ = nullptr;
    QLineEdit* file_ = nullptr;
    QCheckBox* charts_ = nullptr;
    std::vector<std::pair<InsidePanel, QCheckBox*>> insideBoxes_;  // insidePanels()' order
};

// Asks for the options and writes the animation of the workspace's focused run, with a
// progress dialog; messages in the shell's status bar or a message box.
void exportAnimationOfFocusedRun(Workspace& workspace, Shell& shell);

}  // namespace ade::ui
