// attention-explorer: the interactive GUI. Parses the command line and opens the window.
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

#include "window/MainWindow.h"
#include "experiments/ExperimentRegistry.h"
#include "Version.h"
#include "plan/Preset.h"
#include "util/Allocator.h"
#include "util/CpuLevel.h"

int main(int argc, char** argv) {
    ade::keepFreedMemoryForReuse();  // steady solver rates (see util/Allocator.h)
    QApplication::setHighDpiScaleFactorRoundingPolicy(
        Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("attention-explorer"));
    QApplication::setOrganizationName(QStringLiteral("attention-explorer"));
    QApplication::setApplicationDisplayName(QStringLiteral("Attention Dynamics Explorer"));
    // --version says which kernel level runs (util/CpuLevel.h).
    QApplication::setApplicationVersion(
        QStringLiteral(ADE_VERSION "\nkernels: ") + QString::fromStdString(ade::cpu::levelSummary()));
    QApplication::setDesktopFileName(QStringLiteral("org.attentiondynamics.explorer"));

    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Attention Dynamics Explorer: watch softmax attention learn."));
    p.addHelpOption();
    p.addVersionOption();
    const QCommandLineOption preset(QStringLiteral("preset"), QStringLiteral("Load preset NAME."),
                                    QStringLiteral("NAME"));
    const QCommandLineOption autorun(QStringLiteral("autorun"),
                                     QStringLiteral("Start the preset's runs (or sweep) at once."));
    const QCommandLineOption quit(QStringLiteral("quit-when-done"),
                                  QStringLiteral("Quit when the runs are done."));
    const QCommandLineOption shot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save a PNG of the window when the runs are "
                                                 "done (or at --screenshot-at)."),
                                  QStringLiteral("FILE.png"));
    const QCommandLineOption shotAt(QStringLiteral("screenshot-at"),
                                    QStringLiteral("Take the screenshot mid-run, once a run "
                                                   "passes iteration N."),
                                    QStringLiteral("N"));
    const QCommandLineOption stats(QStringLiteral("stats"),
                                   QStringLiteral("Write frame times, solver rate and logged "
                                                  "points to FILE.json when done."),
                                   QStringLiteral("FILE.json"));
    const QCommandLineOption set(QStringLiteral("set"),
                                 QStringLiteral("Override KEY of every run of the --preset, as "
                                                "the CLI's --set (repeatable)."),
                                 QStringLiteral("KEY=VALUE"));
    const QCommandLineOption seeds(QStringLiteral("seeds"),
                                   QStringLiteral("Run every run of the --preset with K seeds (as "
                                                  "the Seeds box; default: the preset's)."),
                                   QStringLiteral("K"));
    const QCommandLineOption presentation(
        QStringLiteral("presentation"),
        QStringLiteral("Start in presentation mode (the charts alone, full screen, large type)."));
    const QCommandLineOption lesson(
        QStringLiteral("lesson"),
        QStringLiteral("Play lesson NAME (Lessons menu) or the lesson file FILE.json, in "
                       "presentation mode."),
        QStringLiteral("NAME|FILE"));
    const QCommandLineOption optunaStudy(
        QStringLiteral("optuna-study"),
        QStringLiteral("Show the Optuna study's storage FILE (SQLite .db or journal file) in the "
                       "sweep tab, read-only, re-read when it changes."),
        QStringLiteral("FILE"));
    const QCommandLineOption study(
        QStringLiteral("study"),
        QStringLiteral("With --optuna-study: the study NAME of that file (default: its first)."),
        QStringLiteral("NAME"));
    const QCommandLineOption noSettings(QStringLiteral("no-settings"),
                                        QStringLiteral("Neither read nor write saved settings (window, form, "
                                                       "recent sessions); no crash recovery either."));
    p.addOptions({preset, set, seeds, autorun, quit, shot, shotAt, stats, presentation, lesson,
                  optunaStudy, study, noSettings});
    p.addPositionalArgument(QStringLiteral("session"),
                            QStringLiteral("A saved session (.json) to open, as File > Open "
                                           "Session (how the desktop's file manager opens one); "
                                           "an Optuna study's storage opens as --optuna-study."),
                            QStringLiteral("[SESSION.json]"));
    p.process(app);
    if (const std::string& note = ade::cpu::levelNote(); !note.empty())
        fprintf(stderr, "attention-explorer: warning: %s\n", note.c_str());
    if (p.positionalArguments().size() > 1) {
        fprintf(stderr, "attention-explorer: give at most one session file\n");
        return 2;
    }

    ade::ui::LaunchOptions o;
    o.preset = p.value(preset);
    for (const QString& s : p.values(set))
        o.sets.push_back(s.toStdString());
    o.autorun = p.isSet(autorun);
    o.quitWhenDone = p.isSet(quit);
    o.screenshot = p.value(shot);
    o.stats = p.value(stats);
    o.persistSettings = !p.isSet(noSettings);
    o.askBeforeClosing = !o.quitWhenDone;  // scripted runs close without a question
    o.presentation = p.isSet(presentation);
    o.lesson = p.value(lesson);
    if (!o.lesson.isEmpty() && (!o.preset.isEmpty() || o.autorun || !o.sets.empty())) {
        fprintf(stderr, "attention-explorer: a lesson loads its own presets; --preset, --set "
                        "and --autorun go without --lesson\n");
        return 2;
    }
    o.argv0 = argc > 0 ? argv[0] : "";
    if (!p.positionalArguments().isEmpty()) {
        o.session = p.positionalArguments().constFirst();
        if (!o.preset.isEmpty() || o.autorun || !o.sets.empty() || !o.lesson.isEmpty()) {
            fprintf(stderr, "attention-explorer: a session file opens saved runs; --preset, "
                            "--set, --autorun and --lesson go without one\n");
            return 2;
        }
    }
    o.optunaStudy = p.value(optunaStudy);
    o.study = p.value(study);
    if (!o.study.isEmpty() && o.optunaStudy.isEmpty()) {
        fprintf(stderr, "attention-explorer: --study names a study of the --optuna-study FILE\n");
        return 2;
    }
    if (!o.optunaStudy.isEmpty() && (!o.preset.isEmpty() || o.autorun || !o.sets.empty() ||
                                     !o.lesson.isEmpty() || !o.session.isEmpty())) {
        fprintf(stderr, "attention-explorer: an Optuna study opens in the sweep tab; --preset, "
                        "--set, --autorun, --lesson and a session file go without one\n");
        return 2;
    }
    if (p.isSet(seeds)) {
        bool ok = false;
        o.seeds = p.value(seeds).toInt(&ok);
        if (!ok || o.seeds < 1 || o.seeds > 32) {
            fprintf(stderr, "attention-explorer: --seeds needs a number of seeds from 1 to 32\n");
            return 2;
        }
    }
    if (p.isSet(shotAt)) {
        bool ok = false;
        o.screenshotAt = p.value(shotAt).toLong(&ok);
        if (!ok || o.screenshotAt < 0) {
            fprintf(stderr, "attention-explorer: --screenshot-at needs an iteration >= 0\n");
            return 2;
        }
    }
    if (o.preset.isEmpty() && o.session.isEmpty() && o.lesson.isEmpty() &&
        o.optunaStudy.isEmpty() &&
        (o.autorun || !o.screenshot.isEmpty() || !o.stats.isEmpty() || !o.sets.empty()))
        o.preset = QString::fromStdString(ade::defaultPresetName());
    {  // A bad --set is a usage error, reported before the window opens (as by the CLI).
        ade::Config probe;
        if (auto e = ade::applyOverrides(probe, o.sets)) {
            fprintf(stderr, "attention-explorer: %s\n", e->message.c_str());
            return 2;
        }
    }

    ade::ui::MainWindow w(o);
    w.show();
    w.launch();
    return app.exec();
}
