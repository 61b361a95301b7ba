#pragma once
// File-system faults for the hardening tests (tst_files, tst_files_export): unwritable folders,
// full disks and the like, made to really fail even when the tests run as root.
//
// Root ignores permission bits (CAP_DAC_OVERRIDE), so chmod alone does not make a folder
// unwritable. What does fail for root, and is used here:
//  - a path under a regular file ("file.txt/out"): ENOTDIR for every operation;
//  - /proc: no files or folders can be created there, whoever asks;
//  - permissions with CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH / CAP_FOWNER dropped: in this
//    thread (EnforcePermissions, reversible since the capabilities stay permitted) or in a child
//    process (ChildFaults::enforcePermissions drops them from its bounding set before exec, so
//    the exec'd program never gets them back). Then root is an ordinary owner: chmod 0555 makes
//    a folder unwritable and chmod 0000 a file unreadable;
//  - a full disk, simulated by RLIMIT_FSIZE with SIGXFSZ ignored: writes past the limit fail
//    with EFBIG exactly where ENOSPC would (a short write, then an error; fflush/close report
//    it). FileSizeLimit does it in this process, ChildFaults::fileSizeLimit in a child.
#include <QByteArray>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>

#include "Process.h"
#include "ReadFile.h"

namespace filefaults {

// A folder name with spaces, an apostrophe and non-ASCII letters: must work everywhere.
inline const QString kAwkwardDir = QStringLiteral("Résultats d'été/run ü 1");

using adetest::readBytes;

// "names the path and the reason": the message holds `path` and `reason` (when given).
inline bool explains(const QString& message, const QString& path, const QString& reason) {
    return message.contains(path) && (reason.isEmpty() || message.contains(reason));
}

inline bool writeBytes(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Every entry under `dir` (relative path -> content; folders map to "<dir>"). Equal snapshots
// before and after a failed write mean: the previous files are byte-identical and nothing (no
// temporary, no half-written file) was left behind.
using FolderSnapshot = QMap<QString, QByteArray>;
inline FolderSnapshot snapshot(const QString& dir) {
    FolderSnapshot s;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        const QFileInfo fi(p);
        s.insert(QDir(dir).relativeFilePath(p),
                 fi.isDir() && !fi.isSymLink() ? QByteArray("<dir>") : readBytes(p));
    }
    return s;
}

// What changed between two snapshots, for failure messages.
inline QString describeDiff(const FolderSnapshot& before, const FolderSnapshot& after) {
    QStringList d;
    for (auto it = before.begin(); it != before.end(); ++it) {
        if (!after.contains(it.key()))
            d << "removed " + it.key();
        else if (after.value(it.key()) != it.value())
            d << "changed " + it.key();
    }
    for (auto it = after.begin(); it != after.end(); ++it)
        if (!before.contains(it.key())) d << "left behind " + it.key();
    return d.join("; ");
}

// Temporary files of the atomic writers: RunOutput's "<name>.tmp-<pid>-<n>" (and the CLI's
// ".write-test.tmp-<pid>" probe), Qt's QSaveFile/QTemporaryFile "<name>.XXXXXX".
inline QStringList leftovers(const FolderSnapshot& s) {
    static const QRegularExpression temp(QStringLiteral(R"(\.tmp-\d+(-\d+)?$|\.[A-Za-z0-9]{6}$)"));
    QStringList out;
    for (auto it = s.begin(); it != s.end(); ++it)
        if (temp.match(it.key()).hasMatch()) out << it.key();
    return out;
}

// Capabilities that let root ignore permission bits.
inline constexpr int kDacCaps[] = {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER};

// Drops the permission-bypassing capabilities from this thread's effective set while alive;
// restores them afterwards. A no-op for ordinary users (nothing to drop).
class EnforcePermissions {
  public:
    EnforcePermissions() {
        __user_cap_header_struct h{_LINUX_CAPABILITY_VERSION_3, 0};
        if (::syscall(SYS_capget, &h, saved_) != 0) return;
        __user_cap_data_struct d[2];
        std::memcpy(d, saved_, sizeof d);
        for (int cap : kDacCaps)
            d[cap / 32].effective &= ~(1u << (cap % 32));
        active_ = ::syscall(SYS_capset, &h, d) == 0;
    }
    ~EnforcePermissions() {
        if (!active_) return;
        __user_cap_header_struct h{_LINUX_CAPABILITY_VERSION_3, 0};
        ::syscall(SYS_capset, &h, saved_);
    }
    EnforcePermissions(const EnforcePermissions&) = delete;
    EnforcePermissions& operator=(const EnforcePermissions&) = delete;

