#pragma once
// The window's commands in one table (id, text, keys, icon, tooltip; base/ActionTable.h) and
// what each one does (connectWindowActions); the menus and the toolbar place them by id,
// and Help > Keyboard shortcuts lists them with the other rooms' tables (sessions, lessons,
// time travel).
#include <vector>

#include "base/ActionTable.h"

namespace ade::ui {

class MainWindow;

std::vector<ActionSpec> windowActionTable();
// What each command of the table does (the window's actions, made from the table, exist).
void connectWindowActions(MainWindow& window);

}  // namespace ade::ui
