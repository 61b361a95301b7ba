// MainWindow: the loaded preset's claims, checked live (ClaimsMonitor) and shown as a
// checklist above the About text and, in presentation mode, under the charts.
#include <QAction>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "charts/ChartArea.h"
#include "about/ClaimsChecklist.h"
#include "runs/ClaimsMonitor.h"
#include "window/MainWindow.h"

namespace ade::ui {

QWidget* MainWindow::buildAboutPanel() {
    auto* panel = new QWidget;
    panel->setObjectName(QStringLiteral("aboutPanel"));
    auto* lay = new QVBoxLayout(panel);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->setSpacing(4);
    checklist_ = new ClaimsChecklist(panel);
    lay->addWidget(checklist_);
    lay->addWidget(about_, 1);
    // Presentation mode hides the docks: the checklist comes under the charts instead.
    presentChecklist_ = new ClaimsChecklist;
    presentChecklist_->setObjectName(QStringLiteral("presentationClaims"));
    presentChecklist_->setLarge(true);
    presentChecklist_->setOnlyHighlighted(true);
    charts_->setFooter(presentChecklist_);
    presentChecklist_->hide();
    connect(claims_, &ClaimsMonitor::updated, this, [this] {
        checklist_->setClaims(claims_->claims(), claims_->results());
        presentChecklist_->setClaims(claims_->claims(), claims_->results());
        presentChecklist_->setVisible(presentation_ && presentChecklist_->hasClaims());
    });
    return panel;
}

}  // namespace ade::ui
