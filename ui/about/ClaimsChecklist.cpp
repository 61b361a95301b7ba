#include "about/ClaimsChecklist.h"

#include <QLabel>
#include <QVBoxLayout>

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
        auto* l = new QLabel(this);
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
        if (rows_[i]->text() != html) rows_[i]->setText(html);  // no relayout when unchanged
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
    setVisible(!claims_.empty());
}

}  // namespace ade::ui
