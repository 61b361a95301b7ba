#pragma once
// The parameter panel, generated from ade::ParamRegistry: one editor per key that applies to the
// selected experiment, grouped (run, data, model, init, optimizer, regularizer), in a scroll area
// of its own under a fixed header.
//
// Forms that cannot surprise:
// - Numbers are typed into line edits and validated by ade::Config as they are typed: a value
//   out of range is refused (the field is outlined, the range is given in plain numbers), never
//   clipped or changed. Up/Down step a focused number (integers by 1, log-scale reals x2 / /2).
// - The mouse wheel scrolls the panel. It changes a field only when the user clicked into it
//   and it still has the focus, and not while the panel is being scrolled: a gesture that began
//   on the panel keeps scrolling it when a focused field moves under the pointer (until the
//   pointer moves away and a moment passes, or a click).
// - Space never types into a number, a choice or a check box: it goes to the window (Play /
//   Pause). Only free-text fields (Same start as) take a typed space.
// - Knobs the current settings do not use (Adam's betas with gd, ...) are disabled, with the
//   reason in their tooltip (ParamSpec::relevantWhen, declared in core).
// - Problems are shown in the fixed header line (never inline: the fields do not move), the
//   offending field is outlined and "Show" scrolls to it. The header's second line shows the
//   time estimate the window computes (setEstimate).
#include <QElapsedTimer>
#include <QPointF>
#include <QPointer>
#include <QWidget>

#include <map>
#include <optional>
#include <string>

#include "config/Config.h"

class QLabel;
class QScrollArea;
class QVBoxLayout;
class QWheelEvent;

namespace ade {
struct ParamSpec;
}

namespace ade::ui {

class ParamForm : public QWidget {
    Q_OBJECT
  public:
    explicit ParamForm(QWidget* parent = nullptr);

    // The config made of every valid value (invalid fields keep their last valid value).
    const ade::Config& config() const { return config_; }
    bool isValid() const { return errors().isEmpty(); }
    QStringList errors() const;  // per-field and cross-key messages, the form's order
    // The key of the first problem ("" when valid): the field "Show" goes to.
    QString firstProblemKey() const;
    void setConfig(const ade::Config& config);  // fills every editor, rebuilds on experiment
    void resetToDefaults();                     // every key at its default, same experiment
    // Scrolls the panel to a key's editor and gives it the focus.
    void showField(const QString& key);
    // The editor of a key (objectName = key), for tests and focus handling.
    QWidget* editor(const QString& key) const;
    QScrollArea* scrollArea() const { return scroll_; }
    // Completion list for a text key (e.g. init_from: the names of the runs in the list).
    void setSuggestions(const QString& key, const QStringList& values);
    // The header's time-estimate line: `text` (plain; cut with "…" to the panel's width, whole
    // in the tooltip) and after it `link` (rich text, never cut: the link "measure" emits
    // measureRequested), with the tooltip's explanation.
    void setEstimate(const QString& text, const QString& link = {}, const QString& tooltip = {});
    QString estimateText() const { return estimateText_; }  // the whole text, uncut

  signals:
    void validityChanged(bool valid);
    void configChanged();
    void measureRequested();  // the estimate line's "measure" link

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    struct Field {
        const ade::ParamSpec* spec = nullptr;
        QWidget* editor = nullptr;
        QLabel* label = nullptr;
        QString tip;      // the spec's explanation and range
        QString message;  // why the typed value was refused ("" = valid)
    };
    void rebuild();
    QWidget* makeEditor(Field& f);
    void loadEditor(Field& f);
    void commit(const std::string& key, const QString& text);
    void refreshValidity();
    void refreshField(Field& f, const QString& crossMessage);
    void fitHeader();  // the header's two lines cut to the panel's width, never wrapped over
    bool stepField(QWidget* editor, int steps);  // Up/Down and the focused wheel
    bool panelHasTheWheel(const QWheelEvent& wheel) const;  // a panel gesture goes on
    void scrollPanel(QWheelEvent* wheel);
    void forgetClickOnFocusChange(QWidget* now);

    ade::Config config_;
    std::map<std::string, Field> fields_;
    std::vector<std::string> order_;  // keys in the form's order
    QScrollArea* scroll_ = nullptr;
    QWidget* body_ = nullptr;
    QLabel* problems_ = nullptr;
    QLabel* estimate_ = nullptr;
    QString problemLink_, problemText_, problemMore_;  // the first problem, in three parts
    QString estimateText_, estimateLink_;
    QPointer<QWidget> clickedField_;        // the field the user clicked into, while focused
    std::optional<QPointF> panelWheelAt_;   // where the panel's last notch was (global)
    QElapsedTimer panelWheelClock_;         // since that notch
    bool lastValid_ = true;
    bool loading_ = false;
};

}  // namespace ade::ui
