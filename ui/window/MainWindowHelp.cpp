// MainWindow: what teaches a new user the window: the hint over empty charts, Help > Quick
// start and Help > Keyboard shortcuts (generated from the window's actions).
#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "base/ActionTable.h"
#include "charts/ChartArea.h"
#include "window/MainWindow.h"

namespace ade::ui {

namespace {

QDialog* textDialog(QWidget* parent, const QString& name, const QString& title, QWidget* body) {
    auto* d = new QDialog(parent);
    d->setObjectName(name);
    d->setWindowTitle(title);
    d->setAttribute(Qt::WA_DeleteOnClose);
    auto* lay = new QVBoxLayout(d);
    lay->addWidget(body);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, d);
    QObject::connect(buttons, &QDialogButtonBox::rejected, d, &QDialog::reject);
    lay->addWidget(buttons);
    d->resize(560, 480);
    return d;
}
}  // namespace

QString MainWindow::runCount(int n) {
    return n == 1 ? tr("1 run") : tr("%1 runs").arg(n);
}

std::vector<std::pair<QString, QString>> MainWindow::shortcutList() const {
    return tableShortcuts(this);  // every room's action tables, in the order they were made
}

QString MainWindow::quickStartHtml() const {
    auto key = [this](const char* name) {
        const QAction* a = action(QLatin1String(name));
        return a ? actionKeys(a).toHtmlEscaped() : QString();
    };
    return tr("<h3>Quick start</h3><ol>"
              "<li><b>Start</b> (%1) runs the loaded preset's whole comparison: all its runs "
              "side by side, as the About panel describes them. Once the form is changed (or "
              "no preset is loaded), Start runs the form's settings as one new run.</li>"
              "<li><b>Play</b> (%2) runs the form's settings once, as a single run; while runs "
              "go it pauses and resumes them. <b>Step</b> (%3) advances one iteration, "
              "<b>Stop</b> (%4) ends the runs and keeps their curves.</li>"
              "<li>The <b>Presets</b> menu holds the papers' comparisons for every experiment; "
              "choosing one starts it.</li>"
              "<li>The <b>Parameters</b> panel (left) changes any setting; a refused value "
              "turns red and says why, and Start says what blocks it.</li>"
              "<li>On a chart: drag to zoom, double-click or %5 to fit, hover to read every "
              "curve's value; a legend entry hides or shows its curve. View &gt; Charts picks "
              "the charts.</li>"
              "<li><b>Presentation mode</b> (%6): the charts alone, full screen, in large type "
              "and projector colours; 1 to 4 show one chart, 0 all four; %6 again brings the "
              "panels back.</li>"
              "<li>The <b>Lessons</b> menu plays a teacher's sequence of presets in "
              "presentation mode, a caption per step; Page Down and Page Up turn the steps, "
              "Esc leaves.</li>"
              "<li><b>File</b> saves and opens sessions and exports figures and data.</li>"
              "</ol><p>Help &gt; Keyboard shortcuts lists every key.</p>")
        .arg(key("start"), key("pause"), key("step"), key("stop"), key("fitCharts"),
             key("presentation"));
}

void MainWindow::showQuickStart() {
    auto* text = new QTextBrowser;
    text->setHtml(quickStartHtml());
    textDialog(this, QStringLiteral("quickStartDialog"), tr("Quick start"), text)->show();
}

void MainWindow::showShortcuts() {
    const auto list = shortcutList();
    auto* table = new QTableWidget(static_cast<int>(list.size()), 2);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({tr("Action"), tr("Key")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int i = 0; i < static_cast<int>(list.size()); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(list[static_cast<std::size_t>(i)].first));
        table->setItem(i, 1, new QTableWidgetItem(list[static_cast<std::size_t>(i)].second));
    }
    textDialog(this, QStringLiteral("shortcutsDialog"), tr("Keyboard shortcuts"), table)->show();
}

void MainWindow::updateEmptyHint() {
    auto key = [this](const char* name) { return actionKeys(action(QLatin1String(name))).toHtmlEscaped(); };
    QString what;
    if (startStartsComparison()) {
        QStringList names;
        for (const auto& r : workspace_->presetRuns())
            names << QString::fromStdString(r.label).toHtmlEscaped();
        what = tr("Press <b>Start</b> (%1) to run preset <i>%2</i>: %3 compared (%4).")
                   .arg(key("start"), workspace_->presetName().toHtmlEscaped(),
                        runCount(static_cast<int>(workspace_->presetRuns().size())),
                        names.join(QStringLiteral(", ")));
    } else {
        what = tr("Press <b>Start</b> (%1) to run the form's settings.").arg(key("start"));
    }
    charts_->setEmptyHint(
        tr("<p><b>No runs yet.</b></p><p>%1</p><p><b>Play</b> (%2) runs the form's settings "
           "once; the <b>Presets</b> menu holds other comparisons; Help &gt; Quick start "
           "explains the rest.</p>")
            .arg(what, key("pause")));
}

}  // namespace ade::ui
