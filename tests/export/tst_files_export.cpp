// File-system hardening (issue 6) for the GUI's exports: FigureRenderer (PNG/SVG/PDF), DataExport
// (CSV/JSON/.npy) and the CLI's `figure` command, against missing inputs, unwritable folders,
// directory-instead-of-file, read-only targets, a full disk and awkward (spaces, non-ASCII)
// paths. Failures name the path and the reason and leave the previous version byte-identical
// with no temporary file behind; awkward paths round-trip exactly. The core writers and the
// CLI's run/sweep are covered by tests/core/tst_files.cpp; FileFaults.h explains how the faults
// are made to fail as root.
#include <QtTest>
#include <QtWidgets>

#include "export/DataExport.h"
#include "charts/FigureRenderer.h"
#include "FileFaults.h"
#include "RealRuns.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "io/Files.h"
#include "io/Npy.h"
#include "output/RunOutput.h"
#include "training/Trainer.h"

using namespace ade;
using namespace ade::ui;
using namespace filefaults;

namespace {

using testproc::cliPath;

enum class Fault { ParentIsFile, TargetIsFolder, ReadOnlyFolder, ReadOnlyFile, FullDisk, Proc };

void addFaultRows(const QString& prefix) {
    const struct {
        const char* name;
        Fault fault;
        const char* reason;
    } rows[] = {{"parent is a file", Fault::ParentIsFile, "Not a directory"},
                {"target is a folder", Fault::TargetIsFolder, "Is a directory"},
                {"read-only folder", Fault::ReadOnlyFolder, "Permission denied"},
                {"read-only file", Fault::ReadOnlyFile, "read-only"},
                {"full disk", Fault::FullDisk, "File too large"},
                {"under /proc", Fault::Proc, ""}};
    for (const auto& r : rows)
        QTest::newRow(qPrintable(prefix + " " + r.name))
            << prefix << int(r.fault) << QString::fromLatin1(r.reason);
}

// Puts `fault` in place for writing `dir`/`name` under the fresh folder `work`; returns the
// folder to write into (the target is <folder>/<name>).
QString prepare(Fault fault, const QString& work, const QString& name, const QByteArray& previous) {
    QDir().mkpath(work);
    switch (fault) {
        case Fault::ParentIsFile:
            writeBytes(work + "/blocker", "a regular file\n");
            return work + "/blocker/sub";
        case Fault::TargetIsFolder:
            writeBytes(work + "/out/" + name + "/keep.txt", "inside the folder\n");
            return work + "/out";
        case Fault::ReadOnlyFolder:
        case Fault::FullDisk:
            writeBytes(work + "/out/" + name, previous);
            return work + "/out";
        case Fault::ReadOnlyFile:
            writeBytes(work + "/out/" + name, previous);
            setMode(work + "/out/" + name, 0444);
            return work + "/out";
        case Fault::Proc:
            return "/proc/ade-nope";
    }
    return {};
}

bool looksLike(FigureFormat f, const QByteArray& bytes) {
    switch (f) {
        case FigureFormat::Png:
            return bytes.startsWith("\x89PNG\r\n\x1a\n") &&
                   QImage::fromData(bytes, "PNG").width() > 0;
        case FigureFormat::Svg:
            return bytes.contains("<svg") && bytes.trimmed().endsWith("</svg>");
        case FigureFormat::Pdf:
            return bytes.startsWith("%PDF-") && bytes.trimmed().endsWith("%%EOF");
    }
    return false;
}

}  // namespace

