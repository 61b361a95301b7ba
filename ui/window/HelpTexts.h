#pragma once
// What teaches a new user the window: Help > Quick start, Help > Keyboard shortcuts (generated
// from the action tables, base/ActionTable) and the hint over empty charts. The keys they name
// are read from the window's actions, so a changed shortcut changes the texts.
#include <QString>
#include <QStringList>

class QWidget;

namespace ade::ui {

// The quick start's HTML; `window` holds the actions (start, pause, step, ...) whose keys it names.
QString quickStartHtml(const QWidget& window);
void showQuickStart(QWidget* window);
void showShortcuts(QWidget* window);  // every keyed action of every room's table
// The hint over empty charts: Start runs preset `preset`'s runs `runNames` when `comparison`,
// else the form's settings.
QString emptyChartsHint(const QWidget& window, bool comparison, const QString& preset,
                        const QStringList& runNames);

}  // namespace ade::ui
