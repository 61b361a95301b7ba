#include "base/ActionTable.h"

#include <QAction>

#include <algorithm>
#include <QWidget>

namespace ade::ui {

namespace {
// Set on every action makeActions makes: its place in the order of making (from 1).
constexpr const char* kOrder = "adeActionTableOrder";
int made = 0;
}  // namespace

std::vector<QAction*> makeActions(QWidget* owner, const std::vector<ActionSpec>& table) {
    std::vector<QAction*> out;
    out.reserve(table.size());
    for (const ActionSpec& s : table) {
        auto* a = new QAction(s.text, owner);
        a->setObjectName(QLatin1String(s.id));
        if (s.icon != QStyle::SP_CustomBase) a->setIcon(owner->style()->standardIcon(s.icon));
        a->setShortcuts(s.keys);
        a->setCheckable(s.checkable);
        a->setStatusTip(s.tip);
        const QString keys = actionKeys(a);
        const QString tip = s.tip.isEmpty() ? plainActionText(s.text) : s.tip;
        a->setToolTip(keys.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, keys));
        a->setProperty(kOrder, ++made);
        owner->addAction(a);
        out.push_back(a);
    }
    return out;
}

bool fromActionTable(const QAction* a) {
    return a && a->property(kOrder).isValid();
}

std::vector<std::pair<QString, QString>> tableShortcuts(const QWidget* window) {
    QList<QAction*> actions = window->findChildren<QAction*>();
    std::vector<std::pair<int, const QAction*>> ordered;
    for (const QAction* a : actions)
        if (fromActionTable(a) && !a->shortcuts().isEmpty())
            ordered.emplace_back(a->property(kOrder).toInt(), a);
    std::sort(ordered.begin(), ordered.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::pair<QString, QString>> out;
    for (const auto& [order, a] : ordered)
        out.emplace_back(plainActionText(a->text()), actionKeys(a));
    return out;
}

QString plainActionText(const QString& text) {
    QString t = text;
    t.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    t.remove(QLatin1Char('&'));
    t.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    return t;
}

QString actionKeys(const QAction* a) {
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts())
        keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

}  // namespace ade::ui
