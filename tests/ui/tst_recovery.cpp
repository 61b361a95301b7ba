// Crash recovery, honestly: the real explorer runs a preset in a child process with its own
// XDG folders, is killed with SIGKILL once its recovery file holds records and snapshots, and a
// window recovers the file: the curves, the snapshots (time travel, the inside views), the last
// parameters (Continue goes on past the recovered iteration) and the preset's claims, with the
// runs named as stopped by the crash. Also: what a save costs the GUI thread with nine runs
// (printed; ADE_RECOVERY_COST=1 runs the longer measurement).
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "Process.h"
#include "TestWindow.h"
#include "about/ClaimsChecklist.h"
#include "base/FrameStats.h"
#include "inspect/InsideView.h"
#include "inspect/MatrixPanel.h"
#include "output/Session.h"
#include "runs/ClaimsMonitor.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "runs/TimeCursor.h"
#include "runs/TimeTravelBar.h"
#include "sessions/RecoveryWriter.h"
#include "sessions/SessionManager.h"
#include "workspace/Workspace.h"

using namespace ade::ui;

namespace {

QString guiPath() {
    return QFileInfo(testproc::cliPath()).dir().filePath(QStringLiteral("attention-explorer"));
}

QString findRecoveryFile(const QString& root) {
    QDirIterator it(root, {QStringLiteral("recovery.session.json")}, QDir::Files,
                    QDirIterator::Subdirectories);
    return it.hasNext() ? it.next() : QString();
}

// The recovery file, once it holds at least `rows` records of every run.
bool holdsRecords(const QString& root, std::size_t runs, std::size_t rows) {
    const QString f = findRecoveryFile(root);
    if (f.isEmpty()) return false;
    const auto r = ade::readSessionFile(f.toStdString());  // complete: written atomically
    if (!r.session || r.session->runs.size() != runs) return false;
    for (const auto& run : r.session->runs)
        if (run.history.rows.size() < rows) return false;
    return true;
}

}  // namespace

class TestRecovery : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void aKilledExplorerComesBackWithEverything() {
        // The real explorer, its settings and recovery file in folders of this test.
        const QString home = tmp.filePath(QStringLiteral("crash"));
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        child.setProcessEnvironment(env);
        child.start(guiPath(),
                    {QStringLiteral("--preset"), QStringLiteral("a-spectral-vs-random"),
                     QStringLiteral("--seeds"), QStringLiteral("1"), QStringLiteral("--set"),
                     QStringLiteral("iterations=40000"), QStringLiteral("--set"),
                     QStringLiteral("snapshots=2000"), QStringLiteral("--autorun")});
        QVERIFY2(child.waitForStarted(), qPrintable(child.errorString()));
        QTRY_VERIFY_WITH_TIMEOUT(holdsRecords(home, 3, 3), kRunWaitMs);
        child.kill();  // SIGKILL: no clean close, no last save
        QVERIFY(child.waitForFinished());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        const QString path = findRecoveryFile(home);
        const auto saved = ade::readSessionFile(path.toStdString());
        QVERIFY2(saved.session, saved.error.c_str());

        auto w = adetest::makeWindow();
        w->sessions()->setRecoveryPath(path);
        w->sessions()->offerRecovery();  // non-interactive in tests: accepts
        QVERIFY(!QFileInfo::exists(path));
        RunStore* store = w->store();
        QCOMPARE(store->runs().size(), std::size_t(3));
        std::vector<long> recoveredAt;
        for (std::size_t i = 0; i < 3; ++i) {
            const RunRecord* r = store->runs()[i].get();
            const ade::SessionRun& s = saved.session->runs[i];
            // The curves: every record the file held.
            QCOMPARE(r->size(), s.history.rows.size());
            QVERIFY(r->size() >= 3);
            // The snapshots, and the last one as the parameters to go on from.
            QVERIFY(r->snapshots.size() >= 2);
            QCOMPARE(r->snapshots.size(), s.snapshots.size());
            QVERIFY(r->finalParams);
            QVERIFY((*r->finalParams)[0] == r->snapshots.back().params[0]);
            QVERIFY(r->initialParams);
            // Stopped, and by the crash: not completed, not converged.
            QCOMPARE(r->state, RunState::Stopped);
            QVERIFY2(r->message.contains(QStringLiteral("by a crash")), qPrintable(r->message));
            QVERIFY(r->stop.isEmpty());
            recoveredAt.push_back(r->lastIteration());
        }

        // Time travel over the recovered snapshots, and the inside views show parameters.
        const RunRecord* first = store->runs().front().get();
        w->timeCursor()->setFocusRun(first->id);
        QCOMPARE(w->timeTravelBar()->slider()->maximum(),
                 static_cast<int>(first->snapshots.size()) - 1);
        w->timeTravelBar()->slider()->setValue(0);
        InsideView* v = w->insideView();
        w->findChild<QTabWidget*>(QStringLiteral("tabs"))->setCurrentWidget(v);
        v->setCurrentWidget(v->matrices());
        QTRY_VERIFY_WITH_TIMEOUT(!v->matrices()->scene().views.empty(), kRunWaitMs);
        QVERIFY(v->matrices()->scene().views[0].values == first->snapshots.front().params[0]);

