#pragma once
// The "About this experiment" dock's contents: the loaded preset's claims, checked live
// (ClaimsMonitor), as a checklist above the text (the preset's explanation and the experiment's
// formulas). In presentation mode the docks are hidden: a second, large checklist goes under the
// charts (presentationChecklist(), which the window hands to ChartArea::setFooter).
#include <QWidget>

#include <string>

class QScrollArea;
class QSplitter;
class QTextBrowser;

namespace ade::ui {

class ClaimsChecklist;
class ClaimsMonitor;

class AboutPanel : public QWidget {
    Q_OBJECT
  public:
    explicit AboutPanel(ClaimsMonitor* claims, QWidget* parent = nullptr);
    ~AboutPanel() override;
    // The experiment's text, with the preset's name, description and explanation when one is
    // loaded (empty strings: none).
    void showAbout(const std::string& experiment, const QString& preset = {},
                   const QString& description = {}, const QString& about = {});
    ClaimsChecklist* checklist() const { return checklist_; }
    // Not a child of the panel: the window puts it under the charts (its owner from then on).
    ClaimsChecklist* presentationChecklist() const { return presentChecklist_; }
    QTextBrowser* text() const { return text_; }
    // Presentation mode shows the large checklist under the charts (when there are claims).
    void setPresentation(bool on);
    // The claim a lesson step points at, marked in both checklists.
    void setHighlighted(const QString& id);

  private:
    ClaimsMonitor* claims_;
    ClaimsChecklist* checklist_;
    QScrollArea* claimsScroll_ = nullptr;  // the checklist scrolls in a short dock
    QSplitter* split_ = nullptr;           // claims above, the experiment's text below
    ClaimsChecklist* presentChecklist_;
    QTextBrowser* text_;
    bool presentation_ = false;
};

}  // namespace ade::ui
