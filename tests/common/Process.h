#pragma once
// Runs a program (usually the CLI, $ADE_CLI) to completion for a test: exit code, stdout and
// stderr, with a timeout after which the child is killed. The caller may set up the QProcess
// first (environment, child-process modifier).
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace testproc {

// The CLI under test: $ADE_CLI, which CTest sets for every test (tests/CMakeLists.txt).
inline QString cliPath() {
    return qEnvironmentVariable("ADE_CLI");
}

struct ProcessResult {
    int code = -1;  // -1: crashed or timed out
    QString out, err;
};

inline ProcessResult run(QProcess& p, const QString& program, const QStringList& args,
                         int timeoutMs = 180000) {
    p.start(program, args);
    ProcessResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timeout";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

inline ProcessResult run(const QString& program, const QStringList& args, int timeoutMs = 180000) {
    QProcess p;
    return run(p, program, args, timeoutMs);
}

// The CLI with `args`, optionally with extra environment variables.
inline ProcessResult runCli(const QStringList& args, int timeoutMs = 180000,
                            const QProcessEnvironment& extraEnv = {}) {
    QProcess p;
    if (!extraEnv.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(extraEnv);
        p.setProcessEnvironment(env);
    }
    return run(p, cliPath(), args, timeoutMs);
}

}  // namespace testproc
