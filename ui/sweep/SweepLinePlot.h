#pragma once
#include <vector>
// The one-key view: the objective against the key, per config its mean over seeds (line through
// the means, one line per run of the plan), a band of ± sd (min–max of the seeds where mean − sd
// is not positive on a log axis) and the seeds' own points. Every value is drawn: the x axis is
// linear when any value is <= 0 (and says so), log when all are positive and span >= 10x. The
// scaling-law look (log-log, fitted slope, R², reference slopes -1 and -2 with their own dash
// patterns in the legend) only when the design asks for a fit and there are >= 3 points.
#include "sweep/SweepAxes.h"
#include "sweep/SweepChart.h"

class QFontMetricsF;

namespace ade::ui {

class SweepLinePlot : public SweepChart {
    Q_OBJECT
  public:
    explicit SweepLinePlot(QWidget* parent = nullptr);

    void paintChart(QPainter& p, const QRectF& area) const override;
    int configAt(const QPointF& pos, const QRectF& area) const override;
    QString note() const override { return note_; }
    PaperFigure paperFigure() const override;
    int drawnCount() const override;

    // What the last results gave (tests and the table's caption).
    bool logX() const { return logX_; }
    bool logY() const { return logY_; }
    bool fitted() const { return !fits_.empty(); }
    int referenceSlopes() const { return fits_.empty() ? 0 : 2; }
    int xCount() const { return static_cast<int>(xs_.size()); }  // distinct x values drawn
    struct Fit {
        QString series;
        double slope = 0, intercept = 0, r2 = 0;  // ln y = intercept + slope ln x
        int points = 0;
    };
    const std::vector<Fit>& fits() const { return fits_; }

  protected:
    void resultsChanged() override;

  private:
    struct Layout {
        QRectF plot, legend;
        SweepScale x, y;
    };
    Layout layout(const QRectF& area, const QFontMetricsF& fm) const;
    double xOf(int config) const;  // the config's x value (its category index when not numeric)
    // The configs of series s with a finite x and mean, by x: one curve's points.
    std::vector<int> seriesConfigs(int s) const;
    void drawLegend(QPainter& p, const QRectF& r) const;

    std::vector<QString> series_;     // the plan's run labels, one line each
    std::vector<double> xs_;          // distinct x values
    QStringList categories_;          // when the key is not numeric
    bool numeric_ = true;
    bool logX_ = false, logY_ = false;
    QString note_;
    std::vector<Fit> fits_;
};

}  // namespace ade::ui
