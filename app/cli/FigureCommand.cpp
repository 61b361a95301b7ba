#include "FigureCommand.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPixmap>

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <thread>

#include "charts/FigureRenderer.h"
#include "LandscapeFigure.h"
#include "runs/RunStore.h"
#include "runs/SessionBridge.h"
#include "charts/ScalingPlot.h"
#include "inspect/InsideData.h"
#include "inspect/InsideFigure.h"
#include "output/RunOutput.h"
#include "plan/PlanRunner.h"

using namespace ade;

namespace {
QtMessageHandler previousHandler = nullptr;
// The offscreen platform says "This plugin does not support propagateSizeHints()" for every
// widget it lays out; that says nothing to a CLI user, so it is dropped. Everything else passes.
void headlessMessages(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QLatin1String("does not support propagateSizeHints"))) return;
    if (previousHandler) previousHandler(type, context, message);
}
}  // namespace

HeadlessQt::HeadlessQt(int& argc, char** argv) {
    previousHandler = qInstallMessageHandler(headlessMessages);
    // Headless rendering: no display needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        // Qt wants a private runtime folder; give it one instead of a warning on stderr.
        const QString rt = QDir::tempPath() + "/ade-runtime-" + QString::number(::getuid());
        QDir().mkpath(rt);
        QFile::setPermissions(rt, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("XDG_RUNTIME_DIR", rt.toLocal8Bit());
    }
    app_ = std::make_unique<QApplication>(argc, argv);
}

HeadlessQt::~HeadlessQt() = default;

std::vector<std::string> renderSessionFigures(const Session& session, const std::string& dir,
                                              const std::string& commandLine,
                                              std::string* error) {
    ui::RunStore store;
    ui::addSessionToStore(session, store);
    ui::FigureOptions o;
    o.size = QSize(1200, 800);
    o.metadata = ui::reproductionText(store, QString::fromStdString(commandLine));
    // The charts the window shows by default (the report's reader sees what a class sees).
    std::vector<std::string> out;
    if (!QDir().mkpath(QString::fromStdString(dir))) {
        if (error) *error = "cannot create " + dir;
        return out;
    }
    for (const ui::ChartSpec& spec : ui::figureCharts(store)) {
        if (!spec.shownByDefault) continue;
        ui::FigureOptions co = o;
        co.logY = spec.scale == ade::AxisScale::Log;
        co.symLogY = spec.scale == ade::AxisScale::SymLog;
        if (!ui::figureHasData(spec, store, co)) continue;
        const QString path = QDir(QString::fromStdString(dir)).filePath(spec.id + ".png");
        QString err;
        if (!ui::renderFigure(spec, store, co, ui::FigureFormat::Png, path, &err)) {
            if (error) *error = err.toStdString();
            return out;
        }
        out.push_back(path.toStdString());
    }
    return out;
}

bool renderScalingFigure(const std::vector<PowerLawFit>& fits, const std::string& xKey,
                         const std::string& yLabel, const std::string& path, std::string* error) {
    std::vector<ui::ScalingSeries> series;
    for (const auto& f : fits) {
        ui::ScalingSeries s;
        s.name = QString::fromStdString(f.series);
        s.points = f.xy;
        s.slope = f.slope;
        s.intercept = f.intercept;
        s.fitted = f.points >= 2;
        series.push_back(std::move(s));
    }
    std::unique_ptr<ui::ScalingPlot> plot(ui::createScalingPlot());
    plot->setData(series, QString::fromStdString(xKey), QString::fromStdString(yLabel), {});
    plot->resize(1200, 800);
    const QString file = QString::fromStdString(path);
    QDir().mkpath(QFileInfo(file).absolutePath());
    if (!plot->grab().save(file, "PNG")) {
        if (error) *error = "cannot write " + path;
        return false;
    }
    return true;
}

