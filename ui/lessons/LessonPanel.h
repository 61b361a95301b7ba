#pragma once
// The caption of a lesson's step, under the charts: the lesson and "step k of N", the step's
// title and caption in large type (legible from the back of a lecture hall at 1024x768), what
// the runs are doing (paused at iteration N, waiting for a claim), and Back / Next / Leave.
#include <QFrame>

class QLabel;
class QPushButton;
class QScrollArea;

namespace ade::ui {

class LessonPanel : public QFrame {
    Q_OBJECT
  public:
    explicit LessonPanel(QWidget* parent = nullptr);

    void showStep(const QString& lesson, int index, int count, const QString& title,
                  const QString& caption);
    void setStatus(const QString& text);  // "" hides the line
    void setLarge(bool on);               // presentation mode: larger type
    QString title() const;
    QString caption() const;
    QString status() const;
    QString position() const;  // "Lesson · step k of N"

  signals:
    void backClicked();
    void nextClicked();
    void leaveClicked();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void applyFonts();
    // The caption's height: its whole text, at most a fifth of the window's height (then it
    // scrolls), so that a long caption never pushes the status line and the window's bottom
    // off a 1024x768 screen.
    void fitCaption();
    QLabel* position_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* caption_ = nullptr;
    QScrollArea* captionScroll_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* back_ = nullptr;
    QPushButton* next_ = nullptr;
    QPushButton* leave_ = nullptr;
    bool large_ = false;
};

}  // namespace ade::ui
