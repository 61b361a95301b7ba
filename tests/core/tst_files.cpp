// File-system hardening (issue 6) for core and the CLI: missing files, unwritable folders,
// directory-instead-of-file, read-only targets, a full disk and awkward (spaces, non-ASCII)
// paths, for RunOutput's atomic writes, run folders, session files, the .npy cache, config and
// preset files, and `run` / `sweep` / `--config` through the CLI. Every failure must come back
// as a message naming the path and the reason (the CLI exits 4 when a file cannot be written,
// 2 when an input cannot be read), never a crash; the previous version of every target stays
// byte-identical and no temporary file is left behind. Awkward paths must simply work.
// How the faults are made to fail as root is explained in tests/common/FileFaults.h.
#include <QtTest>

#include <sys/stat.h>

#include "FileFaults.h"
#include "data/DarcyFlow.h"
#include "experiments/ExperimentRegistry.h"
#include "io/Npy.h"
#include "output/RunOutput.h"
#include "output/Session.h"
#include "plan/Preset.h"
#include "training/Trainer.h"

using namespace ade;
using namespace filefaults;

namespace {

using testproc::cliPath;

std::string str(const QString& s) {
    return s.toStdString();  // UTF-8, which is what the file system and std::filesystem see
}

QString qstr(const std::string& s) {
    return QString::fromStdString(s);
}

RunResult smallRun(Config* configOut = nullptr) {
    Config c;
    c.setText("data.n", "16");
    c.setText("data.prompts", "4");
    c.setText("iterations", "30");
    std::string err;
    auto t = makeTrainer(c, &err);
    if (configOut) *configOut = c;
    return t ? t->run() : RunResult{};
}

// One seed per run (a preset's "seeds" would multiply the runs and name folders <run>_seed<N>).
const QStringList kSmall = {"--set", "iterations=20",  "--set",  "data.n=16",
                            "--set", "data.prompts=4", "--quiet", "--seeds", "1"};

// Conditions of the write matrix.
enum class Fault {
    ParentIsFile,    // a path component is a regular file (ENOTDIR)
    TargetIsFolder,  // the target path is an existing folder (EISDIR)
    ReadOnlyFolder,  // the folder is mode 0555 (permissions enforced even for root)
    ReadOnlyFile,    // the existing target is mode 0444
    FullDisk,        // RLIMIT_FSIZE: writes fail part-way with EFBIG
    Proc,            // under /proc, where nobody can create anything
};

void addWriteRows() {
    QTest::addColumn<int>("fault");
    QTest::addColumn<QString>("reason");
    QTest::newRow("parent is a file") << int(Fault::ParentIsFile) << "Not a directory";
    QTest::newRow("target is a folder") << int(Fault::TargetIsFolder) << "Is a directory";
    QTest::newRow("read-only folder") << int(Fault::ReadOnlyFolder) << "Permission denied";
    QTest::newRow("read-only file") << int(Fault::ReadOnlyFile) << "read-only";
    QTest::newRow("full disk") << int(Fault::FullDisk) << "File too large";
    QTest::newRow("under /proc") << int(Fault::Proc) << "";
}

// Sets up `fault` for writing `name` into a fresh folder `work`: writes the previous version
// there (when the fault allows one) and returns the target path. Empty: cannot be simulated.
QString prepareWriteFault(Fault fault, const QString& work, const QString& name,
                          const QByteArray& previous) {
    QDir().mkpath(work);
    switch (fault) {
        case Fault::ParentIsFile:
            writeBytes(work + "/blocker", "a regular file\n");
            return work + "/blocker/sub/" + name;
        case Fault::TargetIsFolder:
            writeBytes(work + "/" + name + "/keep.txt", "inside the folder\n");
            return work + "/" + name;
        case Fault::ReadOnlyFolder:
            writeBytes(work + "/ro/" + name, previous);
            return work + "/ro/" + name;
        case Fault::ReadOnlyFile:
            writeBytes(work + "/" + name, previous);
            setMode(work + "/" + name, 0444);
            return work + "/" + name;
        case Fault::FullDisk:
            writeBytes(work + "/" + name, previous);
            return work + "/" + name;
        case Fault::Proc:
            return "/proc/ade-nope/" + name;
    }
    return {};
}

}  // namespace

