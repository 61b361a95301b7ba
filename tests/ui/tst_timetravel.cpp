// Time travel in the window: snapshots reach the run record (with a continued run's offset),
// sessions carry them both ways, the slider moves the time cursor and every chart's cursor line,
// Live follows the latest snapshot during a run, the keys step; the animation export writes a
// PNG sequence, and an MP4 of the right length when ffmpeg is installed.
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <cstring>

#include "charts/ChartArea.h"
#include "Configs.h"
#include "window/MainWindow.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "sessions/SessionManager.h"
#include "TestWindow.h"
#include "runs/TimeCursor.h"
#include "runs/TimeTravelBar.h"
#include "inspect/AnimationExport.h"
#include "inspect/ChartFrames.h"

using namespace ade::ui;

namespace {

using adetest::makeWindow;

void runToEnd(MainWindow& w, const QString& name, const ade::Config& c) {
    QSignalSpy done(w.controller(), &RunController::allFinished);
    w.controller()->start(name, c);
    QVERIFY(done.wait(kRunWaitMs));
}

bool bitEqual(const ade::ParamSet& a, const ade::ParamSet& b) {
    if (a.names != b.names || a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].size() != b[i].size() ||
            std::memcmp(a[i].data(), b[i].data(), sizeof(double) * a[i].size()) != 0)
            return false;
    return true;
}

}  // namespace

class TestTimeTravel : public QObject {
    Q_OBJECT
  private slots:
    void snapshotsReachTheRecord() {
        auto w = makeWindow();
        runToEnd(*w, "gd", adetest::tinyA(200, {{"snapshots", "11"}}));
        const RunRecord* r = w->store()->runs().front().get();
        QVERIFY(r->snapshots.size() >= 10 && r->snapshots.size() <= 11);
        QCOMPARE(r->snapshots.front().iteration, 0L);
        QCOMPARE(r->snapshots.back().iteration, 200L);
        QVERIFY(r->finalParams && bitEqual(r->snapshots.back().params, *r->finalParams));
        QVERIFY(r->initialParams && bitEqual(r->snapshots.front().params, *r->initialParams));
        QVERIFY(r->snapshotBytes() > 0);
        QVERIFY(snapshotMemoryText(*r).contains(QString::number(r->snapshots.size())));
    }

    void continuedRunCarriesTheOffset() {
        auto w = makeWindow();
        runToEnd(*w, "gd", adetest::tinyA(50, {{"snapshots", "5"}}));
        const int first = w->store()->runs().front()->id;
        QSignalSpy done(w->controller(), &RunController::allFinished);
        QString error;
        QVERIFY2(w->sessions()->continueRun(first, 40, &error), qPrintable(error));
        QVERIFY(done.wait(kRunWaitMs));
        const RunRecord* cont = w->store()->runs().back().get();
        QVERIFY(cont->id != first);
        QVERIFY(!cont->snapshots.empty());
        QCOMPARE(cont->snapshots.front().iteration, 50L);  // its iteration 0 is the other's 50
        QCOMPARE(cont->snapshots.back().iteration, 90L);
        QVERIFY(bitEqual(cont->snapshots.front().params,
                         w->store()->run(first)->snapshots.back().params));
    }

    void sessionCarriesSnapshotsBothWays() {
        auto w = makeWindow();
        runToEnd(*w, "gd", adetest::tinyA(60, {{"snapshots", "7"}}));
        const ade::Session s = sessionFromStore(*w->store());
        QCOMPARE(s.runs.front().snapshots.size(), w->store()->runs().front()->snapshots.size());
        const auto back = ade::sessionFromText(ade::sessionToText(s));
        QVERIFY(back.session);
        RunStore other;
        addSessionToStore(*back.session, other);
        const auto& a = w->store()->runs().front()->snapshots;
        const auto& b = other.runs().front()->snapshots;
        QCOMPARE(b.size(), a.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(b[i].iteration, a[i].iteration);
            QVERIFY(bitEqual(b[i].params, a[i].params));
        }
    }

