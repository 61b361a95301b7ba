#include "inspect/LandscapeMap.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

#include "base/ColorMaps.h"
#include "base/FigureFile.h"
#include "charts/FigureHeatmap.h"
#include "inspect/InsideFigure.h"

namespace ade::ui {

namespace {

// The colour scale: log10 when the values are positive and span more than a decade.
struct Scale {
    bool log = false;
    double lo = 0, hi = 1;
    double map(double v) const {
        const double x = log ? std::log10(std::max(v, 1e-300)) : v;
        return hi > lo ? (x - lo) / (hi - lo) : 0.5;
    }
    double value(double u) const {
        const double x = lo + u * (hi - lo);
        return log ? std::pow(10.0, x) : x;
    }
};

Scale scaleOf(const Eigen::MatrixXd& z) {
    Scale s;
    double mn = INFINITY, mx = -INFINITY;
    for (Eigen::Index i = 0; i < z.size(); ++i)
        if (std::isfinite(z(i))) mn = std::min(mn, z(i)), mx = std::max(mx, z(i));
    if (!std::isfinite(mn)) return s;
    s.log = mn > 0 && mx / mn > 10.0;
    s.lo = s.log ? std::log10(mn) : mn;
    s.hi = s.log ? std::log10(mx) : mx;
    return s;
}

double bilinear(const Eigen::MatrixXd& z, double r, double c) {
    const Eigen::Index r0 = std::min<Eigen::Index>(static_cast<Eigen::Index>(r), z.rows() - 2);
    const Eigen::Index c0 = std::min<Eigen::Index>(static_cast<Eigen::Index>(c), z.cols() - 2);
    const double fr = r - r0, fc = c - c0;
    return (1 - fr) * ((1 - fc) * z(r0, c0) + fc * z(r0, c0 + 1)) +
           fr * ((1 - fc) * z(r0 + 1, c0) + fc * z(r0 + 1, c0 + 1));
}

// Iso lines by marching squares, in grid coordinates (column, row).
void isoLines(const Eigen::MatrixXd& u, double level, std::vector<QLineF>& out) {
    auto cross = [&](double a, double b) { return (level - a) / (b - a); };
    for (Eigen::Index r = 0; r + 1 < u.rows(); ++r)
        for (Eigen::Index c = 0; c + 1 < u.cols(); ++c) {
            const double v[4] = {u(r, c), u(r, c + 1), u(r + 1, c + 1), u(r + 1, c)};
            if (!std::all_of(v, v + 4, [](double x) { return std::isfinite(x); })) continue;
            const QPointF corner[4] = {{double(c), double(r)}, {double(c + 1), double(r)},
                                       {double(c + 1), double(r + 1)}, {double(c), double(r + 1)}};
            std::vector<QPointF> pts;
            for (int e = 0; e < 4; ++e) {
                const double a = v[e], b = v[(e + 1) % 4];
                if ((a < level) != (b < level)) {
                    const double f = cross(a, b);
                    pts.push_back(corner[e] + f * (corner[(e + 1) % 4] - corner[e]));
                }
            }
            for (std::size_t i = 0; i + 1 < pts.size(); i += 2) out.emplace_back(pts[i], pts[i + 1]);
        }
}

QString number(double v) { return QString::number(v, 'g', 3); }

}  // namespace

QString landscapeTAxisName(const ade::LandscapeResult& r) {
    if (!r.hasOrbit) return QObject::tr("t: a second filter-normalised random direction");
    const QString orbit = r.orbitLabel.empty() ? QStringLiteral("(e^t L, e^−t R)")
                                               : QString::fromStdString(r.orbitLabel);
    return QObject::tr("t: along the orbit %1").arg(orbit);
}

QString landscapeSAxisName(const ade::LandscapeResult& r) {
    if (r.spec.normal == ade::LandscapeNormal::HessianTop)
        return QObject::tr("s: top Hessian eigenvector, λ = %1 (%2 power iterations)")
            .arg(number(r.eigenvalue))
            .arg(r.powerIterationsUsed);
    return QObject::tr("s: filter-normalised random direction");
}

int landscapeMarkerIndex(const LandscapeOutcome& o, std::optional<long> iteration) {
    if (o.path.empty()) return -1;
    if (!iteration || *iteration < 0) return static_cast<int>(o.path.size()) - 1;
    int best = -1;
    for (std::size_t i = 0; i < o.pathIterations.size(); ++i)
        if (o.pathIterations[i] <= *iteration) best = static_cast<int>(i);
    return best;
}

void drawLandscapeMap(QPainter& p, const QRectF& rect, const LandscapeOutcome& o,
                      const LandscapeMapOptions& opt) {
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect, Qt::white);
    const ade::LandscapeResult& g = o.grid;
    const Eigen::MatrixXd& z = opt.dataLossOnly ? g.dataLoss : g.objective;
    QFont font = p.font();
    font.setPointSizeF(9);
    p.setFont(font);
    const QFontMetricsF fm(font);
    const double line = fm.height();
    const QRectF plot = rect.adjusted(14 + 3.4 * line, 2.2 * line, -(60 + 4 * line), -5.5 * line);
    const QString title =
        !opt.title.isEmpty()
            ? opt.title
            : QObject::tr("%1: %2 around iteration %3")
                  .arg(o.runName,
                       opt.dataLossOnly ? QObject::tr("data loss") : QObject::tr("objective Q"))
                  .arg(o.centreIteration);
    QFont bold = font;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(Qt::black);
    p.drawText(QRectF(rect.left(), rect.top() + 0.4 * line, rect.width(), line * 1.4),
               Qt::AlignHCenter | Qt::AlignVCenter, title);
    p.setFont(font);
    const int n = static_cast<int>(z.rows());
    if (n < 2 || plot.width() < 20 || plot.height() < 20) {
        p.restore();
        return;
    }
    const Scale sc = scaleOf(z);
    Eigen::MatrixXd u(n, n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) u(r, c) = std::isfinite(z(r, c)) ? sc.map(z(r, c)) : NAN;

