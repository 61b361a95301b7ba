#include "LandscapeFigure.h"

#include <QDir>

#include <algorithm>
#include <iostream>

#include "runs/RunStore.h"
#include "inspect/LandscapeJob.h"
#include "inspect/InsideFigurePaper.h"
#include "inspect/LandscapeMap.h"

bool renderLandscapeFigures(const CliArgs& a, const ade::ui::RunStore& store,
                            const ade::ui::FigureOptions& options,
                            const std::vector<ade::ui::FigureFormat>& formats, const QString& dir,
                            QStringList* written, std::string* error) {
    using namespace ade::ui;
    const RunRecord* run = nullptr;
    for (const auto& r : store.runs()) {
        const bool hasParams = !r->snapshots.empty() || r->finalParams || r->initialParams;
        if (a.run.empty() ? hasParams : r->name.toStdString() == a.run) {
            run = r.get();
            break;
        }
    }
    if (!run) {
        *error = a.run.empty() ? "landscape: no run has parameters"
                                   : "landscape: no run named '" + a.run + "'";
        return false;
    }
    QString why;
    const auto input = landscapeInput(*run, a.iteration, &why);
    if (!input) {
        *error = "landscape: " + why.toStdString();
        return false;
    }
    ade::LandscapeSpec spec;
    spec.grid = a.grid;
    const bool tty = !a.quiet;
    const LandscapeOutcome o = computeLandscapeFor(*input, spec, nullptr, [&](int done, int total) {
        if (tty && (done == total || done % std::max(1, total / 20) == 0))
            std::cerr << "\rlandscape of " << run->name.toStdString() << ": " << done << "/"
                      << total << (done == total ? "\n" : "") << std::flush;
    });
    if (!o.error.isEmpty()) {
        *error = "landscape: " + o.error.toStdString();
        return false;
    }
    LandscapeMapOptions opt;
    if (a.iteration >= 0) opt.markerIteration = a.iteration;
    QDir().mkpath(dir);
    const bool sized = options.widthCm > 0 ||
                       std::find(a.given.begin(), a.given.end(), "--size") != a.given.end();
    const QSize size = sized ? options.size : QSize(900, 760);
    for (FigureFormat f : formats) {
        const QString path = QDir(dir).filePath("landscape." + figureSuffix(f));
        QString err;
        const bool ok = isPaintedFormat(f)
                            ? renderLandscapeMap(o, opt, f, size, path, &err)
                            : writePaperFigure({std::nullopt, landscapeHeatmap(o, opt)}, options, f,
                                               path, &err);
        if (!ok) {
            *error = err.toStdString();
            return false;
        }
        written->append(path);
    }
    return true;
}
