#pragma once
// The folder chooser of the exports (CSV files, parameters): Qt's folder dialog, opened in a
// folder the user can write in, so that its "Create New Folder" button works (a dialog opened
// in the program's working directory, read-only when started from a desktop menu, greys it out).
#include <QString>

class QWidget;

namespace ade::ui {

// `start` if it is a writable folder, else the user's documents folder, else the home folder.
QString writableStartFolder(const QString& start);
// Shows the dialog; the chosen folder, or "" when cancelled.
QString chooseFolder(QWidget* parent, const QString& title, const QString& start);

}  // namespace ade::ui
