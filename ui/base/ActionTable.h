#pragma once
// The window's commands as tables: each room describes its actions (id, text, keys, icon,
// tooltip) in a table of ActionSpec and makes them with makeActions; Help > Keyboard shortcuts
// is generated from the actions so made (tableShortcuts), so a key exists in one place only.
// Qt Creator's ActionManager and LabPlot's ActionsManager are the models.
#include <QKeySequence>
#include <QList>
#include <QString>
#include <QStyle>

#include <utility>
#include <vector>

class QAction;
class QWidget;

namespace ade::ui {

struct ActionSpec {
    const char* id;  // the action's objectName: what action(id) and the tests find
    QString text;    // menu text with its & mnemonic
    QList<QKeySequence> keys = {};
    QString tip = {};  // status tip; the tooltip adds the keys
    QStyle::StandardPixmap icon = QStyle::SP_CustomBase;  // SP_CustomBase: no icon
    bool checkable = false;  // keys act in the whole window (QAction's Qt::WindowShortcut)
};

// The actions of `table` as children of `owner` (which also takes them, so that their keys work
// in its window), in the table's order.
std::vector<QAction*> makeActions(QWidget* owner, const std::vector<ActionSpec>& table);

// Every action made by makeActions in `window` (or a child) that has keys: (its text without the
// mnemonic, its keys), in the order they were made.
std::vector<std::pair<QString, QString>> tableShortcuts(const QWidget* window);
// Whether makeActions made `a`.
bool fromActionTable(const QAction* a);

// "Start", "Save session as…": a menu text without its & mnemonics.
QString plainActionText(const QString& text);
// "Ctrl+Return, Space": an action's keys as the platform writes them.
QString actionKeys(const QAction* a);

}  // namespace ade::ui
