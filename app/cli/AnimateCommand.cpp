// `attention-explorer-cli animate`: a saved session's run over its parameter snapshots, rendered
// headless with the GUI's own frame renderer and animation export (ui/inspect/).
#include <QDir>
#include <QFileInfo>

#include <iostream>

#include "FigureCommand.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "inspect/AnimationExport.h"
#include "inspect/ChartFrames.h"

using namespace ade;

namespace {
int fail(int code, const std::string& m) {
    std::cerr << "attention-explorer-cli: " << m << "\n";
    return code;
}
}  // namespace

int runAnimateCommand(const CliArgs& a, int argc, char** argv) {
    if (a.sessionFile.empty()) return fail(ExitInvalid, "animate needs --session FILE");
    if (a.outDir.empty()) return fail(ExitInvalid, "--out FILE is required (.mp4, .gif or a folder)");
    const QStringList wh = QString::fromStdString(a.size).toLower().split('x');
    bool okw = false, okh = false;
    const int w = wh.size() == 2 ? wh[0].toInt(&okw) : 0, h = wh.size() == 2 ? wh[1].toInt(&okh) : 0;
    if (!okw || !okh || w < 320 || h < 240 || w > 3840 || h > 2160)
        return fail(ExitInvalid,
                    "invalid value '" + a.size + "' for --size: expected WxH, 320x240 to 3840x2160");

    const auto read = readSessionFile(a.sessionFile);
    if (!read.session) return fail(ExitInvalid, read.error);
    for (const auto& warning : read.warnings)
        std::cerr << "attention-explorer-cli: warning: " << warning << "\n";
    HeadlessQt qt(argc, argv);
    ui::RunStore store;
    const std::vector<int> ids = ui::addSessionToStore(*read.session, store);
    const ui::RunRecord* run = nullptr;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const ui::RunRecord* r = store.run(ids[i]);
        const bool named = read.session->runs[i].name == a.run;
        if (named || (a.run.empty() && !r->snapshots.empty())) {
            run = r;
            break;
        }
    }
    if (!run) {
        if (!a.run.empty()) {
            std::string names;
            for (const auto& r : read.session->runs)
                names += (names.empty() ? "" : ", ") + r.name;
            return fail(ExitInvalid, "no run '" + a.run + "' in " + a.sessionFile + " (runs: " +
                                         names + ")");
        }
        return fail(ExitInvalid, a.sessionFile +
                                     ": no run has parameter snapshots (snapshots = 0, or a "
                                     "session saved before snapshots existed)");
    }
    if (run->snapshots.empty())
        return fail(ExitInvalid, "run '" + a.run + "' has no parameter snapshots");

    ui::AnimationOptions o;
    o.file = QString::fromStdString(a.outDir);
    o.format = ui::animationFormatFor(o.file);
    o.fps = a.fps;
    o.size = QSize(w, h);
    ui::AnimationPanels panels;
    if (!a.panels.empty()) {
        QString why;
        if (!ui::parseAnimationPanels(QString::fromStdString(a.panels), &panels, &why))
            return fail(ExitInvalid, "invalid value '" + a.panels + "' for --panels: " +
                                         why.toStdString());
    }
    panels.runId = run->id;
    const std::vector<long> iterations = ui::snapshotIterations(*run);
    const ui::AnimationResult r =
        ui::exportAnimation(ui::animationFrameRenderer(store, o.size, panels), iterations, o);
    if (!r.ok) return fail(ExitFailed, r.error.toStdString());
    std::cout << (r.film.isEmpty() ? r.framesFolder : r.film).toStdString() << ": "
              << r.frames.size() << " frames of " << run->name.toStdString() << " (iterations "
              << iterations.front() << " to " << iterations.back() << "), " << r.seconds
              << " s at " << o.fps << " frames/s\n";
    if (!r.film.isEmpty())
        std::cout << "frames: " << r.framesFolder.toStdString() << "\n";
    return ExitOk;
}
