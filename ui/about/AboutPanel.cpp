#include "about/AboutPanel.h"

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
    checklist_ = new ClaimsChecklist(this);
    lay->addWidget(checklist_);
    text_ = new QTextBrowser(this);
    text_->setObjectName(QStringLiteral("about"));
    text_->setOpenExternalLinks(true);
    // Never squeezed until words break: on a narrow screen it is a tab beside the parameters.
    text_->setMinimumWidth(240);
    text_->setWordWrapMode(QTextOption::WordWrap);
    lay->addWidget(text_, 1);
    presentChecklist_ = new ClaimsChecklist;
    presentChecklist_->setObjectName(QStringLiteral("presentationClaims"));
    presentChecklist_->setLarge(true);
    presentChecklist_->setOnlyHighlighted(true);
    presentChecklist_->hide();
    connect(claims_, &ClaimsMonitor::updated, this, [this] {
        checklist_->setClaims(claims_->claims(), claims_->results());
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