    void sliderMovesTheCursorAndTheChartsLine() {
        auto w = makeWindow();
        runToEnd(*w, "gd", adetest::tinyA(100, {{"snapshots", "6"}}));
        w->charts()->refresh(true);
        TimeTravelBar* bar = w->timeTravelBar();
        TimeCursor* cursor = w->timeCursor();
        const RunRecord* r = w->store()->runs().front().get();
        QVERIFY(cursor->isLive());
        QCOMPARE(bar->slider()->maximum(), static_cast<int>(r->snapshots.size()) - 1);
        QCOMPARE(bar->slider()->value(), bar->slider()->maximum());
        QVERIFY(bar->label()->text().contains(QStringLiteral("of 100")));
        QVERIFY(!w->charts()->panels().empty());
        for (ChartPanel* p : w->charts()->panels())
            QVERIFY(std::isnan(p->cursorLineX()));  // live: no line

        bar->slider()->setValue(2);
        QVERIFY(!cursor->isLive());
        QCOMPARE(cursor->iteration(), r->snapshots[2].iteration);
        QVERIFY(!bar->liveAction()->isChecked());
        QCOMPARE(bar->label()->text(),
                 QStringLiteral("iteration %1 of 100").arg(r->snapshots[2].iteration));
        ChartPanel* loss = nullptr;  // a chart that draws this run (its x range holds it)
        for (ChartPanel* p : w->charts()->panels()) {
            QCOMPARE(p->cursorLineX(), static_cast<double>(r->snapshots[2].iteration));
            if (!loss && p->drawnPoints() > 0) loss = p;
        }
        QVERIFY(loss);
        const double previous = loss->cursorLinePosition();
        QVERIFY(std::isfinite(previous));
        // A later snapshot: the line moves right.
        bar->laterAction()->trigger();
        QCOMPARE(cursor->iteration(), r->snapshots[3].iteration);
        QVERIFY(loss->cursorLinePosition() > previous);
        bar->earlierAction()->trigger();
        bar->earlierAction()->trigger();
        QCOMPARE(cursor->iteration(), r->snapshots[1].iteration);
        // Live again: no line, slider at the latest.
        bar->liveAction()->trigger();
        QVERIFY(cursor->isLive());
        QCOMPARE(bar->slider()->value(), bar->slider()->maximum());
        for (ChartPanel* p : w->charts()->panels())
            QVERIFY(std::isnan(p->cursorLineX()));
        // The keys are in the shortcuts list, under names that say what they do (issue 30,
        // item 14: "◀" and "▶" before); the bar's buttons keep their arrows.
        QString earlierName, laterName;
        for (const auto& [text, key] : tableShortcuts(w.get())) {
            if (key == QStringLiteral("[")) earlierName = text;
            if (key == QStringLiteral("]")) laterName = text;
            // Every action in Help > Keyboard shortcuts is named in words, not symbols only.
            QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\\p{L}{3}"))),
                     qPrintable(text + QStringLiteral(" = ") + key));
        }
        QCOMPARE(earlierName, QStringLiteral("Step back in time"));
        QCOMPARE(laterName, QStringLiteral("Step forward in time"));
        QCOMPARE(bar->earlierAction()->iconText(), QStringLiteral("◀"));
        QCOMPARE(bar->laterAction()->iconText(), QStringLiteral("▶"));
    }

    // Issue 30, item 14: a handle held by the pointer stays under it while snapshots come (the
    // range grew under it and the handle crept left); the range catches up on release.
    void heldHandleStaysWhileSnapshotsCome() {
        auto w = makeWindow();
        const int id = w->store()->addRun(QStringLiteral("held"), adetest::tinyA(100));
        auto snap = [](long it) {
            ade::Snapshot s;
            s.iteration = it;
            return s;
        };
        w->store()->appendSnapshots(id, {snap(0), snap(10), snap(20)});
        w->timeCursor()->setFocusRun(id);
        TimeTravelBar* bar = w->timeTravelBar();
        QCOMPARE(bar->slider()->maximum(), 2);
        bar->slider()->setSliderDown(true);
        bar->slider()->setValue(1);
        QCOMPARE(w->timeCursor()->iteration(), 10L);
        w->store()->appendSnapshots(id, {snap(30), snap(40), snap(50)});
        QCOMPARE(bar->slider()->maximum(), 2);  // the scale under the pointer stays
        QCOMPARE(bar->slider()->value(), 1);
        QCOMPARE(w->timeCursor()->iteration(), 10L);
        bar->slider()->setSliderDown(false);
        QCOMPARE(bar->slider()->maximum(), 5);
        QCOMPARE(bar->slider()->value(), 1);
        QCOMPARE(w->timeCursor()->iteration(), 10L);
    }

    void liveFollowsARunningRun() {
        auto w = makeWindow();
        w->controller()->start("long", adetest::tinyA(400000, {{"snapshots", "50"}}));
        TimeTravelBar* bar = w->timeTravelBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->slider()->maximum() >= 2, kRunWaitMs);
        QVERIFY(w->timeCursor()->isLive());
        QCOMPARE(bar->slider()->value(), bar->slider()->maximum());
        // Scrub back during the run: the cursor stays while snapshots keep coming.
        bar->slider()->setValue(1);
        const long at = w->timeCursor()->iteration();
        const int seen = bar->slider()->maximum();
        QTRY_VERIFY_WITH_TIMEOUT(bar->slider()->maximum() > seen, kRunWaitMs);
        QCOMPARE(w->timeCursor()->iteration(), at);
        QCOMPARE(bar->slider()->value(), 1);
        w->controller()->stopAndWait();
    }

    void focusFollowsTheSelection() {
        auto w = makeWindow();
        runToEnd(*w, "short", adetest::tinyA(40, {{"snapshots", "3"}}));
        runToEnd(*w, "long", adetest::tinyA(80, {{"snapshots", "9"}}));
        const int second = w->store()->runs().back()->id;
        w->timeCursor()->setFocusRun(second);
        QCOMPARE(w->timeTravelBar()->slider()->maximum(),
                 static_cast<int>(w->store()->run(second)->snapshots.size()) - 1);
        QVERIFY(w->timeTravelBar()->label()->text().contains(QStringLiteral("of 80")));
    }

    // A preset's comparison mid-run, scrubbed back: every chart shows the cursor while the runs
    // go on. With ADE_TIMETRAVEL_SCREENSHOTS=DIR the window is saved at 1600x1000 and 1024x768.
    void scrubbingAPresetMidRun() {
        auto w = makeWindow();
        // A snapshot every 100 iterations: six come within seconds even under ThreadSanitizer.
        // One seed per run: the preset's ten would start thirty runs, each on its own thread.
        QVERIFY(w->commands()->loadPreset(QStringLiteral("c-lora-drift"), false,
                              {"iterations=300000", "snapshots=3000"}));
        w->commands()->setSeeds(1);
        w->action(QStringLiteral("start"))->trigger();
        const auto ids = w->workspace()->batchIds();
        QVERIFY(!ids.empty());
        w->timeCursor()->setFocusRun(ids.front());
        TimeTravelBar* bar = w->timeTravelBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->slider()->maximum() >= 6, kRunWaitMs);
        QVERIFY(w->controller()->anyActive());
        bar->slider()->setValue(bar->slider()->maximum() / 2);
        QVERIFY(!w->timeCursor()->isLive());
        QTest::qWait(300);  // a few drains: the curves go on past the cursor
        w->charts()->refresh(true);
        int drawn = 0, withData = 0;
        for (ChartPanel* p : w->charts()->panels()) {
            QCOMPARE(p->cursorLineX(), static_cast<double>(w->timeCursor()->iteration()));
            withData += p->drawnPoints() > 0 ? 1 : 0;
            drawn += p->drawnPoints() > 0 && std::isfinite(p->cursorLinePosition()) ? 1 : 0;
        }
        QVERIFY(withData > 0);
        QCOMPARE(drawn, withData);  // every chart with curves shows the cursor
        const QString dir = qEnvironmentVariable("ADE_TIMETRAVEL_SCREENSHOTS");
        if (!dir.isEmpty()) {
            for (const QSize size : {QSize(1600, 1000), QSize(1024, 768)}) {
                w->resize(size);
                QTest::qWait(400);
                w->charts()->refresh(true);
                QVERIFY(w->grab().save(QDir(dir).filePath(
                    QStringLiteral("timetravel-%1x%2.png").arg(size.width()).arg(size.height()))));
            }
        }
        w->controller()->stopAndWait();
    }

    void animationWritesFrames() {
        auto w = makeWindow();
        runToEnd(*w, "gd", adetest::tinyA(60, {{"snapshots", "5"}}));
        const RunRecord* r = w->store()->runs().front().get();
        QTemporaryDir dir;
        AnimationOptions o;
        o.format = AnimationFormat::PngSequence;
        o.file = dir.filePath(QStringLiteral("frames"));
        o.size = QSize(641, 361);  // odd: rounded down to even
        o.fps = 5;
        const auto iterations = snapshotIterations(*r);
        const AnimationResult res =
            exportAnimation(animationFrameRenderer(*w->store(), o.size), iterations, o);
        QVERIFY2(res.ok, qPrintable(res.error));
        QCOMPARE(res.frames.size(), static_cast<qsizetype>(iterations.size()));
        const QImage first(res.frames.front()), last(res.frames.back());
        QCOMPARE(first.size(), QSize(640, 360));
        QVERIFY(first != last);  // the cursor moved
        QCOMPARE(res.seconds, static_cast<double>(iterations.size()) / 5.0);
    }

    void animationAsMp4() {
        if (ffmpegProgram().isEmpty()) QSKIP("ffmpeg is not installed");
        auto w = makeWindow();
        runToEnd(*w, "gd", adetest::tinyA(60, {{"snapshots", "12"}}));
        const RunRecord* r = w->store()->runs().front().get();
        QTemporaryDir dir;
        AnimationOptions o;
        o.file = dir.filePath(QStringLiteral("run.mp4"));
        o.format = animationFormatFor(o.file);
        o.size = QSize(480, 320);
        o.fps = 6;
        const auto iterations = snapshotIterations(*r);
        const AnimationResult res =
            exportAnimation(animationFrameRenderer(*w->store(), o.size), iterations, o);
        QVERIFY2(res.ok, qPrintable(res.error));
        QVERIFY(QFileInfo(res.film).size() > 0);
        const QString ffprobe = QStandardPaths::findExecutable(QStringLiteral("ffprobe"));
        if (ffprobe.isEmpty()) QSKIP("ffprobe is not installed");
        QProcess probe;
        probe.start(ffprobe, {"-v", "error", "-show_entries", "format=duration:stream=width,height,pix_fmt,codec_name",
                              "-of", "default=noprint_wrappers=1", res.film});
        QVERIFY(probe.waitForFinished(30000));
        const QString out = QString::fromUtf8(probe.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("codec_name=h264")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("pix_fmt=yuv420p")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("width=480")), qPrintable(out));
        const auto at = out.indexOf(QStringLiteral("duration="));
        QVERIFY(at >= 0);
        const double seconds = out.mid(at + 9).section('\n', 0, 0).toDouble();
        QVERIFY2(std::abs(seconds - static_cast<double>(iterations.size()) / 6.0) < 0.2,
                 qPrintable(out));
    }
};

QTEST_MAIN(TestTimeTravel)
#include "tst_timetravel.moc"
