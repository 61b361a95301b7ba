#pragma once
// Plays a lesson (core/plan/Lesson.h) in the window: enters presentation mode, and for each
// step loads its preset or config, shows its caption under the charts, highlights what it names
// (a chart alone on the screen, a run's curves thick and the others faint, a claim's line in the
// claims checklist) and starts its runs, pausing them at the step's pause point. Next / Back
// (Page Down / Page Up as a presentation clicker sends, → / ← when no field has the focus),
// Esc leaves. The window stays usable: the teacher may change a knob and rerun; the step stays.
#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

#include "plan/Lesson.h"

class QAction;
class QMenu;

namespace ade::ui {

class LessonPanel;
class Shell;
class Workspace;

class LessonPlayer : public QObject {
    Q_OBJECT
  public:
    // Plays over `workspace`'s runs in `shell` (its charts, presentation mode, its form).
    LessonPlayer(Workspace* workspace, Shell* shell, const std::string& argv0,
                 QObject* parent = nullptr);
    ~LessonPlayer() override;

    QWidget* panel() const;
    LessonPanel* captionPanel() const { return panel_; }
    const ade::LessonLibrary& library() const { return *library_; }
    // The Lessons menu: every shipped lesson, Open lesson file…, Next, Back, Leave.
    void buildMenu(QMenu* menu);

    // Checks every step first (presets, charts, runs, claims); nothing changes on an error.
    bool play(const ade::Lesson& lesson, QString* error = nullptr);
    bool playFile(const QString& file, QString* error = nullptr);
    bool playNamed(const QString& name, QString* error = nullptr);
    bool next();
    bool back();
    bool goTo(int index);
    void leave();

    bool playing() const { return lesson_.has_value(); }
    const ade::Lesson* lesson() const { return lesson_ ? &*lesson_ : nullptr; }
    int stepIndex() const { return index_; }
    int stepCount() const;
    // The claim the current step highlights ("" = none).
    QString highlightedClaim() const { return highlightedClaim_; }
    // A claim of the current step's plan over the runs of its comparison so far (nothing when
    // the plan has no such claim); `holdsSoFar` says whether every seed's number is in range
    // on the data so far (with every run of the claim recording), as the pause waits for.
    std::optional<ade::ClaimResult> evaluateClaim(const QString& id, bool* holdsSoFar = nullptr) const;

  signals:
    void stepShown(int index);
    // The claims checklist marks this claim's line ("" = no claim highlighted).
    void claimHighlighted(const QString& id);
    void left();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void showStep();
    void stopStep();  // ends the previous step's runs or sweep (they stay in the list)
    bool continuesBatch(const ade::Plan& plan) const;
    void updateEmphasis();
    void onDrained();
    void checkPauseClaim();  // a few times a second while the runs stream
    void setPlayingActions(bool on);

    Workspace* workspace_;
    Shell* shell_;
    std::unique_ptr<ade::LessonLibrary> library_;
    LessonPanel* panel_ = nullptr;
    QAction* next_ = nullptr;
    QAction* back_ = nullptr;
    QAction* leave_ = nullptr;
    std::optional<ade::Lesson> lesson_;
    std::optional<ade::Plan> plan_;  // the current step's
    int index_ = -1;
    QString highlightedClaim_;
    bool claimPaused_ = false;  // the step's claim held once and paused the runs
    QElapsedTimer sinceClaimCheck_;
    // Esc leaves the lesson while one plays; Stop gets its key back after.
    QList<QKeySequence> stopKeys_;
    bool enteredPresentation_ = false;  // leaving the lesson leaves presentation mode too
};

}  // namespace ade::ui