namespace {
int fail(int code, const std::string& m) {
    std::cerr << "attention-explorer-cli: " << m << "\n";
    return code;
}

// A number in [lo, hi] from the whole of `text`.
bool numberIn(const std::string& text, double lo, double hi, double* out) {
    bool ok = false;
    const double v = QString::fromStdString(text).trimmed().toDouble(&ok);
    if (!ok || !(v >= lo && v <= hi)) return false;
    *out = v;
    return true;
}

// --width-cm / --columns and --font-pt into `o` (as the Export dialog sets them); false with a
// message naming the option and what it takes.
bool paperKnobs(const CliArgs& a, ui::FigureOptions* o, std::string* error) {
    if (!a.widthCm.empty() && !a.columns.empty()) {
        *error = "give --width-cm or --columns, not both";
        return false;
    }
    const bool sizeGiven = std::find(a.given.begin(), a.given.end(), "--size") != a.given.end();
    if (sizeGiven && (!a.widthCm.empty() || !a.columns.empty())) {
        *error = "give --size (pixels) or --width-cm/--columns (a paper's width), not both";
        return false;
    }
    if (!a.fontPt.empty() && !numberIn(a.fontPt, 4, 48, &o->fontPt)) {
        *error = "invalid value '" + a.fontPt + "' for --font-pt: expected a type size in points, 4 to 48";
        return false;
    }
    double cm = 0;
    if (!a.columns.empty()) {
        if (a.columns != "1" && a.columns != "2") {
            *error = "invalid value '" + a.columns + "' for --columns: expected 1 (a column of a "
                     "two-column paper) or 2 (its text width)";
            return false;
        }
        cm = a.columns == "1" ? ui::kOneColumnCm : ui::kTwoColumnsCm;
    } else if (!a.widthCm.empty() && !numberIn(a.widthCm, 3, 50, &cm)) {
        *error = "invalid value '" + a.widthCm + "' for --width-cm: expected a width in cm, 3 to 50";
        return false;
    }
    if (cm > 0) ui::applyPaperWidth(*o, cm);
    return true;
}
}  // namespace

