#pragma once
// Reading a file a test made or a program wrote, whole.
#include <QByteArray>
#include <QFile>
#include <QString>

namespace adetest {

// The whole content of a file (empty when it cannot be read).
inline QByteArray readBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace adetest
