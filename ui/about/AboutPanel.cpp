#include "about/AboutPanel.h"

#include <QScrollArea>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "about/ClaimsChecklist.h"
#include "about/ExperimentAbout.h"
#include "runs/ClaimsMonitor.h"

namespace ade::ui {

AboutPanel::AboutPanel(ClaimsMonitor* claims, QWidget* parent) : QWidget(parent), claims_(claims) {
    setObjectName(QStringLiteral("aboutPanel"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(4);
    // The claims above the text, in a scroll area of a splitter: ten claims in a short dock
    // scroll (and the user can give them more room) instead of being clipped mid-line.
    split_ = new QSplitter(Qt::Vertical, this);
    auto* split = split_;
    split->setObjectName(QStringLiteral("aboutSplit"));
    split->setChildrenCollapsible(false);
    checklist_ = new ClaimsChecklist;
    claimsScroll_ = new QScrollArea;
    claimsScroll_->setObjectName(QStringLiteral("claimsScroll"));
    claimsScroll_->setFrameShape(QFrame::NoFrame);
    claimsScroll_->setWidgetResizable(true);
    claimsScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    claimsScroll_->setWidget(checklist_);
    claimsScroll_->hide();
    split->addWidget(claimsScroll_);
    text_ = new QTextBrowser(this);
    text_->setObjectName(QStringLiteral("about"));
    text_->setOpenExternalLinks(true);
    // Never squeezed until words break: on a narrow screen it is a tab beside the parameters.
    text_->setMinimumWidth(240);
    text_->setWordWrapMode(QTextOption::WordWrap);
    text_->setMinimumHeight(80);
    split->addWidget(text_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    lay->addWidget(split, 1);
    presentChecklist_ = new ClaimsChecklist;
    presentChecklist_->setObjectName(QStringLiteral("presentationClaims"));
    presentChecklist_->setLarge(true);
    presentChecklist_->setOnlyHighlighted(true);
    presentChecklist_->hide();
    connect(claims_, &ClaimsMonitor::updated, this, [this] {
        checklist_->setClaims(claims_->claims(), claims_->results());
        const bool was = claimsScroll_->isVisibleTo(this);
        claimsScroll_->setVisible(checklist_->hasClaims());
        // Newly shown: the claims take three fifths of the panel (the text scrolls below).
        if (!was && checklist_->hasClaims())
            split_->setSizes({split_->height() * 3 / 5, split_->height() * 2 / 5});
        presentChecklist_->setClaims(claims_->claims(), claims_->results());
        presentChecklist_->setVisible(presentation_ && presentChecklist_->hasClaims());
    });
}

AboutPanel::~AboutPanel() {
    // Never put under the charts (a panel made without a window): it is still ours.
    if (!presentChecklist_->parent()) delete presentChecklist_;
}

void AboutPanel::showAbout(const std::string& experiment, const QString& preset,
                           const QString& description, const QString& about) {
    text_->setHtml(aboutHtml(experiment, preset, description, about));
}

void AboutPanel::setPresentation(bool on) {
    presentation_ = on;
    presentChecklist_->setVisible(on && presentChecklist_->hasClaims());
}

void AboutPanel::setHighlighted(const QString& id) {
    checklist_->setHighlighted(id);
    presentChecklist_->setHighlighted(id);
}

}  // namespace ade::ui