class TestFiles : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    Config config;
    RunResult result;
    QString awkward;  // tmp/Résultats d'été/run ü 1

    // A fresh folder per test function and data row.
    QString work() const {
        QString tag = QString::fromUtf8(QTest::currentDataTag());
        tag.replace('/', '_');
        return tmp.filePath(QString("w-") + QTest::currentTestFunction() + "-" + tag);
    }

    Session makeSession() const {
        Session s;
        s.preset = "préréglage ü";
        s.runs.push_back(sessionRunFrom("exécution ü 1", config, result));
        s.chartSettings = {{"log_y", true}, {"titre", "Courbe d'été"}};
        return s;
    }

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        result = smallRun(&config);
        QCOMPARE(result.status, RunStatus::Completed);
        QVERIFY(result.finalParams.size() > 0);
        awkward = tmp.filePath(kAwkwardDir);
        qInfo("running as uid %d; permission faults %s", int(::geteuid()),
              ::geteuid() == 0 ? "enforced by dropping CAP_DAC_OVERRIDE" : "are plain chmod");
    }

    // ---- RunOutput: the atomic write every core writer uses ---------------------------------

    void atomicWriteFailures_data() { addWriteRows(); }
    void atomicWriteFailures() {
        QFETCH(int, fault);
        QFETCH(QString, reason);
        const Fault f = Fault(fault);
        const QString w = work();
        const QByteArray previous = QByteArray("previous version\n").repeated(512);  // 8.5 KB
        const QString target = prepareWriteFault(f, w, "données.json", previous);
        const std::string next(20000, 'n');
        const FolderSnapshot before = snapshot(w);
        bool ok = true;
        std::string err;
        if (f == Fault::ReadOnlyFolder) {
            EnforcePermissions enforce;
            if (!makeUnwritableDir(w + "/ro")) QSKIP("cannot make a folder unwritable here");
            ok = writeFileAtomic(str(target), next, &err);
            makeWritableAgain(w + "/ro");
        } else if (f == Fault::FullDisk) {
            FileSizeLimit full(4096);
            QVERIFY(full.active());
            ok = writeFileAtomic(str(target), next, &err);
        } else {
            ok = writeFileAtomic(str(target), next, &err);
        }
        QVERIFY(!ok);
        QVERIFY2(explains(qstr(err), target, reason), err.c_str());
        qInfo("%s", err.c_str());
        const FolderSnapshot after = snapshot(w);
        QVERIFY2(after == before, qPrintable(describeDiff(before, after)));
    }

    void atomicWriteFullDiskNewFile() {
        // No previous version: nothing at all may appear (not even a truncated file).
        const QString w = work();
        QDir().mkpath(w);
        std::string err;
        bool ok = true;
        {
            FileSizeLimit full(1000);
            ok = writeFileAtomic(str(w + "/new.csv"), std::string(5000, 'x'), &err);
        }
        QVERIFY(!ok);
        QVERIFY2(explains(qstr(err), w + "/new.csv", "File too large"), err.c_str());
        QVERIFY(snapshot(w).isEmpty());
    }

    void atomicWriteAwkwardPath() {
        const QString file = awkward + "/données ü é.bin";
        std::string bytes("binary\0with NUL and UTF-8 ü\n", 29);
        std::string err;
        QVERIFY2(writeFileAtomic(str(file), bytes, &err), err.c_str());
        QCOMPARE(readBytes(file), QByteArray(bytes.data(), int(bytes.size())));
        setMode(file, 0600);  // a private file stays private when it is replaced
        bytes = "second version";
        QVERIFY2(writeFileAtomic(str(file), bytes, &err), err.c_str());
        QCOMPARE(readBytes(file), QByteArray::fromStdString(bytes));
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(file).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600));
        QCOMPARE(QDir(awkward).entryList(QDir::Files | QDir::Hidden),
                 QStringList{"données ü é.bin"});
    }

    void atomicWriteLongName() {
        // The longest valid name (255 bytes, non-ASCII): the temporary's suffix must not make it
        // "File name too long".
        const QString name = QString("é").repeated(127) + "x";
        QCOMPARE(QFile::encodeName(name).size(), 255);
        const QString dir = awkward + "/long";
        std::string err;
        for (const char* content : {"first", "second"}) {
            QVERIFY2(writeFileAtomic(str(dir + "/" + name), content, &err), err.c_str());
            QCOMPARE(readBytes(dir + "/" + name), QByteArray(content));
        }
        QCOMPARE(snapshot(dir).keys(), QStringList{name});
    }

    // ---- Run folders (metrics.csv, summary.json, params/*.npy) -------------------------------

    void runFolderAwkwardPathRoundTrip() {
        const QString dir = awkward + "/exécution ü";
        const auto files =
            writeRunFolder(str(dir), "exécution ü", "plan é", config, result,
                           "attention-explorer-cli run --out 'Résultats d'\\''été'", {});
        QVERIFY2(files.ok, files.error.c_str());
        QCOMPARE(readBytes(dir + "/metrics.csv"),
                 QByteArray::fromStdString(historyCsv(result.history)));
        const auto summary = nlohmann::json::parse(readBytes(dir + "/summary.json").toStdString());
        QCOMPARE(summary["name"].get<std::string>(), std::string("exécution ü"));
        for (std::size_t i = 0; i < result.finalParams.size(); ++i) {
            const QString npy = dir + "/params/" + qstr(result.finalParams.names[i]) + ".npy";
            std::string err;
            const auto a = decodeNpy(readBytes(npy).toStdString(), &err);
            QVERIFY2(a, err.c_str());
            const NamedArray expect =
                toNamedArray(result.finalParams.names[i], result.finalParams[i]);
            QCOMPARE(a->shape, expect.shape);
            QVERIFY(a->values == expect.values);  // bit-exact
        }
    }

    void runFolderFailures_data() { addWriteRows(); }
    void runFolderFailures() {
        QFETCH(int, fault);
        QFETCH(QString, reason);
        const Fault f = Fault(fault);
        const QString w = work();
        QString dir;
        switch (f) {
            case Fault::ParentIsFile:
                writeBytes(w + "/blocker", "x");
                dir = w + "/blocker/run";
                break;
            case Fault::TargetIsFolder:  // metrics.csv is a folder; the other files are written
                writeBytes(w + "/run/metrics.csv/keep.txt", "keep");
                dir = w + "/run";
                break;
            case Fault::Proc:
                dir = "/proc/ade-nope/run";
                break;
            default:  // a previous complete version of the folder
                dir = w + "/run";
                {
                    const auto first = writeRunFolder(str(dir), "run", "plan", config, result,
                                                      "first command", {});
                    QVERIFY2(first.ok, first.error.c_str());
                }
                if (f == Fault::ReadOnlyFile)
                    for (const char* name : {"/metrics.csv", "/summary.json"})
                        setMode(dir + name, 0444);
        }
        const FolderSnapshot before = snapshot(w);
        RunFiles files;
        auto write = [&] {
            return writeRunFolder(str(dir), "run", "plan", config, result, "second command", {});
        };
        if (f == Fault::ReadOnlyFolder) {
            EnforcePermissions enforce;
            bool made = makeUnwritableDir(dir);
            for (const char* sub : {"/params"})
                made = made && makeUnwritableDir(dir + sub);
            if (!made) QSKIP("cannot make a folder unwritable here");
            files = write();
            makeWritableAgain(dir + "/params");
            makeWritableAgain(dir);
        } else if (f == Fault::FullDisk) {
            FileSizeLimit full(64);  // smaller than any of the files: every write fails part-way
            files = write();
        } else {
            files = write();
        }
        QVERIFY(!files.ok);
        QVERIFY2(explains(qstr(files.error), dir, reason), files.error.c_str());
        qInfo("%s", files.error.c_str());
        const FolderSnapshot after = snapshot(w);
        if (f == Fault::TargetIsFolder) {
            QCOMPARE(after.value("run/metrics.csv/keep.txt"), QByteArray("keep"));
            QVERIFY(after.contains("run/summary.json"));
            QCOMPARE(after.size(), before.size() + 2 + int(result.finalParams.size()));
        } else if (f == Fault::ReadOnlyFile) {
            // The read-only files stay; the writable ones are updated (same names, no extras).
            QCOMPARE(after.keys(), before.keys());
            QCOMPARE(after.value("run/summary.json"), before.value("run/summary.json"));
            QCOMPARE(after.value("run/metrics.csv"), before.value("run/metrics.csv"));
        } else {
            QVERIFY2(after == before, qPrintable(describeDiff(before, after)));
        }
    }

    // ---- Session files ------------------------------------------------------------------------

    void sessionAwkwardPathRoundTrip() {
        const Session s = makeSession();
        const QString file = awkward + "/séance d'été ü.session.json";
        std::string err;
        QVERIFY2(writeSessionFile(str(file), s, true, &err), err.c_str());
        QCOMPARE(readBytes(file), QByteArray::fromStdString(sessionToText(s)));
        const auto r = readSessionFile(str(file));
        QVERIFY2(r.session, r.error.c_str());
        QCOMPARE(sessionToText(*r.session), sessionToText(s));  // exact round trip
    }

    void sessionWriteFailures_data() { addWriteRows(); }
    void sessionWriteFailures() {
        QFETCH(int, fault);
        QFETCH(QString, reason);
        const Fault f = Fault(fault);
        const QString w = work();
        Session old = makeSession();
        old.preset = "old";
        const QString target = prepareWriteFault(f, w, "session ü.json",
                                                 QByteArray::fromStdString(sessionToText(old)));
        const FolderSnapshot before = snapshot(w);
        std::string err;
        bool ok = true;
        if (f == Fault::ReadOnlyFolder) {
            EnforcePermissions enforce;
            if (!makeUnwritableDir(w + "/ro")) QSKIP("cannot make a folder unwritable here");
            ok = writeSessionFile(str(target), makeSession(), true, &err);
            makeWritableAgain(w + "/ro");
        } else if (f == Fault::FullDisk) {
            FileSizeLimit full(1024);
            ok = writeSessionFile(str(target), makeSession(), true, &err);
        } else {
            ok = writeSessionFile(str(target), makeSession(), true, &err);
        }
        QVERIFY(!ok);
        QVERIFY2(explains(qstr(err), target, reason), err.c_str());
        qInfo("%s", err.c_str());
        const FolderSnapshot after = snapshot(w);
        QVERIFY2(after == before, qPrintable(describeDiff(before, after)));
        if (f == Fault::FullDisk || f == Fault::ReadOnlyFile) {
            const auto r = readSessionFile(str(target));  // the old session still opens
            QVERIFY2(r.session, r.error.c_str());
            QCOMPARE(r.session->preset, std::string("old"));
        }
    }

    void sessionReadFailures_data() {
        QTest::addColumn<QString>("condition");
        QTest::addColumn<QString>("reason");
        QTest::newRow("missing") << "missing"
                                 << "No such file or directory";
        QTest::newRow("folder") << "folder"
                                << "folder";
        QTest::newRow("parent is a file") << "underfile"
                                          << "Not a directory";
        QTest::newRow("unreadable") << "unreadable"
                                    << "Permission denied";
        QTest::newRow("empty") << "empty"
                               << "empty";
        QTest::newRow("truncated") << "truncated"
                                   << "parse error";
    }
    void sessionReadFailures() {
        QFETCH(QString, condition);
        QFETCH(QString, reason);
        const QString w = work();
        QDir().mkpath(w);
        QString file = w + "/séance.json";
        const QByteArray text = QByteArray::fromStdString(sessionToText(makeSession()));
        if (condition == "folder") QDir().mkpath(file);
        if (condition == "underfile") {
            writeBytes(w + "/blocker", "x");
            file = w + "/blocker/séance.json";
        }
        if (condition == "unreadable") {
            writeBytes(file, text);
            setMode(file, 0000);
        }
        if (condition == "empty") writeBytes(file, "");
        if (condition == "truncated") writeBytes(file, text.left(text.size() / 2));
        SessionReadResult r;
        {
            std::optional<EnforcePermissions> enforce;
            if (condition == "unreadable") enforce.emplace();
            if (condition == "unreadable" && QFile(file).open(QIODevice::ReadOnly))
                QSKIP("cannot make a file unreadable here");
            r = readSessionFile(str(file));
        }
        QVERIFY(!r.session);
        QVERIFY2(explains(qstr(r.error), file, reason), r.error.c_str());
        qInfo("%s", r.error.c_str());
    }

    // ---- .npy cache (the Darcy data set): the one place .npy files are read back --------------

    void npyCacheRead_data() {
        QTest::addColumn<QString>("condition");
        QTest::newRow("missing") << "missing";
        QTest::newRow("corrupt") << "corrupt";
        QTest::newRow("folder instead of file") << "folder";
        QTest::newRow("unreadable") << "unreadable";
        QTest::newRow("full disk") << "fulldisk";
    }
    void npyCacheRead() {
        QFETCH(QString, condition);
        const QString cache = awkward + "/cache " + condition;  // awkward path as well
        QDir().mkpath(cache);
        qputenv("ADE_CACHE_DIR", cache.toUtf8());
        // Never fall back to the real home cache if the test's folder failed.
        qputenv("XDG_CACHE_HOME", QFile::encodeName(tmp.filePath("xdg")));
        DarcySpec spec;
        spec.resolution = 6;
        bool generated = false;
        std::string file;
        // Reference: generated from scratch into a scratch cache.
        const DarcySet reference = generateDarcy(spec, 3, 7, 0);
        // A first call creates the cache file; its name is what the faults act on.
        loadOrGenerateDarcy(spec, 3, 7, 0, nullptr, &generated, &file);
        QVERIFY(generated);
        QVERIFY2(QFileInfo::exists(qstr(file)), file.c_str());
        const QByteArray good = readBytes(qstr(file));
        QVERIFY(good.size() > 0);
        loadOrGenerateDarcy(spec, 3, 7, 0, nullptr, &generated);
        QVERIFY(!generated);  // read back from the non-ASCII folder
        const QString f = qstr(file);
        QFile::remove(f);
        if (condition == "corrupt") writeBytes(f, good.left(good.size() - 9));
        if (condition == "folder") writeBytes(f + "/keep.txt", "keep");
        if (condition == "unreadable") {
            writeBytes(f, good);
            setMode(f, 0000);
        }
        DarcySet set;
        {
            std::optional<EnforcePermissions> enforce;
            std::optional<FileSizeLimit> full;
            if (condition == "unreadable") enforce.emplace();
            if (condition == "fulldisk") full.emplace(512);
            set = loadOrGenerateDarcy(spec, 3, 7, 0, nullptr, &generated);
        }
        QVERIFY(generated);  // whatever was there, the data came from the solver
        QVERIFY(set.a == reference.a && set.u == reference.u);
        if (condition == "missing" || condition == "corrupt")
            QCOMPARE(readBytes(f), good);  // the cache is (re)written in full
        if (condition == "folder") QCOMPARE(readBytes(f + "/keep.txt"), QByteArray("keep"));
        if (condition == "fulldisk") QVERIFY(!QFileInfo::exists(f));
        QCOMPARE(QDir(cache).entryList(QDir::Files | QDir::Hidden).filter(".tmp"), QStringList());
        if (condition == "unreadable") setMode(f, 0644);
        qunsetenv("ADE_CACHE_DIR");
        qunsetenv("XDG_CACHE_HOME");
    }

    // ---- Config and preset files --------------------------------------------------------------

    void configFileFailures_data() {
        QTest::addColumn<QString>("condition");
        QTest::addColumn<QString>("reason");
        QTest::newRow("missing") << "missing"
                                 << "No such file or directory";
        QTest::newRow("folder") << "folder"
                                << "is a directory";
        QTest::newRow("parent is a file") << "underfile"
                                          << "Not a directory";
        QTest::newRow("unreadable") << "unreadable"
                                    << "Permission denied";
        QTest::newRow("empty") << "empty"
                               << "";
    }
    void configFileFailures() {
        QFETCH(QString, condition);
        QFETCH(QString, reason);
        const QString w = work();
        QDir().mkpath(w);
        QString file = w + "/réglage ü.json";
        if (condition == "folder") QDir().mkpath(file);
        if (condition == "underfile") {
            writeBytes(w + "/blocker", "x");
            file = w + "/blocker/réglage.json";
        }
        if (condition == "unreadable") {
            writeBytes(file, R"({"iterations": 5})");
            setMode(file, 0000);
        }
        if (condition == "empty") writeBytes(file, "");
        PlanError pe;
        std::optional<Plan> plan;
        {
            std::optional<EnforcePermissions> enforce;
            if (condition == "unreadable") enforce.emplace();
            if (condition == "unreadable" && QFile(file).open(QIODevice::ReadOnly))
                QSKIP("cannot make a file unreadable here");
            plan = loadPlanFile(str(file), {}, &pe);
        }
        QVERIFY(!plan);
        // An unreadable or odd file is named by its full path; a parse error by its name.
        const QString named = condition == "empty" ? QString("réglage ü") : file;
        QVERIFY2(explains(qstr(pe.message), named, reason), pe.message.c_str());
        qInfo("%s", pe.message.c_str());
    }

    void configAndPresetsFromAwkwardPaths() {
        const QString presets = awkward + "/presets é";
        writeBytes(presets + "/mon préréglage.json",
                   R"({"name": "mon-prereglage", "description": "déjà vu ü",
                       "config": {"iterations": 5, "data": {"n": 8, "prompts": 2}}})");
        QDir().mkpath(presets + "/a folder.json");  // a folder that looks like a preset
        writeBytes(presets + "/unreadable.json", R"({"name": "hidden"})");
        setMode(presets + "/unreadable.json", 0000);
        std::optional<PresetLibrary> lib;
        {
            EnforcePermissions enforce;
            lib.emplace(std::vector<std::filesystem::path>{str(presets)});
        }
        QVERIFY(lib->find("mon-prereglage"));
        QCOMPARE(lib->find("mon-prereglage")->description, std::string("déjà vu ü"));
        PlanError pe;
        auto plan = lib->load("mon-prereglage", {}, &pe);
        QVERIFY2(plan, pe.message.c_str());
        QCOMPARE(plan->runs.front().config.getInt("iterations"), 5);
        // The folder is listed as a malformed entry at worst; loading it says what it is.
        if (lib->find("a folder")) {
            QVERIFY(!lib->load("a folder", {}, &pe));
            QVERIFY2(explains(qstr(pe.message), presets + "/a folder.json", "directory"),
                     pe.message.c_str());
        }
        plan = loadPlanFile(str(presets + "/mon préréglage.json"), {"seed=4"}, &pe);
        QVERIFY2(plan, pe.message.c_str());
        QCOMPARE(plan->runs.front().config.getInt("seed"), 4);
        setMode(presets + "/unreadable.json", 0644);
    }

    // ---- The CLI: run / sweep / --config / --preset ------------------------------------------

    void cliRunAwkwardPaths() {
        QVERIFY(QFileInfo(cliPath()).isExecutable());
        const QString cfg = awkward + "/réglage d'été.json";
        writeBytes(cfg,
                   R"({"experiment": "a", "iterations": 20, "data": {"n": 16, "prompts": 4}})");
        const QString out = awkward + "/sortie é ü";
        const ProcessResult r =
            runProgram(cliPath(), {"run", "--config", cfg, "--out", out, "--save-data", "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto s = readSessionFile(str(out + "/session.json"));
        QVERIFY2(s.session, s.error.c_str());
        QCOMPARE(s.session->runs.size(), std::size_t(1));
        const QString run = out + "/" + qstr(s.session->runs.front().name);
        QCOMPARE(readBytes(run + "/metrics.csv"),
                 QByteArray::fromStdString(historyCsv(s.session->runs.front().history)));
        const auto summary = nlohmann::json::parse(readBytes(run + "/summary.json").toStdString());
        QVERIFY(qstr(summary["command"].get<std::string>()).contains("réglage d'\\''été.json"));
        std::string err;
        QVERIFY(decodeNpy(readBytes(run + "/data/X_train.npy").toStdString(), &err));
        QVERIFY(QDir(out).entryList(QDir::Files).filter(".tmp").isEmpty());
    }

    void cliPresetFromAwkwardResources() {
        const QString res = awkward + "/ressources ü";
        QDir().mkpath(res + "/presets");
        writeBytes(res + "/presets/été.json",
                   R"({"name": "ete", "description": "summer ü", "config": {"iterations": 10}})");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("ADE_RESOURCES", res);
        p.setProcessEnvironment(env);
        p.start(cliPath(), {"presets"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QString::fromUtf8(p.readAllStandardOutput()).contains("summer ü"));
        p.start(cliPath(),
                QStringList{"run", "--preset", "ete", "--out", awkward + "/été"} + kSmall.mid(2));
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY(QFileInfo::exists(awkward + "/été/session.json"));
    }

    void cliInputFailures_data() {
        QTest::addColumn<QString>("condition");
        QTest::addColumn<QString>("reason");
        QTest::newRow("missing config") << "missing"
                                        << "No such file or directory";
        QTest::newRow("config is a folder") << "folder"
                                            << "is a directory";
        QTest::newRow("config under a file") << "underfile"
                                             << "Not a directory";
        QTest::newRow("unreadable config") << "unreadable"
                                           << "Permission denied";
    }
    void cliInputFailures() {
        QFETCH(QString, condition);
        QFETCH(QString, reason);
        const QString w = work();
        QDir().mkpath(w);
        QString cfg = w + "/réglage ü.json";
        ChildFaults faults;
        if (condition == "folder") QDir().mkpath(cfg);
        if (condition == "underfile") {
            writeBytes(w + "/blocker", "x");
            cfg = w + "/blocker/c.json";
        }
        if (condition == "unreadable") {
            writeBytes(cfg, R"({"iterations": 5})");
            setMode(cfg, 0000);
            faults.enforcePermissions = true;
            if (!runProgram("/bin/cat", {cfg}, faults).code) QSKIP("cannot make a file unreadable");
        }
        const ProcessResult r = runProgram(
            cliPath(), QStringList{"run", "--config", cfg, "--out", w + "/out"} + kSmall, faults);
        QCOMPARE(r.code, 2);
        QVERIFY2(explains(r.err, cfg, reason), qPrintable(r.err));
        qInfo("exit %d: %s", r.code, qPrintable(r.err.trimmed()));
        QVERIFY(!QFileInfo::exists(w + "/out"));
    }

    void cliRunFailures_data() {
        addWriteRows();
        QTest::newRow("out is a file") << -1 << "";
        QTest::newRow("session.json is a folder") << -2 << "Is a directory";
    }
    void cliRunFailures() {
        QFETCH(int, fault);
        QFETCH(QString, reason);
        const QString w = work();
        QDir().mkpath(w);
        QString out = w + "/sortie ü";
        const QStringList args = {"run", "--preset", "a-same-start", "--out"};
        ChildFaults faults;
        // Rows with a previous output: a complete earlier run in `out`.
        const bool previous = fault == int(Fault::ReadOnlyFolder) ||
                              fault == int(Fault::ReadOnlyFile) || fault == int(Fault::FullDisk) ||
                              fault == -2;
        if (previous) {
            const ProcessResult first = runProgram(cliPath(), args + QStringList{out} + kSmall);
            QVERIFY2(first.code == 0, qPrintable(first.err));
        }
        QString named = out;  // the path the message must name
        switch (fault) {
            case int(Fault::ParentIsFile):
                writeBytes(w + "/blocker", "x");
                out = named = w + "/blocker/out";
                break;
            case int(Fault::TargetIsFolder):  // every metrics.csv path is a folder
                for (const char* run : {"alg1", "gd"})
                    writeBytes(out + "/" + run + "/metrics.csv/keep.txt", "keep");
                named = out + "/alg1/metrics.csv";
                break;
            case int(Fault::ReadOnlyFolder):
                faults.enforcePermissions = true;
                for (const QString& d :
                     {out, out + "/alg1", out + "/gd", out + "/alg1/params", out + "/gd/params"})
                    setMode(d, 0555);
                if (!childCannotWriteIn(out, faults)) {
                    for (const QString& d : {out, out + "/alg1", out + "/gd", out + "/alg1/params",
                                             out + "/gd/params"})
                        setMode(d, 0755);
                    QSKIP("cannot make a folder unwritable for the CLI here");
                }
                break;
            case int(Fault::ReadOnlyFile):
                setMode(out + "/session.json", 0444);
                named = out + "/session.json";
                break;
            case int(Fault::FullDisk):
                faults.fileSizeLimit = 300;  // every output file is larger than this
                break;
            case int(Fault::Proc):
                out = named = "/proc/ade-nope/out";
                break;
            case -1:
                writeBytes(out, "a regular file where the output folder should be\n");
                break;
            case -2:
                QFile::remove(out + "/session.json");
                writeBytes(out + "/session.json/keep.txt", "keep");
                named = out + "/session.json";
                break;
        }
        const FolderSnapshot before = snapshot(w);
        const ProcessResult r = runProgram(cliPath(), args + QStringList{out} + kSmall, faults);
        for (const QString& d :
             {out, out + "/alg1", out + "/gd", out + "/alg1/params", out + "/gd/params"})
            if (fault == int(Fault::ReadOnlyFolder)) setMode(d, 0755);
        QCOMPARE(r.code, 4);
        QVERIFY2(explains(r.err, named, reason), qPrintable(r.err));
        qInfo("exit %d: %s", r.code, qPrintable(r.err.trimmed()));
        const FolderSnapshot after = snapshot(w);
        QVERIFY2(leftovers(after).isEmpty(), qPrintable(leftovers(after).join(", ")));
        if (fault == int(Fault::ReadOnlyFile)) {
            // The run folders are written afresh; the read-only session.json stays.
            QCOMPARE(after.keys(), before.keys());
            QCOMPARE(after.value("sortie ü/session.json"), before.value("sortie ü/session.json"));
        } else if (fault == -2 || fault == int(Fault::TargetIsFolder)) {
            // The folders in the way are untouched; everything else is written.
            for (auto it = before.begin(); it != before.end(); ++it)
                if (it.key().endsWith("keep.txt")) QCOMPARE(after.value(it.key()), it.value());
            QVERIFY(after.contains("sortie ü/gd/summary.json"));
        } else {
            QVERIFY2(after == before, qPrintable(describeDiff(before, after)));
        }
    }

    void cliUnusableOutFailsBeforeRunning_data() {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("condition");
        QTest::addColumn<QString>("reason");
        for (const char* cmd : {"run", "sweep"}) {
            QTest::newRow(qPrintable(QString(cmd) + " out is a file")) << cmd << "outfile"
                                                                       << "not a folder";
            QTest::newRow(qPrintable(QString(cmd) + " out under a file")) << cmd << "underfile"
                                                                          << "Not a directory";
            QTest::newRow(qPrintable(QString(cmd) + " read-only folder")) << cmd << "readonly"
                                                                          << "Permission denied";
            QTest::newRow(qPrintable(QString(cmd) + " under /proc")) << cmd << "proc"
                                                                     << "";
        }
    }
    void cliUnusableOutFailsBeforeRunning() {
        // A run that would take many minutes: an unusable --out must be reported at once
        // (exit 4), not after the computation, whose results would then be lost.
        QFETCH(QString, command);
        QFETCH(QString, condition);
        QFETCH(QString, reason);
        const QString w = work();
        QDir().mkpath(w);
        QString out = w + "/sortie ü";
        ChildFaults faults;
        if (condition == "outfile") writeBytes(out, "x");
        if (condition == "underfile") {
            writeBytes(w + "/blocker", "x");
            out = w + "/blocker/out";
        }
        if (condition == "readonly") {
            QDir().mkpath(out);
            setMode(out, 0555);
            faults.enforcePermissions = true;
            if (!childCannotWriteIn(out, faults)) QSKIP("cannot make a folder unwritable here");
        }
        if (condition == "proc") out = "/proc/ade-nope/out";
        QStringList args = {command, "--preset", "a-same-start",          "--out",
                            out,     "--set",    "iterations=1000000000", "--quiet"};
        if (command == "sweep")
            args << "--vary"
                 << "data.n=8,16";
        const FolderSnapshot before = snapshot(w);
        QElapsedTimer t;
        t.start();
        const ProcessResult r = runProgram(cliPath(), args, faults, 60000);
        if (condition == "readonly") setMode(out, 0755);
        QCOMPARE(r.code, 4);
        QVERIFY2(explains(r.err, out, reason), qPrintable(r.err));
        qInfo("exit %d after %lld ms: %s", r.code, t.elapsed(), qPrintable(r.err.trimmed()));
        QVERIFY2(snapshot(w) == before, qPrintable(describeDiff(before, snapshot(w))));
    }

    void cliSweepFailures_data() {
        QTest::addColumn<QString>("condition");
        QTest::addColumn<QString>("reason");
        QTest::newRow("full disk") << "fulldisk"
                                   << "File too large";
        QTest::newRow("sweep.csv read-only") << "readonly"
                                             << "read-only";
        QTest::newRow("out is a file") << "outfile"
                                       << "";
    }
    void cliSweepFailures() {
        QFETCH(QString, condition);
        QFETCH(QString, reason);
        const QString w = work();
        QDir().mkpath(w);
        const QString out = w + "/balayage é";
        const QStringList args = {"sweep",
                                  "--preset",
                                  "a-same-start",
                                  "--vary",
                                  "data.n=8,16",
                                  "--seeds",
                                  "1",
                                  "--jobs",
                                  "2",
                                  "--set",
                                  "iterations=10",
                                  "--set",
                                  "data.prompts=2",
                                  "--quiet",
                                  "--out",
                                  out};
        ChildFaults faults;
        QString named = out;
        if (condition == "outfile") {
            writeBytes(out, "x");
        } else {
            const ProcessResult first = runProgram(cliPath(), args);
            QVERIFY2(first.code == 0, qPrintable(first.err));
            QVERIFY(QFileInfo::exists(out + "/sweep.csv"));
        }
        if (condition == "fulldisk") faults.fileSizeLimit = 200;
        if (condition == "readonly") {
            setMode(out + "/sweep.csv", 0444);
            named = out + "/sweep.csv";
        }
        const FolderSnapshot before = snapshot(w);
        const ProcessResult r = runProgram(cliPath(), args, faults);
        QCOMPARE(r.code, 4);
        QVERIFY2(explains(r.err, named, reason), qPrintable(r.err));
        qInfo("exit %d: %s", r.code, qPrintable(r.err.trimmed()));
        const FolderSnapshot after = snapshot(w);
        if (condition == "readonly") {
            QCOMPARE(after.keys(), before.keys());
            QCOMPARE(after.value("balayage é/sweep.csv"), before.value("balayage é/sweep.csv"));
        } else {
            QVERIFY2(after == before, qPrintable(describeDiff(before, after)));
        }
    }

    void cliSweepAwkwardPath() {
        const QString out = awkward + "/balayage d'été";
        const ProcessResult r =
            runProgram(cliPath(), {"sweep", "--preset", "a-same-start", "--vary", "data.n=8,16",
                                   "--seeds", "1", "--set", "iterations=10", "--set",
                                   "data.prompts=2", "--quiet", "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(out + "/sweep.csv"));
        const QStringList rows =
            QString::fromUtf8(readBytes(out + "/sweep.csv")).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 1 + 2 * 2);
        QVERIFY(QFileInfo::exists(out + "/fit.json"));
    }
};

QTEST_GUILESS_MAIN(TestFiles)
#include "tst_files.moc"
