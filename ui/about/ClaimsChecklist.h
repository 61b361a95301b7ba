#pragma once
// The loaded preset's claims as a checklist: per claim a status mark that does not rely on
// colour (◌ pending, ✓ holds, ✗ does not hold, – unavailable, with the word), the claim in the
// papers' language and the measured number with its spread over seeds. A claim that does not
// hold stays in the list, marked so. Shown above the About text, and under the charts in
// presentation mode (large type).
#include <QFrame>

#include <vector>

#include "claims/Claims.h"

class QLabel;
class QVBoxLayout;

namespace ade::ui {

// "✓", "✗", "◌" or "–".
QString claimMark(ade::ClaimStatus s);
// One claim's line as rich text: mark and word, the claim, the measured number (or why it
// cannot be measured yet). `compact` (presentation mode): one paragraph, the number without
// its details.
QString claimHtml(const ade::ClaimSpec& claim, const ade::ClaimResult& result, bool compact);

class ClaimsChecklist : public QFrame {
    Q_OBJECT
  public:
    explicit ClaimsChecklist(QWidget* parent = nullptr);
    // Hidden while there are no claims. Labels change only when their text does.
    void setClaims(const std::vector<ade::ClaimSpec>& claims,
                   const std::vector<ade::ClaimResult>& results);
    void setLarge(bool large);  // presentation mode: larger type, one compact line per claim
    // A lesson's highlighted claim (by id; empty: none): marked "▶" and bold, so the class
    // sees which line the teacher means without relying on colour.
    void setHighlighted(const QString& id);
    // Show only the highlighted claim while there is one (presentation mode: the lesson's
    // caption needs the room; the About panel's list keeps every claim).
    void setOnlyHighlighted(bool only);
    QString highlighted() const { return highlighted_; }
    bool hasClaims() const { return !rows_.empty(); }
    QString rowText(int i) const;  // the i-th claim's text as shown (tests)
    int rowCount() const { return static_cast<int>(rows_.size()); }

  private:
    QLabel* title_ = nullptr;
    QVBoxLayout* rowsLayout_ = nullptr;
    std::vector<QLabel*> rows_;
    std::vector<ade::ClaimSpec> claims_;
    std::vector<ade::ClaimResult> results_;
    bool large_ = false;
    QString highlighted_;
    bool onlyHighlighted_ = false;
    void render();
};

}  // namespace ade::ui
