#include "inspect/LandscapeSurface.h"

#include <QFont>
#include <QLabel>
#include <QLinearGradient>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QVBoxLayout>
#include <QtDataVisualization/Q3DCamera>
#include <QtDataVisualization/Q3DScene>
#include <QtDataVisualization/Q3DSurface>
#include <QtDataVisualization/Q3DTheme>
#include <QtDataVisualization/QSurface3DSeries>
#include <QtDataVisualization/QSurfaceDataProxy>
#include <QtDataVisualization/QValue3DAxis>

#include <algorithm>
#include <cmath>

#include "inspect/LandscapeJob.h"
#include "inspect/LandscapeMap.h"

namespace ade::ui {

namespace {
constexpr float kZoomLevel = 64.0f;   // percent of the camera preset's distance
constexpr double kLabelScale = 5.0;   // the theme's label type, enlarged
}  // namespace

struct LandscapeSurface::Impl {
    QVBoxLayout* layout = nullptr;
    QLabel* note = nullptr;
    Q3DSurface* graph = nullptr;  // owned by its window container
    QSurface3DSeries* series = nullptr;
    std::shared_ptr<const LandscapeOutcome> outcome;
    bool dataLossOnly = false;
};

LandscapeSurface::LandscapeSurface(QWidget* parent) : QWidget(parent), d_(std::make_unique<Impl>()) {
    d_->layout = new QVBoxLayout(this);
    d_->layout->setContentsMargins(0, 0, 0, 0);
    d_->note = new QLabel(this);
    d_->note->setWordWrap(true);
    d_->note->setText(tr("Compute a landscape to see it as a surface. Drag to rotate, wheel to "
                         "zoom."));
    d_->layout->addWidget(d_->note);
}

LandscapeSurface::~LandscapeSurface() = default;

bool LandscapeSurface::openGlAvailable() {
    static const bool ok = [] {
        QOpenGLContext ctx;
        if (!ctx.create()) return false;
        QOffscreenSurface surface;
        surface.setFormat(ctx.format());
        surface.create();
        if (!surface.isValid() || !ctx.makeCurrent(&surface)) return false;
        ctx.doneCurrent();
        return true;
    }();
    return ok;
}

bool LandscapeSurface::hasSurface() const { return d_->graph != nullptr; }

QString LandscapeSurface::unavailableText() const {
    return tr("The 3-D surface needs OpenGL, and no OpenGL context can be created here. The "
              "contour map shows the same landscape (and is what exports write).");
}

void LandscapeSurface::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    if (!d_->graph) createGraph();
}

void LandscapeSurface::createGraph() {
    if (!openGlAvailable()) {
        d_->note->setText(unavailableText());
        return;
    }
    auto* graph = new Q3DSurface;
    QWidget* container = QWidget::createWindowContainer(graph, this);
    container->setMinimumSize(200, 200);
    container->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    d_->layout->addWidget(container, 1);
    graph->activeTheme()->setType(Q3DTheme::ThemeQt);
    graph->setShadowQuality(QAbstract3DGraph::ShadowQualityNone);
    graph->scene()->activeCamera()->setCameraPreset(Q3DCamera::CameraPresetIsometricLeft);
    // The whole box with its labels in view (at the preset's zoom its front corner and the
    // s and t titles were cut), and labels a class can read: larger type, turned towards the
    // camera instead of lying along their axes, four segments per axis.
    graph->scene()->activeCamera()->setZoomLevel(kZoomLevel);
    QFont font = graph->activeTheme()->font();
    font.setPointSizeF(std::max(font.pointSizeF(), 1.0) * kLabelScale);
    graph->activeTheme()->setFont(font);
    for (QValue3DAxis* axis : {graph->axisX(), graph->axisY(), graph->axisZ()}) {
        axis->setTitleVisible(true);
        axis->setTitleFixed(false);
        axis->setLabelAutoRotation(90.0f);
        axis->setSegmentCount(4);  // fewer, larger labels that do not run into each other
    }
    d_->series = new QSurface3DSeries;
    d_->series->setDrawMode(QSurface3DSeries::DrawSurfaceAndWireframe);
    d_->series->setFlatShadingEnabled(false);
    QLinearGradient gradient;  // viridis, as on the contour map
    gradient.setColorAt(0.0, QColor(68, 1, 84));
    gradient.setColorAt(0.25, QColor(59, 81, 139));
    gradient.setColorAt(0.5, QColor(33, 144, 141));
    gradient.setColorAt(0.75, QColor(92, 200, 99));
    gradient.setColorAt(1.0, QColor(253, 231, 37));
    d_->series->setBaseGradient(gradient);
    d_->series->setColorStyle(Q3DTheme::ColorStyleRangeGradient);
    graph->addSeries(d_->series);
    d_->graph = graph;
    fill();
}

void LandscapeSurface::setLandscape(std::shared_ptr<const LandscapeOutcome> outcome,
                                    bool dataLossOnly) {
    d_->outcome = std::move(outcome);
    d_->dataLossOnly = dataLossOnly;
    fill();
}

void LandscapeSurface::fill() {
    if (!d_->graph || !d_->outcome) return;
    const ade::LandscapeResult& g = d_->outcome->grid;
    const Eigen::MatrixXd& z = d_->dataLossOnly ? g.dataLoss : g.objective;
    const int n = static_cast<int>(z.rows());
    if (n < 2) return;
    // log10 when positive over more than a decade, as the map's colour scale.
    double mn = z.minCoeff(), mx = z.maxCoeff();
    const bool log = std::isfinite(mn) && mn > 0 && mx / mn > 10.0;
    auto* rows = new QSurfaceDataArray;
    rows->reserve(n);
    for (int si = 0; si < n; ++si) {
        auto* row = new QSurfaceDataRow(n);
        for (int ti = 0; ti < n; ++ti) {
            const double v = z(si, ti);
            (*row)[ti].setPosition(QVector3D(float(g.t[ti]), float(log ? std::log10(v) : v),
                                             float(g.s[si])));
        }
        rows->append(row);
    }
    d_->series->dataProxy()->resetArray(rows);
    d_->graph->axisX()->setTitle(landscapeTAxisName(g));
    d_->graph->axisZ()->setTitle(landscapeSAxisName(g));
    const QString q = d_->dataLossOnly ? tr("data loss") : tr("Q");
    d_->graph->axisY()->setTitle(log ? tr("log₁₀ %1").arg(q) : q);
    d_->note->setText(tr("%1 around iteration %2. Drag to rotate, wheel to zoom.")
                          .arg(d_->outcome->runName)
                          .arg(d_->outcome->centreIteration));
}

}  // namespace ade::ui