  private:
    __user_cap_data_struct saved_[2] = {};
    bool active_ = false;
};

// A folder that this thread cannot create files in (mode 0555, with EnforcePermissions alive).
// False when permissions cannot be enforced here (then the caller skips).
inline bool makeUnwritableDir(const QString& dir) {
    QDir().mkpath(dir);
    if (::chmod(QFile::encodeName(dir).constData(), 0555) != 0) return false;
    const QByteArray probe = QFile::encodeName(dir + "/.probe");
    const int fd = ::open(probe.constData(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return true;
    ::close(fd);
    ::unlink(probe.constData());
    return false;
}

inline void makeWritableAgain(const QString& dir) {
    ::chmod(QFile::encodeName(dir).constData(), 0755);
}

inline bool setMode(const QString& path, mode_t mode) {
    return ::chmod(QFile::encodeName(path).constData(), mode) == 0;
}

// Simulated full disk in this process while alive: regular-file writes past `bytes` fail with
// EFBIG. Keep test assertions outside its scope (a log written to a file could hit the limit).
class FileSizeLimit {
  public:
    explicit FileSizeLimit(rlim_t bytes) {
        oldHandler_ = std::signal(SIGXFSZ, SIG_IGN);
        ::getrlimit(RLIMIT_FSIZE, &saved_);
        rlimit r = saved_;
        r.rlim_cur = std::min<rlim_t>(bytes, saved_.rlim_max);
        active_ = ::setrlimit(RLIMIT_FSIZE, &r) == 0;
    }
    ~FileSizeLimit() {
        if (active_) ::setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, oldHandler_);
    }
    bool active() const { return active_; }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

  private:
    rlimit saved_{};
    bool active_ = false;
    void (*oldHandler_)(int) = SIG_DFL;
};

// Faults for a child process (the CLI), applied between fork and exec.
struct ChildFaults {
    bool enforcePermissions = false;  // drop the permission-bypassing capabilities for good
    rlim_t fileSizeLimit = 0;         // > 0: simulated full disk past this many bytes
};

inline void applyChildFaults(QProcess& p, const ChildFaults& f) {
    if (!f.enforcePermissions && f.fileSizeLimit == 0) return;
    p.setChildProcessModifier([f] {
        // Async-signal-safe calls only.
        if (f.enforcePermissions)
            for (int cap : kDacCaps)
                ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
        if (f.fileSizeLimit > 0) {
            ::signal(SIGXFSZ, SIG_IGN);  // SIG_IGN survives exec: writes fail with EFBIG
            rlimit r{};
            ::getrlimit(RLIMIT_FSIZE, &r);
            r.rlim_cur = f.fileSizeLimit < r.rlim_max ? f.fileSizeLimit : r.rlim_max;
            ::setrlimit(RLIMIT_FSIZE, &r);
        }
    });
}

using testproc::ProcessResult;

inline ProcessResult runProgram(const QString& program, const QStringList& args,
                                const ChildFaults& faults = {}, int timeoutMs = 180000) {
    QProcess p;
    applyChildFaults(p, faults);
    return testproc::run(p, program, args, timeoutMs);
}

// Whether a child with `faults` really cannot create a file in `dir` (probe with sh).
inline bool childCannotWriteIn(const QString& dir, const ChildFaults& faults) {
    const ProcessResult r =
        runProgram("/bin/sh", {"-c", "echo x > \"$1/.probe\"", "sh", dir}, faults, 10000);
    QFile::remove(dir + "/.probe");
    return r.code != 0;
}

}  // namespace filefaults
