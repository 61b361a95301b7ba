#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>

#include <cmath>

#include "base/Palette.h"
#include "charts/ScalingPlot.h"

namespace ade::ui {

namespace {

class QtScalingPlot final : public ScalingPlot {
  public:
    explicit QtScalingPlot(QWidget* parent) : ScalingPlot(parent) {
        setObjectName(QStringLiteral("scalingPlot"));
        chart_ = new QChart;
        chart_->setAnimationOptions(QChart::NoAnimation);
        chart_->legend()->setAlignment(Qt::AlignBottom);
        // Line samples (with their dash patterns) rather than identical squares, so the two
        // reference slopes are told apart in the legend.
        chart_->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
        auto* view = new QChartView(chart_, this);
        view->setRenderHint(QPainter::Antialiasing);
        auto* lay = new QVBoxLayout(this);
        lay->setContentsMargins(0, 0, 0, 0);
        lay->addWidget(view);
        setData({}, tr("n"), tr("excess risk (floor)"), {});
    }

    void setData(const std::vector<ScalingSeries>& series, const QString& xLabel,
                 const QString& yLabel, const std::vector<double>& refs) override {
        chart_->removeAllSeries();
        // The axes live as long as the chart: removing and deleting axes leaves stale labels.
        if (!ax_) {
            ax_ = new QLogValueAxis;
            ay_ = new QLogValueAxis;
            ax_->setLabelFormat(QStringLiteral("%g"));
            ay_->setLabelFormat(QStringLiteral("%.0e"));
            chart_->addAxis(ax_, Qt::AlignBottom);
            chart_->addAxis(ay_, Qt::AlignLeft);
        }
        QLogValueAxis* ax = ax_;
        QLogValueAxis* ay = ay_;
        ax->setTitleText(xLabel);
        ay->setTitleText(yLabel);
        chart_->setTitle(tr("Data–compute scaling: %1 against %2").arg(yLabel, xLabel));
        double x0 = 1e300, x1 = 0, y0 = 1e300, y1 = 0;
        auto attach = [&](QXYSeries* s) {
            chart_->addSeries(s);
            s->attachAxis(ax);
            s->attachAxis(ay);
        };
        count_ = 0;
        for (std::size_t i = 0; i < series.size(); ++i) {
            const auto& s = series[i];
            if (s.points.empty()) continue;
            ++count_;
            auto* pts = new QScatterSeries;
            pts->setName(s.fitted ? tr("%1 (slope %2)").arg(s.name).arg(s.slope, 0, 'f', 2)
                                  : s.name);
            pts->setColor(paletteColor(static_cast<int>(i)));
            pts->setMarkerSize(9);
            for (const auto& [x, y] : s.points) {
                if (!(x > 0 && y > 0)) continue;
                pts->append(x, y);
                x0 = std::min(x0, x), x1 = std::max(x1, x);
                y0 = std::min(y0, y), y1 = std::max(y1, y);
            }
            attach(pts);
            if (s.fitted && s.points.size() >= 2) {
                auto* fit = new QLineSeries;
                fit->setName(tr("fit %1").arg(s.name));
                fit->setPen(QPen(paletteColor(static_cast<int>(i)), 2));
                for (double x : {s.points.front().first, s.points.back().first})
                    fit->append(x, std::exp(s.intercept + s.slope * std::log(x)));
                attach(fit);
            }
        }
        if (count_ > 0 && x1 > x0) {
            const auto& anchor = series.front().points.front();
            int k = 0;
            for (double slope : refs) {
                auto* ref = new QLineSeries;
                ref->setName(tr("slope %1").arg(slope));
                ref->setPen(QPen(QColor(90, 90, 90), 1.2, paletteStyle(1 + k++)));
                for (double x : {x0, x1}) {
                    const double y = anchor.second * std::pow(x / anchor.first, slope);
                    ref->append(x, y);
                    y0 = std::min(y0, y), y1 = std::max(y1, y);
                }
                attach(ref);
            }
            // Qt Charts places log-axis labels correctly only when the range ends are powers of
            // the base: snap to powers of 2 (sweeps over n are usually powers of 2 anyway).
            ax->setBase(2);
            ax->setRange(std::pow(2.0, std::floor(std::log2(x0 / 1.3))),
                         std::pow(2.0, std::ceil(std::log2(x1 * 1.3))));
            // Fewer than three decades: ticks at 10^(1/n) steps, so that the axis has more than
            // its two end labels (the range ends stay powers of the base).
            const double d0 = std::log10(y0), d1 = std::log10(y1);
            const double decades = std::ceil(d1) - std::floor(d0);
            const int n = decades <= 1 ? 4 : decades <= 2 ? 2 : 1;
            ay->setBase(std::pow(10.0, 1.0 / n));
            ay->setLabelFormat(n == 1 ? QStringLiteral("%.0e") : QStringLiteral("%.2g"));
            ay->setRange(std::pow(10, std::floor(d0 * n) / n), std::pow(10, std::ceil(d1 * n) / n));
        } else {
            ax->setBase(10);
            ax->setRange(10, 1000);
            ay->setBase(10);
            ay->setLabelFormat(QStringLiteral("%.0e"));
            ay->setRange(1e-6, 1);
        }
    }
    int seriesCount() const override { return count_; }

  private:
    QChart* chart_ = nullptr;
    QLogValueAxis* ax_ = nullptr;
    QLogValueAxis* ay_ = nullptr;
    int count_ = 0;
};

}  // namespace

ScalingPlot* createScalingPlot(QWidget* parent) {
    return new QtScalingPlot(parent);
}

}  // namespace ade::ui