        // The claims: the preset's again, over the recovered runs, which they call interrupted.
        ClaimsMonitor* claims = w->workspace()->claims();
        QVERIFY(!claims->claims().empty());
        QCOMPARE(claims->runs().size(), std::size_t(3));
        QCOMPARE(w->workspace()->presetName(), QStringLiteral("a-spectral-vs-random"));
        ClaimsChecklist* list = w->aboutPanel()->checklist();
        QCOMPARE(list->rowCount(), static_cast<int>(claims->claims().size()));
        bool named = false;
        for (const auto& r : claims->results()) {
            QVERIFY(r.status != ade::ClaimStatus::Holds &&
                    r.status != ade::ClaimStatus::DoesNotHold);
            named = named || r.detail.find("crash") != std::string::npos;
        }
        QVERIFY(named);
        bool shown = false;
        for (int i = 0; i < list->rowCount(); ++i)
            shown = shown || list->rowText(i).contains(QStringLiteral("crash"));
        QVERIFY2(shown, qPrintable(list->rowText(0)));

        // Continue goes on from the last saved parameters, past the recovered iteration (300
        // iterations of Algorithm 1: seconds in Release, minutes under the sanitizers).
        QSignalSpy done(w->controller(), &RunController::allFinished);
        QString error;
        QVERIFY2(w->sessions()->continueRun(first->id, 300, &error), qPrintable(error));
        const RunRecord* cont = store->runs().back().get();
        QVERIFY(cont->initialParams && (*cont->initialParams)[0] == (*first->finalParams)[0]);
        QVERIFY(done.wait(kRunWaitMs));
        w->controller()->drain();
        QCOMPARE(cont->state, RunState::Completed);
        QVERIFY(cont->lastIteration() > recoveredAt.front());
        QCOMPARE(cont->lastIteration(), first->snapshots.back().iteration + 300);
        w->sessions()->closeCleanly();
    }

    // The save's cost on the GUI thread with nine runs and their snapshots, against the
    // worker's (text and file): printed for docs/gui.md; the GUI thread's share stays small.
    void aSaveCostsTheGuiThreadLittle() {
        auto w = adetest::makeWindow();
        const QString path = tmp.filePath(QStringLiteral("cost/recovery.session.json"));
        w->sessions()->setRecoveryPath(path);
        const bool longer = qEnvironmentVariableIsSet("ADE_RECOVERY_COST");
        QVERIFY(w->commands()->loadPreset(
            QStringLiteral("a-spectral-vs-random"), false,
            {longer ? "iterations=200000" : "iterations=20000", "snapshots=100"}));
        w->commands()->setSeeds(3);
        w->commands()->startPresetComparison();
        QCOMPARE(w->store()->runs().size(), std::size_t(9));
        double guiMax = 0, guiSum = 0, cpuMax = 0, cpuSum = 0;
        int saves = 0;
        QElapsedTimer clock;
        clock.start();
        const qint64 span = longer ? 60000 : 6000;
        while (clock.elapsed() < span && w->controller()->anyActive()) {
            QTest::qWait(longer ? 2000 : 500);
            QVERIFY(w->sessions()->writeRecovery(nullptr, false));
            guiMax = std::max(guiMax, w->sessions()->lastRecoverySaveMs());
            guiSum += w->sessions()->lastRecoverySaveMs();
            cpuMax = std::max(cpuMax, w->sessions()->lastRecoverySaveCpuMs());
            cpuSum += w->sessions()->lastRecoverySaveCpuMs();
            ++saves;
        }
        QString error;
        QVERIFY2(w->sessions()->writeRecovery(&error), qPrintable(error));
        const RecoveryWriter* writer = w->sessions()->recoveryWriter();
        std::size_t snaps = 0, rows = 0;
        for (const auto& r : w->store()->runs())
            snaps += r->snapshots.size(), rows += r->size();
        qInfo(
            "recovery save, 9 runs, %zu records, %zu snapshots, file %.2f MB: GUI thread "
            "wall mean %.2f ms, max %.2f ms; its CPU mean %.3f ms, max %.3f ms over %d saves; "
            "worker (text + atomic write) %.1f ms",
            rows, snaps, writer->lastBytes() / 1e6, guiSum / std::max(saves, 1), guiMax,
            cpuSum / std::max(saves, 1), cpuMax, saves, writer->lastWriteMs());
        QVERIFY(cpuMax < 20.0);  // a copy of the new records and snapshots only
        // For comparison, the save as it was done before (the whole session serialized and
        // written on the GUI thread; without parameters, as then, and with them).
        for (bool withParams : {false, true}) {
            QElapsedTimer t;
            t.start();
            const double cpu0 = FrameStats::threadCpuMs();
            std::string err;
            QVERIFY(
                ade::writeSessionFile(tmp.filePath(QStringLiteral("cost/old.json")).toStdString(),
                                      sessionFromStore(*w->store()), withParams, &err));
            qInfo(
                "the same save on the GUI thread, %s parameters: wall %.2f ms, CPU %.2f ms, "
                "file %.2f MB",
                withParams ? "with" : "without", t.nsecsElapsed() / 1e6,
                FrameStats::threadCpuMs() - cpu0,
                QFileInfo(tmp.filePath(QStringLiteral("cost/old.json"))).size() / 1e6);
        }
        const auto back = ade::readSessionFile(path.toStdString());
        QVERIFY2(back.session, back.error.c_str());
        QCOMPARE(back.session->runs.size(), std::size_t(9));
        for (std::size_t i = 0; i < 9; ++i) {
            const RunRecord* r = w->store()->runs()[i].get();
            QCOMPARE(back.session->runs[i].history.rows.size(), r->size());
            QCOMPARE(back.session->runs[i].snapshots.size(), r->snapshots.size());
        }
        w->controller()->stopAndWait();
        w->sessions()->closeCleanly();
        QVERIFY(!QFileInfo::exists(path));
    }
};

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
