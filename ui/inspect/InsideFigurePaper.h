#pragma once
// The inside views as paper figures (PGFPlots, matplotlib): each panel's scene turned into data,
// every entry at full resolution. Matrices and attention are heatmaps (HeatmapFigure: the
// diverging PuOr map symmetric around 0 per row of matrices, the sequential Blues map from 0 to
// the largest weight), the factor plane is lines (FigureData: each run's path, the balanced
// diagonal), the loss landscape is its grid as a heatmap (viridis, log when it spans decades)
// with the run's projected trajectory over it. The GUI's export of an inside view and
// `attention-explorer-cli figure --panels ... --format pgf,mpl` both write them.
#include "charts/FigureHeatmap.h"
#include "inspect/InsideFigure.h"

namespace ade::ui {

struct AttentionScene;
struct FactorPlaneScene;
struct FigureOptions;
struct LandscapeMapOptions;
struct LandscapeOutcome;
struct MatrixScene;

HeatmapFigure matrixHeatmaps(const MatrixScene& scene);
HeatmapFigure attentionHeatmaps(const AttentionScene& scene);
FigureData factorPlaneFigure(const FactorPlaneScene& scene);
HeatmapFigure landscapeHeatmap(const LandscapeOutcome& outcome, const LandscapeMapOptions& options);

// The panel of `spec` (its problem built synchronously) as a paper figure; false with `error`
// (the scene's note) when the panel has nothing to draw.
bool insidePaperFigure(const RunStore& store, ProblemCache& problems, const InsideFrameSpec& spec,
                       PaperFigure* out, QString* error);

// Writes it as `format` (Pgf or Mpl) at `path` with `options` (width in cm, type size, metadata).
bool writeInsidePaperFigure(const RunStore& store, ProblemCache& problems,
                            const InsideFrameSpec& spec, const FigureOptions& options,
                            FigureFormat format, const QString& path, QString* error);

}  // namespace ade::ui
