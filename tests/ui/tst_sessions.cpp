// Sessions in the window: save -> open restores runs and charts exactly (x: wall time too; an
// older session without it still opens); malformed files leave the window as it was; recovery
// after a crash; copy/paste config; continue a stopped run; export every chart of a finished
// comparison; the export folder dialog creates a folder.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QDir>
#include <QFileDialog>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include "charts/ChartArea.h"
#include "export/DataExport.h"
#include "Configs.h"
#include "export/FolderDialog.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "sessions/SessionManager.h"
#include "TestWindow.h"

using namespace ade::ui;

namespace {

using adetest::makeWindow;

ade::Config tiny(long iterations, const char* optimizer = "gd") {
    return adetest::tinyA(iterations, {{"optimizer", optimizer}});
}

void runTwo(MainWindow& w) {
    QSignalSpy done(w.controller(), &RunController::allFinished);
    w.controller()->start("gd", tiny(30));
    w.controller()->start("sgd", tiny(40, "sgd"));
    QVERIFY(done.wait(30000));
    w.controller()->drain();
}

}  // namespace

class TestSessions : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void saveAndOpenRestoreRunsExactly() {
        auto w = makeWindow();
        runTwo(*w);
        w->charts()->setLogX(true);
        w->charts()->setWallTimeX(true);
        w->store()->setVisible(w->store()->runs()[1]->id, false);
        const QString file = tmp.filePath("two runs ü.json");
        QString error;
        QVERIFY2(w->sessions()->saveSession(file, &error), qPrintable(error));