    // Filled colour image (bilinear between grid points), s upwards.
    const int res = 8 * (n - 1) + 1;
    QImage img(res, res, QImage::Format_RGB32);
    for (int y = 0; y < res; ++y)
        for (int x = 0; x < res; ++x) {
            const double r = (res - 1 - y) / 8.0, c = x / 8.0;
            const double v = bilinear(u, r, c);
            img.setPixelColor(x, y, std::isfinite(v) ? viridisColor(v) : QColor(235, 235, 235));
        }
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(plot, img);

    const double t0 = g.t.front(), t1 = g.t.back(), s0 = g.s.front(), s1 = g.s.back();
    auto toPlot = [&](double t, double s) {
        return QPointF(plot.left() + (t - t0) / (t1 - t0) * plot.width(),
                       plot.bottom() - (s - s0) / (s1 - s0) * plot.height());
    };
    auto gridToPlot = [&](QPointF cr) {
        return QPointF(plot.left() + cr.x() / (n - 1) * plot.width(),
                       plot.bottom() - cr.y() / (n - 1) * plot.height());
    };
    // Iso lines: 12 levels evenly spaced in the colour scale.
    p.setPen(QPen(QColor(255, 255, 255, 150), 0.8));
    std::vector<QLineF> segs;
    for (int k = 1; k <= 12; ++k) isoLines(u, k / 13.0, segs);
    for (const QLineF& l : segs) p.drawLine(gridToPlot(l.p1()), gridToPlot(l.p2()));
    // The centre θ.
    p.setPen(QPen(Qt::white, 1.2));
    const QPointF centre = toPlot(0, 0);
    p.drawLine(centre + QPointF(-6, 0), centre + QPointF(6, 0));
    p.drawLine(centre + QPointF(0, -6), centre + QPointF(0, 6));

    // The trajectory, then the marker of the current iterate.
    p.save();
    p.setClipRect(plot);
    int outside = 0;
    QPainterPath path;
    for (std::size_t i = 0; i < o.path.size(); ++i) {
        const QPointF q = toPlot(o.path[i].x(), o.path[i].y());
        if (!plot.contains(q)) ++outside;
        if (i == 0) path.moveTo(q); else path.lineTo(q);
    }
    p.setPen(QPen(QColor(255, 255, 255), 3.0));
    p.drawPath(path);
    p.setPen(QPen(QColor(20, 20, 20), 1.4));
    p.drawPath(path);
    p.setBrush(QColor(20, 20, 20));
    for (const auto& pt : o.path) p.drawEllipse(toPlot(pt.x(), pt.y()), 1.8, 1.8);
    const int m = landscapeMarkerIndex(o, opt.markerIteration);
    if (m >= 0) {
        p.setPen(QPen(Qt::white, 2.0));
        p.setBrush(QColor(213, 94, 0));  // vermilion: visible on every viridis colour
        p.drawEllipse(toPlot(o.path[m].x(), o.path[m].y()), 6, 6);
    }
    p.restore();
    p.setBrush(Qt::NoBrush);

