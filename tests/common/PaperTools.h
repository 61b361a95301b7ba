#pragma once
// What the paper-figure tests share (tst_paper_figures, tst_paper_views): running pdflatex,
// pdftoppm or python3 in a folder, keeping the results for a person to look at, and Debian's
// python3 (its matplotlib).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>

#include "Process.h"

namespace papertools {

// Runs `program` in `dir`; its exit code (-1: crashed or did not finish), output in `out`.
inline int runIn(const QString& dir, const QString& program, const QStringList& args, QString* out) {
    QProcess p;
    p.setWorkingDirectory(dir);
    p.setProcessChannelMode(QProcess::MergedChannels);
    const testproc::ProcessResult r = testproc::run(p, program, args, 300000);
    *out = r.out + r.err;
    return r.code;
}

// pdflatex on DIR/paper.tex, stopping at the first error (its exit status; its log in `out`).
inline int pdflatex(const QString& dir, QString* out) {
    return runIn(dir, QStringLiteral("pdflatex"),
                 {QStringLiteral("-interaction=nonstopmode"), QStringLiteral("-halt-on-error"),
                  QStringLiteral("paper.tex")},
                 out);
}

// Where to keep the figures for a person to look at ($ADE_PAPER_FIGURES), else nowhere.
inline void keep(const QString& file) {
    const QString dir = qEnvironmentVariable("ADE_PAPER_FIGURES");
    if (dir.isEmpty()) return;
    QDir().mkpath(dir);
    QFile::remove(QDir(dir).filePath(QFileInfo(file).fileName()));
    QFile::copy(file, QDir(dir).filePath(QFileInfo(file).fileName()));
}

// $ADE_PYTHON, else Debian's interpreter (its python3-matplotlib) before whatever python3 comes
// first on PATH (a pyenv's or a venv's, without matplotlib): the sanitizer trees set no ADE_PYTHON.
inline QString python() {
    const QString p = qEnvironmentVariable("ADE_PYTHON");
    if (!p.isEmpty()) return p;
    return QFileInfo::exists(QStringLiteral("/usr/bin/python3")) ? QStringLiteral("/usr/bin/python3")
                                                                 : QStringLiteral("python3");
}

}  // namespace papertools