        auto v = makeWindow();
        QVERIFY2(v->sessions()->openSession(file, &error), qPrintable(error));
        QCOMPARE(v->store()->runs().size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i) {
            const RunRecord& a = *w->store()->runs()[i];
            const RunRecord& b = *v->store()->runs()[i];
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.visible, a.visible);
            QCOMPARE(b.state, a.state);
            QCOMPARE(b.colorIndex, a.colorIndex);
            QVERIFY(b.columns == a.columns);
            QVERIFY(b.data == a.data);
            QVERIFY(b.config.toJson() == a.config.toJson());
            QVERIFY(b.finalParams && (*b.finalParams)[0] == (*a.finalParams)[0]);
        }
        QVERIFY(v->charts()->logX());
        QVERIFY(v->charts()->wallTimeX());  // x: wall time is saved with the session
    }

    // A session of an older version (no wall-time field) still opens, and leaves x as it is.
    // A float32 run says so in the run list, and its session and its exported data record it.
    void aRunsPrecisionIsShownSavedAndExported() {
        auto w = makeWindow();
        QSignalSpy done(w->controller(), &RunController::allFinished);
        w->controller()->start("single", adetest::tinyA(30, {{"precision", "float32"}}));
        w->controller()->start("double", tiny(30));
        QVERIFY(done.wait(30000));
        w->controller()->drain();
        const auto& runs = w->store()->runs();
        QCOMPARE(runs.size(), std::size_t(2));
        RunListWidget* list = w->runList();
        const QString single = list->itemForRun(runs[0]->id)->text(list->paramsColumn());
        const QString dbl = list->itemForRun(runs[1]->id)->text(list->paramsColumn());
        QVERIFY2(single.endsWith(QStringLiteral(" float32")), qPrintable(single));
        QVERIFY2(!dbl.contains(QStringLiteral("float")), qPrintable(dbl));
        QVERIFY(runs[0]->state == RunState::Completed);
        QVERIFY(runs[0]->data.size() > 0);
        // The two runs differ in precision only: a column of its own.
        bool column = false;
        for (int c = 0; c < list->columnCount(); ++c)
            column = column || list->headerItem()->text(c).contains(QStringLiteral("Precision"));
        QVERIFY(column);

        const QString file = tmp.filePath("precision.json");
        QString error;
        QVERIFY2(w->sessions()->saveSession(file, &error), qPrintable(error));
        auto v = makeWindow();
        QVERIFY2(v->sessions()->openSession(file, &error), qPrintable(error));
        QCOMPARE(v->store()->runs()[0]->config.getString("precision"), std::string("float32"));
        QCOMPARE(v->store()->runs()[1]->config.getString("precision"), std::string("float64"));

        QTemporaryDir out;
        const QStringList csv = exportRunsCsv({runs[0].get()}, out.path(), XRange{}, &error);
        QCOMPARE(csv.size(), 1);
        QFile f(csv.front());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY2(text.contains("\"precision\":\"float32\""), text.left(600).constData());
    }

    void aSessionWithoutTheWallTimeFieldOpens() {
        auto w = makeWindow();
        runTwo(*w);
        const QString file = tmp.filePath("old.json");
        QString error;
        QVERIFY(w->sessions()->saveSession(file, &error));
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto doc = nlohmann::json::parse(f.readAll().toStdString());
        f.close();
        QVERIFY(doc["chart_settings"].contains("wall_time_x"));
        doc["chart_settings"].erase("wall_time_x");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray::fromStdString(doc.dump()));
        f.close();
        for (bool wall : {false, true}) {
            auto v = makeWindow();
            v->charts()->setWallTimeX(wall);
            QVERIFY2(v->sessions()->openSession(file, &error), qPrintable(error));
            QCOMPARE(v->store()->runs().size(), std::size_t(2));
            QCOMPARE(v->charts()->wallTimeX(), wall);
        }
    }

    // The CSV export's folder dialog opens in a folder the user can write in, and its
    // "Create New Folder" button makes the folder the files then go to.
    void theExportFolderDialogCreatesAFolder() {
        QVERIFY(QFileInfo(writableStartFolder(QStringLiteral("/proc"))).isWritable());
        QCOMPARE(writableStartFolder(tmp.path()), QFileInfo(tmp.path()).absoluteFilePath());
        auto w = makeWindow();
        runTwo(*w);
        QTemporaryDir out;
        w->sessions()->setExportFolder(out.path());
        bool seen = false, startsThere = false, canCreate = false;
        int created = 0;
        QTimer poll;
        poll.setInterval(50);
        connect(&poll, &QTimer::timeout, this, [&] {
            QFileDialog* d = nullptr;
            for (QWidget* top : QApplication::topLevelWidgets())
                if (auto* f = qobject_cast<QFileDialog*>(top); f && f->isVisible()) d = f;
            if (!d || seen) return;
            seen = d->objectName() == QStringLiteral("folderDialog");
            startsThere = QFileInfo(d->directory().absolutePath()) == QFileInfo(out.path());
            auto* create = d->findChild<QToolButton*>(QStringLiteral("newFolderButton"));
            canCreate = create && create->isVisible() && create->isEnabled();
            if (canCreate) create->click();
            const QStringList made = QDir(out.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
            created = static_cast<int>(made.size());
            if (created == 1) {
                // The new folder chosen (its name in the field), then Choose.
                d->selectFile(QDir(out.path()).filePath(made.front()));
                static_cast<QDialog*>(d)->accept();  // QFileDialog::accept, as its Choose button
            } else {
                d->reject();
            }
        });
        poll.start();
        w->findChild<QAction*>(QStringLiteral("exportCsv"))->trigger();
        poll.stop();
        QVERIFY(seen);
        QVERIFY(startsThere);
        QVERIFY(canCreate);
        QCOMPARE(created, 1);
        const QStringList made = QDir(out.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(made.size(), 1);
        const QString folder = QDir(out.path()).filePath(made.front());
        QCOMPARE(QDir(folder).entryList({QStringLiteral("*.csv")}, QDir::Files).size(), 2);
        QCOMPARE(QFileInfo(w->sessions()->exportFolder()), QFileInfo(folder));  // next time
    }

    void malformedFilesLeaveTheWindowAsItWas() {
        auto w = makeWindow();
        runTwo(*w);
        const auto before = w->store()->runs().size();
        for (const QByteArray& bad :
             {QByteArray(""),
              QByteArray(
                  "{\"format\": \"attention-explorer-session\", \"version\": 7, \"runs\": []}"),
              QByteArray("{\"format\": \"attention-explorer-session\", \"version\": 1, \"runs\": "
                         "[{\"name\": 3}]}"),
              QByteArray("{ truncated")}) {
            QFile f(tmp.filePath("bad.json"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bad);
            f.close();
            QString error;
            QVERIFY(!w->sessions()->openSession(f.fileName(), &error));
            QVERIFY(!error.isEmpty());
            QVERIFY(error.contains("bad.json"));
            QCOMPARE(w->store()->runs().size(), before);
        }
        QString error;
        QVERIFY(!w->sessions()->openSession(tmp.path(), &error));  // a folder
        QVERIFY(!w->sessions()->saveSession("/proc/nope/s.json", &error));
        QCOMPARE(w->store()->runs().size(), before);
    }

    void recoveryFileIsOfferedAfterACrash() {
        const QString path = tmp.filePath("recovery/recovery.session.json");
        {
            auto w = makeWindow();
            w->sessions()->setRecoveryPath(path);
            runTwo(*w);
            w->sessions()->writeRecovery();
            QVERIFY(QFileInfo::exists(path));
            // No clean close: the window object goes away as in a crash (the file stays).
            w->sessions()->setRecoveryPath(QString());
        }
        QVERIFY(QFileInfo::exists(path));
        auto v = makeWindow();
        v->sessions()->setRecoveryPath(path);
        v->sessions()->offerRecovery();  // non-interactive in tests: accepts
        QCOMPARE(v->store()->runs().size(), std::size_t(2));
        QVERIFY(!QFileInfo::exists(path));
        v->sessions()->writeRecovery();
        QVERIFY(QFileInfo::exists(path));
        v->sessions()->closeCleanly();
        QVERIFY(!QFileInfo::exists(path));
    }

    void copyAndPasteConfig() {
        auto w = makeWindow();
        runTwo(*w);
        w->runList()->setCurrentItem(w->runList()->itemForRun(w->store()->runs()[1]->id));
        QVERIFY(w->sessions()->copySelectedRunAsConfig());
        const QString text = QApplication::clipboard()->text();
        QVERIFY(text.contains("\"optimizer\": \"sgd\""));
        auto v = makeWindow();
        QString error;
        QVERIFY2(v->sessions()->pasteConfig(text, &error), qPrintable(error));
        QCOMPARE(v->form()->config().getString("optimizer"), std::string("sgd"));
        QCOMPARE(v->form()->config().getInt("data.n"), 8);
        QVERIFY(!v->sessions()->pasteConfig("{\"data.n\": -1}", &error));
        QVERIFY(error.contains("data.n"));
        QVERIFY(!v->sessions()->pasteConfig("not json", &error));
        QCOMPARE(v->form()->config().getString("optimizer"), std::string("sgd"));  // unchanged
    }

    void continueAStoppedRunFromItsParameters() {
        auto w = makeWindow();
        runTwo(*w);
        const RunRecord* first = w->store()->runs()[0].get();
        QSignalSpy done(w->controller(), &RunController::allFinished);
        QString error;
        QVERIFY2(w->sessions()->continueRun(first->id, 10, &error), qPrintable(error));
        QVERIFY(done.wait(30000));
        w->controller()->drain();
        const RunRecord* cont = w->store()->runs().back().get();
        QVERIFY(cont->name.startsWith("gd-continued"));
        QVERIFY(cont->initialParams && (*cont->initialParams)[0] == (*first->finalParams)[0]);
        QCOMPARE(cont->lastIteration(), first->lastIteration() + 10);  // numbering carries on
    }

    void exportAllChartsOfAComparison() {
        auto w = makeWindow();
        runTwo(*w);
        QString error;
        QVERIFY2(w->sessions()->exportCharts(tmp.filePath("figs"), &error), qPrintable(error));
        for (const char* f : {"loss.png", "loss.svg", "loss.pdf", "norms.png", "manifold.pdf"})
            QVERIFY2(QFileInfo::exists(tmp.filePath("figs/") + f), f);
        QVERIFY(!w->sessions()->exportCharts("/proc/nope", &error));
        QCOMPARE(w->store()->runs().size(), std::size_t(2));  // nothing lost
    }

    void exportWhileAComparisonIsRunning() {
        auto w = makeWindow();
        w->controller()->start("long-gd", tiny(100000000));
        w->controller()->start("long-sgd", tiny(100000000, "sgd"));
        QTRY_VERIFY_WITH_TIMEOUT(w->store()->runs()[0]->size() >= 3 && w->store()->runs()[1]->size() >= 3, kRunWaitMs);
        QString error;
        QVERIFY2(w->sessions()->exportCharts(tmp.filePath("running"), &error), qPrintable(error));
        QVERIFY(w->sessions()->saveSession(tmp.filePath("running.json"), &error));
        QVERIFY(w->controller()->anyActive());  // the runs go on
        for (const char* f : {"loss.png", "loss.svg", "loss.pdf", "norms.svg", "manifold.png"})
            QVERIFY2(QFileInfo::exists(tmp.filePath("running/") + f), f);
        w->commands()->stopRuns();
        QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->anyActive(), kRunWaitMs);
        auto v = makeWindow();
        QVERIFY(v->sessions()->openSession(tmp.filePath("running.json"), &error));
        QCOMPARE(v->store()->runs().size(), std::size_t(2));
    }

    void fileMenuHasTheActions() {
        auto w = makeWindow();
        for (const char* name :
             {"openSession", "saveSession", "saveSessionAs", "exportCharts", "exportCsv",
              "exportJson", "exportParams", "continueRun", "copyConfig", "pasteConfig"})
            QVERIFY2(w->findChild<QAction*>(QLatin1String(name)), name);
        QCOMPARE(w->findChild<QAction*>("saveSession")->shortcut(),
                 QKeySequence(QKeySequence::Save));
    }
};

QTEST_MAIN(TestSessions)
#include "tst_sessions.moc"