class TestFilesExport : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    RunStore store;
    ChartSpec loss;
    QString awkward;

    QString work() const {
        QString tag = QString::fromUtf8(QTest::currentDataTag());
        tag.replace('/', '_');
        return tmp.filePath(QString("w-") + QTest::currentTestFunction() + "-" + tag);
    }
    std::vector<const RunRecord*> records() const {
        std::vector<const RunRecord*> out;
        for (const auto& r : store.runs())
            out.push_back(r.get());
        return out;
    }

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        addRealRun(store, "exécution ü", "gd");
        addRealRun(store, "sgd run", "sgd");
        loss = chartSpec(std::string("loss"));
        awkward = tmp.filePath(kAwkwardDir);
    }

    // ---- FigureRenderer -----------------------------------------------------------------------

    void figureAwkwardPaths_data() {
        QTest::addColumn<int>("format");
        QTest::newRow("png") << int(FigureFormat::Png);
        QTest::newRow("svg") << int(FigureFormat::Svg);
        QTest::newRow("pdf") << int(FigureFormat::Pdf);
    }
    void figureAwkwardPaths() {
        QFETCH(int, format);
        const auto f = FigureFormat(format);
        const QString dir = awkward + "/figures ü " + figureSuffix(f);
        const QString path = dir + "/courbe d'été." + figureSuffix(f);
        FigureOptions o;
        o.size = QSize(600, 400);
        o.title = "Perte d'été ü";
        QString error;
        QVERIFY2(renderFigure(loss, store, o, f, path, &error), qPrintable(error));
        QVERIFY(looksLike(f, readBytes(path)));
        // Replacing it works as well and leaves the figure alone in its folder.
        o.title = "second";
        QVERIFY2(renderFigure(loss, store, o, f, path, &error), qPrintable(error));
        QVERIFY(looksLike(f, readBytes(path)));
        QCOMPARE(snapshot(dir).keys(), QStringList{"courbe d'été." + figureSuffix(f)});
    }

    void figureFailures_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("reason");
        for (const char* fmt : {"png", "svg", "pdf"})
            addFaultRows(fmt);
    }
    void figureFailures() {
        QFETCH(QString, format);
        QFETCH(int, fault);
        QFETCH(QString, reason);
        const Fault f = Fault(fault);
        FigureFormat ff;
        QVERIFY(parseFigureFormat(format, &ff));
        const QString w = work();
        const QString name = "courbe ü." + format;
        const QString dir = prepare(f, w, name, QByteArray("previous figure\n").repeated(512));
        const QString target = dir + "/" + name;
        const DirSnapshot before = snapshot(w);
        QString error;
        bool ok = true;
        if (f == Fault::ReadOnlyFolder) {
            EnforcePermissions enforce;
            if (!makeUnwritableDir(dir)) QSKIP("cannot make a folder unwritable here");
            ok = renderFigure(loss, store, FigureOptions(), ff, target, &error);
            makeWritableAgain(dir);
        } else if (f == Fault::FullDisk) {
            FileSizeLimit full(2048);
            ok = renderFigure(loss, store, FigureOptions(), ff, target, &error);
        } else {
            ok = renderFigure(loss, store, FigureOptions(), ff, target, &error);
        }
        QVERIFY(!ok);
        QVERIFY2(explains(error, target, reason), qPrintable(error));
        qInfo("%s", qPrintable(error));
        const DirSnapshot after = snapshot(w);
        QVERIFY2(after == before, qPrintable(describeDiff(before, after)));
    }

    void renderAllIntoUnusableFolder() {
        const QString w = work();
        writeBytes(w + "/figures", "a file where the folder should be");
        QString error;
        QVERIFY(
            renderAllFigures(store, FigureOptions(), {FigureFormat::Svg}, w + "/figures", &error)
                .isEmpty());
        QVERIFY2(explains(error, w + "/figures", ""), qPrintable(error));
        QVERIFY2(error.contains(": "), qPrintable(error));  // and says why
        qInfo("%s", qPrintable(error));
        QCOMPARE(readBytes(w + "/figures"), QByteArray("a file where the folder should be"));
    }

    // ---- DataExport ---------------------------------------------------------------------------

    void dataExportAwkwardRoundTrip() {
        const QString dir = awkward + "/données ü";
        QString error;
        const QStringList csv = exportRunsCsv(records(), dir, {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(csv.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const RunRecord& r = *store.runs()[i];
            QString body;
            for (const QString& line : QString::fromUtf8(readBytes(csv[i])).split('\n'))
                if (!line.startsWith('#')) body += line + '\n';
            body.chop(1);
            QCOMPARE(body, QString::fromStdString(historyCsv(r.history())));
        }
        const QString json = dir + "/toutes les exécutions ü.json";
        QVERIFY2(exportRunsJson(records(), json, {}, &error), qPrintable(error));
        const auto doc = nlohmann::json::parse(readBytes(json).toStdString());
        QCOMPARE(doc["runs"][0]["name"].get<std::string>(), std::string("exécution ü"));
        const MetricHistory h = store.runs()[0]->history();
        QCOMPARE(doc["runs"][0]["rows"].size(), h.rows.size());
        for (std::size_t r = 0; r < h.rows.size(); ++r)
            for (std::size_t c = 0; c < h.rows[r].size(); ++c)
                if (std::isfinite(h.rows[r][c]))
                    QCOMPARE(doc["runs"][0]["rows"][r][c].get<double>(), h.rows[r][c]);  // exact
        const QStringList npy = exportParamsNpy(*store.runs()[0], dir + "/paramètres", &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const ParamSet& p = *store.runs()[0]->finalParams;
        QCOMPARE(std::size_t(npy.size()), p.size());
        for (std::size_t i = 0; i < p.size(); ++i) {
            std::string err;
            const auto a = decodeNpy(readBytes(npy[int(i)]).toStdString(), &err);
            QVERIFY2(a, err.c_str());
            QVERIFY(a->values == toNamedArray(p.names[i], p[i]).values);  // bit-exact
        }
        QVERIFY(leftovers(snapshot(dir)).isEmpty());
    }

    void dataExportFailures_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("fault");
        QTest::addColumn<QString>("reason");
        for (const char* fmt : {"csv", "json", "npy"})
            addFaultRows(fmt);
    }
    void dataExportFailures() {
        QFETCH(QString, format);
        QFETCH(int, fault);
        QFETCH(QString, reason);
        const Fault f = Fault(fault);
        const RunRecord& run = *store.runs()[0];
        // The first file each export writes.
        const QString name =
            format == "csv" ? QString::fromStdString(safeName(run.name.toStdString())) + ".csv"
            : format == "json"
                ? QString("données ü.json")
                : QString::fromStdString(safeName(run.finalParams->names[0])) + ".npy";
        const QString w = work();
        const QString dir = prepare(f, w, name, QByteArray("previous export\n").repeated(512));
        const QString target = dir + "/" + name;
        const DirSnapshot before = snapshot(w);
        QString error;
        auto attempt = [&] {
            if (format == "csv") return !exportRunsCsv({&run}, dir, {}, &error).isEmpty();
            if (format == "json") return exportRunsJson({&run}, target, {}, &error);
            return !exportParamsNpy(run, dir, &error).isEmpty();
        };
        bool ok = true;
        if (f == Fault::ReadOnlyFolder) {
            EnforcePermissions enforce;
            if (!makeUnwritableDir(dir)) QSKIP("cannot make a folder unwritable here");
            ok = attempt();
            makeWritableAgain(dir);
        } else if (f == Fault::FullDisk) {
            FileSizeLimit full(64);  // smaller than any export: every write fails part-way
            ok = attempt();
        } else {
            ok = attempt();
        }
        QVERIFY(!ok);
        QVERIFY2(explains(error, target, reason), qPrintable(error));
        qInfo("%s", qPrintable(error));
        const DirSnapshot after = snapshot(w);
        QVERIFY2(after == before, qPrintable(describeDiff(before, after)));
    }

    // ---- CLI figure ---------------------------------------------------------------------------

    void cliFigureAwkwardPaths() {
        const QString session = awkward + "/séance ü.json";
        std::string err;
        QVERIFY2(writeSessionFile(session.toStdString(), sessionFromStore(store), true, &err),
                 err.c_str());
        const QString out = awkward + "/figures d'été";
        const ProcessResult r =
            runProgram(cliPath(), {"figure", "--session", session, "--out", out, "--format",
                                   "png,svg,pdf", "--size", "400x300"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(looksLike(FigureFormat::Png, readBytes(out + "/loss.png")));
        QVERIFY(looksLike(FigureFormat::Svg, readBytes(out + "/loss.svg")));
        QVERIFY(looksLike(FigureFormat::Pdf, readBytes(out + "/loss.pdf")));
        const auto back = readSessionFile((out + "/session.json").toStdString());
        QVERIFY2(back.session, back.error.c_str());
        QCOMPARE(back.session->runs.front().name, std::string("exécution ü"));
        QVERIFY(leftovers(snapshot(out)).isEmpty());
    }

    void cliFigureUnusableOutFailsBeforeRunning() {
        // `figure --preset` runs the preset first: an unusable --out is reported before that.
        const QString w = work();
        writeBytes(w + "/figures", "a file where the folder should be");
        const ProcessResult r = runProgram(cliPath(),
                                           {"figure", "--preset", "a-same-start", "--set",
                                            "iterations=1000000000", "--out", w + "/figures"},
                                           {}, 60000);
        QCOMPARE(r.code, 4);
        QVERIFY2(explains(r.err, w + "/figures", "not a folder"), qPrintable(r.err));
        QCOMPARE(readBytes(w + "/figures"), QByteArray("a file where the folder should be"));
    }

    void cliFigureFailures_data() {
        QTest::addColumn<QString>("condition");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::newRow("missing session") << "missing" << 2 << "No such file or directory";
        QTest::newRow("session is a folder") << "sessionfolder" << 2 << "folder";
        QTest::newRow("out is a file") << "outfile" << 4 << "";
        QTest::newRow("out under a file") << "underfile" << 4 << "";
        QTest::newRow("read-only figure") << "readonly" << 4 << "read-only";
        QTest::newRow("full disk") << "fulldisk" << 4 << "File too large";
    }
    void cliFigureFailures() {
        QFETCH(QString, condition);
        QFETCH(int, code);
        QFETCH(QString, reason);
        const QString w = work();
        QDir().mkpath(w);
        QString session = w + "/séance.json";
        QString out = w + "/figures é";
        std::string err;
        QVERIFY(writeSessionFile(session.toStdString(), sessionFromStore(store), true, &err));
        QStringList args = {"--format", "png,svg", "--size", "400x300"};
        QString named = out;
        ChildFaults faults;
        if (condition == "missing") session = named = w + "/absente.json";
        if (condition == "sessionfolder") {
            session = named = w + "/dossier.json";
            QDir().mkpath(session);
        }
        if (condition == "outfile") writeBytes(out, "x");
        if (condition == "underfile") {
            writeBytes(w + "/blocker", "x");
            out = named = w + "/blocker/figures";
        }
        if (condition == "readonly" || condition == "fulldisk") {
            const ProcessResult first = runProgram(
                cliPath(), QStringList{"figure", "--session", session, "--out", out} + args);
            QVERIFY2(first.code == 0, qPrintable(first.err));
        }
        if (condition == "readonly") {
            setMode(out + "/loss.png", 0444);
            named = out + "/loss.png";
        }
        if (condition == "fulldisk") faults.fileSizeLimit = 1024;
        const DirSnapshot before = snapshot(w);
        const ProcessResult r = runProgram(
            cliPath(), QStringList{"figure", "--session", session, "--out", out} + args, faults);
        QCOMPARE(r.code, code);
        QVERIFY2(explains(r.err, named, reason), qPrintable(r.err));
        qInfo("exit %d: %s", r.code, qPrintable(r.err.trimmed()));
        const DirSnapshot after = snapshot(w);
        if (condition == "readonly") {
            // Stops at the read-only figure; what it wrote before is complete, nothing is left.
            QCOMPARE(after.keys(), before.keys());
            QCOMPARE(after.value("figures é/loss.png"), before.value("figures é/loss.png"));
        } else {
            QVERIFY2(after == before, qPrintable(describeDiff(before, after)));
        }
    }
};

QTEST_MAIN(TestFilesExport)
#include "tst_files_export.moc"
