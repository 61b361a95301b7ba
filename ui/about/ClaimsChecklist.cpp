#include "about/ClaimsChecklist.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <map>

namespace ade::ui {

QString claimMark(ade::ClaimStatus s) {
    switch (s) {
        case ade::ClaimStatus::Holds:
            return QStringLiteral("✓");
        case ade::ClaimStatus::DoesNotHold:
            return QStringLiteral("✗");
        case ade::ClaimStatus::Pending:
            return QStringLiteral("◌");
        case ade::ClaimStatus::Unavailable:
            return QStringLiteral("–");
    }
    return {};
}

namespace {

// A claim's line: a word-wrapped rich-text label that remembers its height for each width it
// was asked about until its text changes. Live claims change a number three times a second;
// each change lays the checklist out, and the layout asks every row's height for a width
// several times. A plain QLabel lays its text out anew at each such question (for every row,
// changed or not: 30 ms a time with seven claims), this one once per text and width.
class ClaimRow : public QLabel {
  public:
    using QLabel::QLabel;
    void setHtml(const QString& html) {
        if (text() == html) return;  // no relayout when unchanged
        forget();
        setText(html);
    }
    int heightForWidth(int w) const override {
        if (const auto it = heights_.find(w); it != heights_.end()) return it->second;
        if (heights_.size() > 16) heights_.clear();
        return heights_[w] = QLabel::heightForWidth(w);
    }
    // Its width as laid out (or sixty characters before it is), and the height there: from
    // the remembered heights, not QLabel's search over three trial widths at every new text.
    QSize sizeHint() const override {
        const QMargins m = contentsMargins();
        const int w = width() > 0 ? width() : fontMetrics().averageCharWidth() * 60 + m.left() + m.right();
        return QSize(w, heightForWidth(w));
    }
    // A wrapped line's least width is its longest word; a row never asks for less than a
    // short phrase (the checklist is as wide as its panel), and one line's height.
    QSize minimumSizeHint() const override {
        if (!minimum_.isValid()) {
            const QFontMetrics fm = fontMetrics();
            const QMargins m = contentsMargins();
            minimum_ = QSize(fm.averageCharWidth() * 16 + m.left() + m.right(),
                             fm.lineSpacing() + m.top() + m.bottom());
        }
        return minimum_;
    }

  protected:
    void changeEvent(QEvent* e) override {
        if (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange) forget();
        QLabel::changeEvent(e);
    }

  private:
    void forget() {
        heights_.clear();
        minimum_ = QSize();
    }
    mutable std::map<int, int> heights_;
    mutable QSize minimum_;
};

// Dark enough for 4.5:1 on white (the projector too); the mark and word carry the meaning.
QString claimColour(ade::ClaimStatus s) {
    switch (s) {
        case ade::ClaimStatus::Holds:
            return QStringLiteral("#00704a");
        case ade::ClaimStatus::DoesNotHold:
            return QStringLiteral("#b3261e");
        case ade::ClaimStatus::Pending:
            return QStringLiteral("#505050");
        case ade::ClaimStatus::Unavailable:
            return QStringLiteral("#6b6b6b");
    }
    return QStringLiteral("#000000");
}
}  // namespace

QString claimHtml(const ade::ClaimSpec& claim, const ade::ClaimResult& result, bool compact) {
    const QString colour = claimColour(result.status);
    QString measured = QString::fromStdString(result.measured);
    if (compact) {  // "ratio 1.26 ± 0.14" of "ratio 1.26 ± 0.14 (3 seeds, ...)"
        measured = measured.section(QStringLiteral(" ("), 0, 0);
        return QStringLiteral("<span style=\"color:%1; font-weight:bold\">%2 %3</span> %4 "
                              "<span style=\"color:#333\">— %5</span>")
            .arg(colour, claimMark(result.status),
                 QString::fromStdString(ade::statusText(result.status)).toHtmlEscaped(),
                 QString::fromStdString(claim.text).toHtmlEscaped(), measured.toHtmlEscaped());
    }
    if (measured.isEmpty()) measured = QString::fromStdString(result.detail);
    else if (result.status != ade::ClaimStatus::Holds &&
             result.status != ade::ClaimStatus::DoesNotHold && !result.detail.empty())
        measured += QStringLiteral(" — ") + QString::fromStdString(result.detail);
    return QStringLiteral(
               "<table cellspacing=0 cellpadding=0><tr><td valign=top style=\"padding-right:6px\">"
               "<span style=\"color:%1; font-size:%2; font-weight:bold\">%3</span></td>"
               "<td><b style=\"color:%1\">%4</b> %5<br><span style=\"color:#333\">%6</span>"
               "</td></tr></table>")
        .arg(colour, QStringLiteral("large"),
             claimMark(result.status),
             QString::fromStdString(ade::statusText(result.status)).toHtmlEscaped(),
             QString::fromStdString(claim.text).toHtmlEscaped(), measured.toHtmlEscaped());
}

ClaimsChecklist::ClaimsChecklist(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("claimsChecklist"));
    setFrameShape(QFrame::StyledPanel);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(8, 6, 8, 6);
    lay->setSpacing(2);
    title_ = new QLabel(tr("<b>Claims</b> — checked live over every seed"), this);
    title_->setToolTip(
        tr("What the preset says its runs show, checked as they stream: ◌ pending (a run it "
           "needs is still going; the number is what the data show so far), ✓ holds, ✗ does "
           "not hold, – unavailable (a run or metric it needs is missing)"));
    lay->addWidget(title_);
    rowsLayout_ = new QVBoxLayout;
    rowsLayout_->setSpacing(3);
    lay->addLayout(rowsLayout_);
    hide();
}