int runFigureCommand(const CliArgs& a, const PresetLibrary& lib, int argc, char** argv) {
    const int sources = !a.preset.empty() + !a.configFile.empty() + !a.sessionFile.empty();
    if (sources != 1)
        return fail(ExitInvalid, "give exactly one of --preset, --config or --session");
    if (a.outDir.empty()) return fail(ExitInvalid, "--out DIR is required");
    std::vector<ui::FigureFormat> formats;
    for (const QString& f : QString::fromStdString(a.formats).split(',', Qt::SkipEmptyParts)) {
        ui::FigureFormat ff;
        if (!ui::parseFigureFormat(f, &ff))
            return fail(ExitInvalid, "invalid value '" + f.toStdString() +
                                         "' for --format: expected png, svg, pdf, pgf or mpl");
        formats.push_back(ff);
    }
    if (formats.empty()) return fail(ExitInvalid, "--format needs at least one of png, svg, pdf, pgf, mpl");
    // --panels: the charts (the default), the inside views and the loss landscape.
    bool charts = a.panels.empty(), landscape = false;
    std::vector<ui::InsidePanel> panels;
    for (const QString& name : QString::fromStdString(a.panels).split(',', Qt::SkipEmptyParts)) {
        ui::InsidePanel panel;
        if (name == "charts")
            charts = true;
        else if (name == "landscape")
            landscape = true;
        else if (ui::parseInsidePanel(name, &panel))
            panels.push_back(panel);
        else
            return fail(ExitInvalid, "invalid value '" + name.toStdString() +
                                         "' for --panels: expected charts, matrices, attention, "
                                         "factor-plane or landscape");
    }
    if (!charts && !landscape && panels.empty())
        return fail(ExitInvalid, "--panels needs at least one of charts, matrices, attention, "
                                 "factor-plane, landscape");
    if (!landscape && panels.empty() && (a.iteration >= 0 || !a.run.empty()))
        return fail(ExitInvalid, "--iteration and --run apply to the inside views of --panels "
                                 "(matrices, attention, factor-plane, landscape) only");
    ui::FigureOptions o;
    {
        const QStringList wh = QString::fromStdString(a.size).toLower().split('x');
        bool okw = false, okh = false;
        const int w = wh.size() == 2 ? wh[0].toInt(&okw) : 0,
                  h = wh.size() == 2 ? wh[1].toInt(&okh) : 0;
        if (!okw || !okh || w < 200 || h < 150 || w > 10000 || h > 10000)
            return fail(ExitInvalid, "invalid value '" + a.size +
                                         "' for --size: expected WxH, 200x150 to 10000x10000");
        o.size = QSize(w, h);
    }
    {
        std::string err;
        if (!paperKnobs(a, &o, &err)) return fail(ExitInvalid, err);
    }
    if (a.style == "screen")
        o.style = ui::FigureStyle::Screen;
    else if (a.style != "publication")
        return fail(ExitInvalid,
                    "invalid value '" + a.style + "' for --style: expected screen or publication");

    HeadlessQt qt(argc, argv);
    ui::RunStore store;

    if (!a.sessionFile.empty()) {
        const auto r = readSessionFile(a.sessionFile);
        if (!r.session) return fail(ExitInvalid, r.error);
        for (const auto& w : r.warnings)
            std::cerr << "attention-explorer-cli: warning: " << w << "\n";
        ui::addSessionToStore(*r.session, store);
    } else {
        PlanError pe;
        auto plan = a.preset.empty() ? loadPlanFile(a.configFile, a.sets, &pe)
                                     : lib.load(a.preset, a.sets, &pe);
        if (!plan) return fail(ExitInvalid, pe.message);
        std::string err;  // an unusable --out is reported before the runs, not after
        if (!prepareOutputFolder(a.outDir, &err)) return fail(ExitFailed, err);
        PlanRunOptions ro;
        ro.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        const auto outcomes = runPlanned(plainRuns(*plan), plan->name, ro);
        Session s;
        s.preset = plan->name;
        for (const auto& out : outcomes) {
            if (out.result.status == RunStatus::Failed)
                return fail(ExitInvalid, out.run.name + ": " + out.error);
            s.runs.push_back(sessionRunOf(out, plan->seeds));
        }
        ui::addSessionToStore(s, store);
    }
    o.metadata = ui::reproductionText(store, QString::fromStdString(a.commandLine));
    QString error;
    const QString dir = QString::fromStdString(a.outDir);
    QStringList files;
    if (charts) files = ui::renderAllFigures(store, o, formats, dir, &error);
    if (error.isEmpty() && !panels.empty()) {
        int runId = 0;
        if (!a.run.empty()) {
            for (const auto& r : store.runs())
                if (r->name.toStdString() == a.run) runId = r->id;
            if (runId == 0) return fail(ExitInvalid, "no run named '" + a.run + "'");
        }
        if (!QDir().mkpath(dir)) return fail(ExitFailed, "cannot create " + a.outDir);
        ui::ProblemCache problems;
        for (ui::InsidePanel panel : panels)
            for (ui::FigureFormat f : formats) {
                ui::InsideFrameSpec spec;
                spec.panel = panel;
                spec.runId = runId;
                spec.iteration = a.iteration;
                const QString path =
                    QDir(dir).filePath(ui::insidePanelId(panel) + "." + ui::figureSuffix(f));
                if (!ui::renderInsidePanel(store, problems, spec, o, f, path, &error))
                    return fail(ExitFailed, error.toStdString());
                files << path;
            }
    }
    if (!error.isEmpty()) return fail(ExitFailed, error.toStdString());
    std::string err;
    if (landscape && !renderLandscapeFigures(a, store, o, formats, dir, &files, &err))
        return fail(ExitFailed, err);
    const Session session = ui::sessionFromStore(store);
    if (!writeSessionFile(QDir(dir).filePath("session.json").toStdString(), session, true, &err))
        return fail(ExitFailed, err);
    for (const auto& f : files)
        std::cout << "wrote " << f.toStdString() << "\n";
    return ExitOk;
}
