#pragma once
// A compact, clickable legend under a chart: one entry per metric (line style, and colour when
// one run is shown) and, when several runs are overlaid, one colour entry per run. Clicking an
// entry hides or shows those curves. Entries flow onto as many lines as the width needs, so a
// label is never cut (only one wider than the whole chart is shortened, at its end). Plain
// widgets: no dependency on the chart library.
#include <QPen>
#include <QWidget>

#include <vector>

class QToolButton;

namespace ade::ui {

struct LegendEntry {
    QString key;          // "m:<metric column>" or "r:<run id>"
    QString label;        // shown text
    QString tip;          // what the entry is (a metric's meaning); shown in its tooltip
    QPen pen;             // sample line (metrics) or colour (runs)
    bool swatch = false;  // a run: a filled square, or a line in the pen's style when not solid
    bool band = false;    // a run's mean over seeds (with swatch): a line over a light band
    bool hidden = false;
    bool notation = false;  // the label is a metric's notation: "_x" drawn as a subscript
};

bool sameLegendEntry(const LegendEntry& a, const LegendEntry& b);

class LegendBar : public QWidget {
    Q_OBJECT
  public:
    explicit LegendBar(QWidget* parent = nullptr);
    void setEntries(const std::vector<LegendEntry>& entries);  // no-op when unchanged
    const std::vector<LegendEntry>& entries() const { return entries_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    int lineHeight() const;  // one line of entries (a cap on the height shows whole lines)

  signals:
    void toggled(const QString& key);

  protected:
    void changeEvent(QEvent* e) override;  // rebuild the buttons on font changes
    void resizeEvent(QResizeEvent* e) override;

  private:
    // Places the buttons for `width`; returns the height they take (only measures when !apply).
    int flow(int width, bool apply) const;

    std::vector<LegendEntry> entries_;
    std::vector<QToolButton*> buttons_;  // in entries_ order
};

}  // namespace ade::ui