    // Axes: frame, ticks, names.
    p.setPen(QPen(Qt::black, 1));
    p.drawRect(plot);
    for (int k = 0; k <= 4; ++k) {
        const double t = t0 + k * (t1 - t0) / 4, s = s0 + k * (s1 - s0) / 4;
        const QPointF xt = toPlot(t, s0), ys = toPlot(t0, s);
        p.drawLine(xt, xt + QPointF(0, 4));
        p.drawText(QRectF(xt.x() - 30, xt.y() + 4, 60, line), Qt::AlignHCenter, number(t));
        p.drawLine(ys, ys - QPointF(4, 0));
        p.drawText(QRectF(ys.x() - 46, ys.y() - line / 2, 40, line),
                   Qt::AlignRight | Qt::AlignVCenter, number(s));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 1.3 * line, plot.width(), line),
               Qt::AlignHCenter, landscapeTAxisName(g));
    p.save();
    p.translate(plot.left() - 2.6 * line - 10, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -line / 2, plot.height(), line), Qt::AlignCenter,
               landscapeSAxisName(g));
    p.restore();

    // Colour bar.
    const QRectF bar(plot.right() + 1.2 * line, plot.top(), 0.9 * line, plot.height());
    for (int y = 0; y < static_cast<int>(bar.height()); ++y)
        p.fillRect(QRectF(bar.left(), bar.bottom() - y - 1, bar.width(), 1.5),
                   viridisColor(y / bar.height()));
    p.drawRect(bar);
    // Round values: on a log scale whole powers of ten (2 and 5 times them within a decade),
    // never a fractional power (10^0.5 read "3.16"), as the charts' log axes and the paper
    // figures' colour bars (colourScaleTicks).
    for (const Tick& t : colourScaleTicks(sc.value(0), sc.value(1), sc.log, bar.height(), p.font())) {
        const double u = sc.hi > sc.lo ? (t.value - sc.lo) / (sc.hi - sc.lo) : 0.5;
        if (u < -1e-9 || u > 1 + 1e-9) continue;
        const double y = bar.bottom() - u * bar.height();
        p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3, y));
        p.drawText(QRectF(bar.right() + 5, y - line / 2, 70, line), Qt::AlignLeft | Qt::AlignVCenter, t.text);
    }
    p.save();
    p.translate(bar.right() + 3.4 * line + 30, bar.center().y());
    p.rotate(90);
    p.drawText(QRectF(-bar.height() / 2, -line / 2, bar.height(), line), Qt::AlignCenter,
               (opt.dataLossOnly ? QObject::tr("data loss") : QObject::tr("Q = loss + regulariser")) +
                   (sc.log ? QObject::tr(" (log scale)") : QString()));
    p.restore();

    // Notes: the orbit's flatness measured, the trajectory's projection.
    const Eigen::VectorXd slice = g.dataLoss.row(n / 2).transpose();
    QString orbitNote;
    if (g.hasOrbit && slice.allFinite()) {
        const double spread = (slice.maxCoeff() - slice.minCoeff()) / std::abs(slice.mean());
        orbitNote = g.orbitExact
                        ? QObject::tr("Data loss along the orbit through θ: relative spread %1 "
                                      "(an exact symmetry; only the regulariser changes).")
                              .arg(number(spread))
                        : QObject::tr("Data loss along the orbit through θ: relative spread %1 "
                                      "(a symmetry of E(θ) as n → ∞ only, not of L_n).")
                              .arg(number(spread));
    }
    QString pathNote = QObject::tr("Trajectory (%1, %2 points%3): each θ_k moved back along the "
                                   "orbit to the point nearest θ (t), then projected onto d (s).")
                           .arg(o.pathSource)
                           .arg(o.path.size())
                           .arg(outside ? QObject::tr(", %1 outside the map").arg(outside)
                                        : QString());
    if (!g.hasOrbit)
        pathNote = QObject::tr("Trajectory (%1): θ_k − θ projected onto both directions.")
                       .arg(o.pathSource);
    const QRectF notes(rect.left() + 8, plot.bottom() + 2.6 * line, rect.width() - 16, 2.8 * line);
    p.setPen(QColor(60, 60, 60));
    p.drawText(notes, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               orbitNote + QLatin1Char(' ') + pathNote +
                   QObject::tr(" Grid %1×%1, seed %2.").arg(n).arg(g.spec.seed));
    p.restore();
}

bool renderLandscapeMap(const LandscapeOutcome& o, const LandscapeMapOptions& options,
                        FigureFormat format, const QSize& size, const QString& path,
                        QString* error) {
    const auto paint = [&](QPainter& p, const QRectF& area) { drawLandscapeMap(p, area, o, options); };
    return renderPainting(paint, size, 2.0, format, path, QObject::tr("Loss landscape"), {}, error);
}

}  // namespace ade::ui
