#pragma once
// A compact, clickable legend row for a chart: one entry per metric (line style, and colour when
// one run is shown) and, when several runs are overlaid, one colour entry per run. Clicking an
// entry hides or shows those curves. Plain widgets: no dependency on the chart library.
#include <QPen>
#include <QWidget>

#include <vector>

class QHBoxLayout;

namespace ade::ui {

struct LegendEntry {
    QString key;          // "m:<metric>" or "r:<run id>"
    QString label;        // shown text
    QPen pen;             // sample line (metrics) or colour (runs)
    bool swatch = false;  // draw a filled square instead of a line
    bool hidden = false;
};

class LegendBar : public QWidget {
    Q_OBJECT
  public:
    explicit LegendBar(QWidget* parent = nullptr);
    void setEntries(const std::vector<LegendEntry>& entries);  // no-op when unchanged
    const std::vector<LegendEntry>& entries() const { return entries_; }

  signals:
    void toggled(const QString& key);

  protected:
    void changeEvent(QEvent* e) override;  // rebuild the buttons on font changes

  private:
    std::vector<LegendEntry> entries_;
    QHBoxLayout* metrics_ = nullptr;  // first row: metrics
    QHBoxLayout* runs_ = nullptr;     // second row: runs, when several are overlaid
};

}  // namespace ade::ui