void ClaimsChecklist::setClaims(const std::vector<ade::ClaimSpec>& claims,
                                const std::vector<ade::ClaimResult>& results) {
    claims_ = claims;
    results_ = results;
    render();
}

void ClaimsChecklist::setLarge(bool large) {
    if (large_ == large) return;
    large_ = large;
    QFont f = font();
    f.setPointSizeF(QFont().pointSizeF() * (large ? 1.25 : 1.0));
    setFont(f);
    render();
}

QString ClaimsChecklist::rowText(int i) const {
    return i >= 0 && i < rowCount() ? rows_[static_cast<std::size_t>(i)]->text() : QString();
}

void ClaimsChecklist::setHighlighted(const QString& id) {
    if (highlighted_ == id) return;
    highlighted_ = id;
    render();
}

void ClaimsChecklist::setOnlyHighlighted(bool only) {
    if (onlyHighlighted_ == only) return;
    onlyHighlighted_ = only;
    render();
}

void ClaimsChecklist::render() {
    while (rows_.size() > claims_.size()) {
        delete rows_.back();
        rows_.pop_back();
    }
    while (rows_.size() < claims_.size()) {
        auto* l = new ClaimRow(this);
        l->setWordWrap(true);
        l->setTextFormat(Qt::RichText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setObjectName(QStringLiteral("claim.%1").arg(rows_.size()));
        rowsLayout_->addWidget(l);
        rows_.push_back(l);
    }
    for (std::size_t i = 0; i < claims_.size(); ++i) {
        const ade::ClaimResult r = i < results_.size() ? results_[i] : ade::ClaimResult{};
        const bool lit = !highlighted_.isEmpty() &&
                         QString::fromStdString(claims_[i].id) == highlighted_;
        const QString html = lit ? QStringLiteral("<b>▶ ") + claimHtml(claims_[i], r, large_) +
                                       QStringLiteral("</b>")
                                 : claimHtml(claims_[i], r, large_);
        static_cast<ClaimRow*>(rows_[i])->setHtml(html);
        rows_[i]->setVisible(!onlyHighlighted_ || highlighted_.isEmpty() || lit);
        // What would make the claim fail: its negative control, which the report checks.
        QString tip = QString::fromStdString(r.detail);
        if (claims_[i].threshold)
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) +
                   tr("Threshold: %1.")
                       .arg(QString::fromStdString(ade::thresholdText(*claims_[i].threshold)));
        if (!r.compute.empty())
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) +
                   tr("Compute per run: %1.").arg(QString::fromStdString(ade::computeText(r.compute)));
        if (claims_[i].control)
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) +
                   tr("Negative control: %1. The report (attention-explorer-cli report) checks "
                      "that the claim does not hold there, so that it is shown able to fail.")
                       .arg(QString::fromStdString(claims_[i].control->why));
        rows_[i]->setToolTip(tip);
    }
    // The presentation's checklist is shown and hidden by its owner (AboutPanel): showing it
    // here at every evaluation only for the owner to hide it again laid the charts out twice.
    if (!onlyHighlighted_) setVisible(!claims_.empty());
}

}  // namespace ade::ui
