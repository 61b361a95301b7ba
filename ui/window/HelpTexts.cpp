#include "window/HelpTexts.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "base/ActionTable.h"
#include "runs/RunStore.h"

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

QString keyOf(const QWidget& window, const char* id) {
    const auto* a = window.findChild<QAction*>(QLatin1String(id));
    return a ? actionKeys(a).toHtmlEscaped() : QString();
}

}  // namespace

QString quickStartHtml(const QWidget& w) {
    return QObject::tr(
               "<h3>Quick start</h3><ol>"
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
        .arg(keyOf(w, "start"), keyOf(w, "pause"), keyOf(w, "step"), keyOf(w, "stop"),
             keyOf(w, "fitCharts"), keyOf(w, "presentation"));
}

void showQuickStart(QWidget* window) {
    auto* text = new QTextBrowser;
    text->setHtml(quickStartHtml(*window));
    textDialog(window, QStringLiteral("quickStartDialog"), QObject::tr("Quick start"), text)
        ->show();
}

void showShortcuts(QWidget* window) {
    const auto list = tableShortcuts(window);  // every room's tables, in the order they were made
    auto* table = new QTableWidget(static_cast<int>(list.size()), 2);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Action"), QObject::tr("Key")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int i = 0; i < static_cast<int>(list.size()); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(list[static_cast<std::size_t>(i)].first));
        table->setItem(i, 1, new QTableWidgetItem(list[static_cast<std::size_t>(i)].second));
    }
    textDialog(window, QStringLiteral("shortcutsDialog"), QObject::tr("Keyboard shortcuts"), table)
        ->show();
}

QString emptyChartsHint(const QWidget& w, bool comparison, const QString& preset,
                        const QStringList& runNames) {
    QString what;
    if (comparison) {
        QStringList names;
        for (const QString& n : runNames)
            names << n.toHtmlEscaped();
        what = QObject::tr("Press <b>Start</b> (%1) to run preset <i>%2</i>: %3 compared (%4).")
                   .arg(keyOf(w, "start"), preset.toHtmlEscaped(),
                        runCountText(static_cast<int>(runNames.size())),
                        names.join(QStringLiteral(", ")));
    } else {
        what = QObject::tr("Press <b>Start</b> (%1) to run the form's settings.")
                   .arg(keyOf(w, "start"));
    }
    return QObject::tr(
               "<p><b>No runs yet.</b></p><p>%1</p><p><b>Play</b> (%2) runs the form's "
               "settings once; the <b>Presets</b> menu holds other comparisons; Help "
               "&gt; Quick start explains the rest.</p>")
        .arg(what, keyOf(w, "pause"));
}

}  // namespace ade::ui
