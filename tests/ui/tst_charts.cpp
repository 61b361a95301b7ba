// Decimation, smoothing and the run store: the data path from records to drawn points.
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>
#include <QApplication>
#include <QWheelEvent>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>
#include <QGraphicsScene>
#include <QPainter>

#include <cmath>

#include "charts/ChartArea.h"
#include "runs/RunStore.h"
#include "ChartCurves.h"
#include "Waits.h"
#include "charts/ChartPanel.h"
#include "charts/Decimate.h"
#include "charts/RefreshPacer.h"
#include "charts/SymLog.h"
#include "charts/Ticks.h"
#include "base/RichText.h"
#include "Configs.h"
#include "experiments/ExperimentRegistry.h"

#include <QFontMetricsF>

using namespace ade::ui;

namespace {

// The ids of the charts a grid shows, in grid order.
QStringList panelIds(const ChartArea& area) {
    QStringList out;
    for (ChartPanel* p : area.panels())
        out << p->spec().id;
    return out;
}

// A tick label's number: "0.25", "−0.5", "10⁻⁶", "2×10⁻⁵".
double tickValue(QString t, bool* ok) {
    static const QString sup = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹");
    t.replace(QChar(0x2212), QLatin1Char('-'));
    const qsizetype ten = t.indexOf(QStringLiteral("10"), t.indexOf(QChar(0x00D7)) + 1);
    if (ten >= 0 && ten + 2 < t.size() && (t[ten + 2] == QChar(0x207B) || sup.contains(t[ten + 2]))) {
        QString exponent;
        for (qsizetype k = ten + 2; k < t.size(); ++k)
            exponent += t[k] == QChar(0x207B) ? QChar(u'-')
                                              : QChar(static_cast<char16_t>(u'0' + sup.indexOf(t[k])));
        const int e = exponent.toInt(ok);
        const qsizetype times = t.indexOf(QChar(0x00D7));
        const double m = times > 0 ? t.left(times).toDouble() : 1.0;
        return m * std::pow(10.0, e);
    }
    return t.toDouble(ok);
}

// An axis' tick texts are numbers (a true minus allowed, zero as "0", nothing like
// "5.55112e-17" or "1e-03"), one 1-2-5 step apart; on a log axis they may instead each be
// 1, 2, 3 or 5 times a power of ten.
void checkRoundTicks(const ChartPanel* p, Qt::Orientation o, bool log = false) {
    const QStringList texts = p->tickTexts(o);
    QVERIFY2(!texts.isEmpty(), "no tick labels");
    std::vector<double> v;
    for (const QString& t : texts) {
        bool ok = false;
        v.push_back(tickValue(t, &ok));
        QVERIFY2(ok && !t.contains(QLatin1Char('e')), qPrintable(texts.join(' ')));
        QVERIFY2(v.back() != 0 || t == QStringLiteral("0"), qPrintable(texts.join(' ')));
    }
    auto roundMantissa = [](double x, std::initializer_list<double> ms) {
        const double m = std::abs(x) / std::pow(10.0, std::floor(std::log10(std::abs(x)) + 1e-12));
        return std::any_of(ms.begin(), ms.end(), [&](double r) { return std::abs(m - r) < 1e-6; });
    };
    if (log && std::all_of(v.begin(), v.end(), [&](double x) { return roundMantissa(x, {1, 2, 3, 5}); }))
        return;
    for (std::size_t i = 1; i < v.size(); ++i) {
        const double step = v[1] - v[0];
        QVERIFY2(std::abs((v[i] - v[i - 1]) - step) <= 1e-9 * std::abs(step), qPrintable(texts.join(' ')));
        QVERIFY2(roundMantissa(step, {1, 2, 5}), qPrintable(texts.join(' ')));
    }
}

}  // namespace

class TestCharts : public QObject {
    Q_OBJECT
  private slots:
    // The live frame rate: with cores to spare a frame waits only as long as it took; while the
    // solvers fill every core the GUI thread keeps to its share of one core (8 %), frames and
    // its other work together, but never below 10 frames per second.
    void framesKeepToTheirShareOfACoreWhileTheSolversFillTheCores() {
        using P = RefreshPacer;
        QCOMPARE(P::frameGapMs(3.0, 2.5, false), 3.0);  // spare cores: as fast as frames go
        QCOMPARE(P::frameGapMs(3.0, 2.0, true), 25.0);  // 2 ms of CPU: 40 frames/s, 8 %
        QCOMPARE(P::frameGapMs(3.0, 4.0, true), 50.0);  // 4 ms: 20 frames/s, 8 %
        QCOMPARE(P::frameGapMs(3.0, 20.0, true), 100.0);  // dearer: still 10 frames/s
        QCOMPARE(P::frameGapMs(150.0, 20.0, true), 150.0);  // never sooner than it took
        for (double cpu : {0.5, 1.0, 3.0, 6.0, 8.0}) {
            const double gap = P::frameGapMs(cpu, cpu, true);
            QVERIFY(cpu / gap <= P::kBusyShare + 1e-12);
            QVERIFY(gap <= 1000.0 / P::kMinFps);
        }
        // The share is the GUI thread's in all: what its other work takes, the frames do not.
        QCOMPARE(P::frameGapMs(3.0, 2.0, true, 0.04), 50.0);  // 4 % left: 20 frames/s
        QCOMPARE(P::frameGapMs(3.0, 2.0, true, 0.07), 100.0);  // 1 % left: the 10 frames/s floor
        QCOMPARE(P::frameGapMs(3.0, 2.0, true, 0.30), 100.0);  // none left: the floor
        QCOMPARE(P::frameGapMs(3.0, 2.0, false, 0.30), 3.0);   // spare cores: as before
        for (double other : {0.0, 0.02, 0.05})
            for (double cpu : {0.5, 1.0, 2.0}) {
                const double gap = P::frameGapMs(cpu, cpu, true, other);
                QVERIFY(cpu / gap + other <= P::kBusyShare + 1e-12 || gap == 1000.0 / P::kMinFps);
            }
    }

    void decimateKeepsExtremesAndBoundsPoints() {
        std::vector<double> x(100000), y(100000);
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = static_cast<double>(i);
            y[i] = std::sin(i * 0.01);
        }
        y[54321] = 50.0;  // a single spike must survive
        y[77777] = -50.0;
        DecimateRequest r;
        r.x0 = 0;
        r.x1 = 99999;
        r.pixels = 500;
        const auto pts = decimate(x, y, r);
        QVERIFY(pts.size() <= 2 * 500 + 4);
        QVERIFY(pts.size() >= 500);
        double hi = -1e9, lo = 1e9;
        for (const auto& p : pts)
            hi = std::max(hi, p.y()), lo = std::min(lo, p.y());
        QCOMPARE(hi, 50.0);
        QCOMPARE(lo, -50.0);
        for (int i = 1; i < pts.size(); ++i)
            QVERIFY(pts[i].x() >= pts[i - 1].x());
    }
    // The papers' notation is drawn with real subscripts: in the chart's title, its legend and
    // its axis title; a run's name with an underscore is left as it is.
    void notationHasSubscripts() {
        QCOMPARE(subscriptHtml(QStringLiteral("‖W_Q‖_F")), QStringLiteral("‖W<sub>Q</sub>‖<sub>F</sub>"));
        QCOMPARE(subscriptHtml(QStringLiteral("x_{ij} < 1")), QStringLiteral("x<sub>ij</sub> &lt; 1"));
        QCOMPARE(subscriptHtml(QStringLiteral("plain")), QString());
        QCOMPARE(subscriptHtml(QStringLiteral("a _ b")), QString());
        RunStore s;
        const ade::Config b = adetest::configFrom({{"experiment", "b"}});
        const int id = s.addRun(QStringLiteral("none_seed1"), b);
        s.setColumns(id, {"iteration", "norm_WQ", "norm_WK"});
        s.appendRows(id, {{0, 1.0, 1.0}, {1, 2.0, 1.5}});
        s.appendRows(s.addRun(QStringLiteral("power_seed1"), b), {});
        ChartSpec norms;
        for (const ChartSpec& spec : chartSpecsFor({"b"}))
            if (spec.title.startsWith(QStringLiteral("Weight norms"))) norms = spec;
        QVERIFY(!norms.id.isEmpty());
        std::unique_ptr<ChartPanel> p(createChartPanel(norms));
        p->refresh(s, true);
        QChart* chart = p->findChild<QChartView*>()->chart();
        QVERIFY2(chart->title().contains(QStringLiteral("<sub>Q</sub>")), qPrintable(chart->title()));
        bool metric = false;
        QStringList keys;
        for (const LegendEntry& e : p->legendEntries())
            keys << e.key;
        QVERIFY2(keys.contains(QStringLiteral("m:norm_WQ")), qPrintable(keys.join(' ') + QStringLiteral(" / ") + p->seriesNames().join('|')));
        for (const LegendEntry& e : p->legendEntries()) {
            if (e.key == QStringLiteral("m:norm_WQ")) metric = e.notation;
            if (e.key.startsWith(QStringLiteral("r:"))) QVERIFY(!e.notation);  // "none_seed1"
        }
        QVERIFY(metric);
    }

    // The incremental decimation gives what a full pass gives: after records from the middle
    // on changed (a group's mean while slower seeds catch up), and after the floor of a log
    // axis moved (applied to the output only).
    void decimateCachedResumesAtTheChangedBucket() {
        // Pixel-column buckets (fewer than 64 records per bucket) against a full pass, and the
        // pyramid (more) against a pyramid built anew, through the same history.
        for (const int pixels : {1000, 100}) {
            std::vector<double> x, y;
            for (int i = 0; i < 20000; ++i) {
                x.push_back(i);
                y.push_back(1.0 + std::sin(i * 0.003) * 0.5 + (i % 97 == 0 ? 3.0 : 0.0));
            }
            DecimateRequest r;
            r.x0 = 0;
            r.x1 = 30000;
            r.pixels = pixels;
            r.logY = true;
            r.yFloor = 1e-3;
            DecimateCache cache;
            auto reference = [&] {
                const int level = pyramidLevel(x.size(), r.pixels);
                if (level < 0) return decimate(x, y, r);
                LodPyramid fresh;
                updatePyramid(fresh, y, y.size(), r.logY);
                return pyramidPoints(fresh, x, y, 0, x.size(), level, r);
            };
            QCOMPARE(decimateCached(x, y, r, 0, cache), reference());
            for (int i = 12000; i < 20000; ++i)  // later records change, more arrive
                y[static_cast<std::size_t>(i)] *= 0.25;
            for (int i = 20000; i < 26000; ++i) {
                x.push_back(i);
                y.push_back(0.1 + (i % 50 == 0 ? -1.0 : 0.0));  // some at or below zero
            }
            cache.changedFrom = 12000;
            QCOMPARE(decimateCached(x, y, r, 0, cache), reference());
            if (pixels == 1000) QVERIFY(cache.buckets.size() > 100);
            r.yFloor = 0.2;  // the y range grew: a new floor, the same buckets
            QCOMPARE(decimateCached(x, y, r, 0, cache), reference());
            x.push_back(26000);
            y.push_back(5.0);
            const auto& pts = decimateCached(x, y, r, 0, cache);
            QCOMPARE(pts, reference());
            // No spike is lost: the greatest value is drawn, and at most two points per bucket.
            double top = 0;
            for (const QPointF& q : pts)
                top = std::max(top, q.y());
            QCOMPARE(top, 5.0);
            QVERIFY(pts.size() <= 2 * pixels + 4);
        }
        // A history that grows record block by record block (new levels appear as it doubles)
        // keeps the pyramid a fresh build gives.
        {
            std::vector<double> y;
            LodPyramid grown;
            for (int step = 0; step < 60; ++step) {
                for (int i = 0; i < 1700; ++i)
                    y.push_back(std::cos(0.001 * static_cast<double>(y.size())) + (y.size() % 313 == 0 ? 2 : 0));
                updatePyramid(grown, y, y.size(), false);
                LodPyramid fresh;
                updatePyramid(fresh, y, y.size(), false);
                QVERIFY2(grown.lo == fresh.lo && grown.hi == fresh.hi, qPrintable(QString::number(y.size())));
            }
        }
        // Records changed in a few spans (a seed group's mean where its slower seeds' new
        // records fell): the pyramid updated over those spans only equals a fresh build.
        {
            std::vector<double> y;
            for (int i = 0; i < 50000; ++i)
                y.push_back(std::sin(0.002 * i) + (i % 777 == 0 ? 1.5 : 0.0));
            LodPyramid kept;
            updatePyramid(kept, y, y.size(), false);
            for (int round = 0; round < 8; ++round) {
                RecordSpans changed;
                const std::size_t lag = 3000 + 1000 * static_cast<std::size_t>(round);
                for (std::size_t i = lag; i < lag + 37; ++i)  // the slow seed's new records
                    y[i] = y[i] * 0.5 + (round == 3 && i == lag + 5 ? 9.0 : 0.0);
                addSpan(changed, lag, lag + 37);
                y[20000 + round] = -4.0 - round;  // a lone changed record: a new minimum
                addSpan(changed, 20000 + round, 20001 + round);
                for (int j = 0; j < 333; ++j)  // the fast seed's new records
                    y.push_back(std::cos(0.01 * static_cast<double>(y.size())));
                updatePyramid(kept, y, y.size(), false, changed);
                LodPyramid fresh;
                updatePyramid(fresh, y, y.size(), false);
                QVERIFY2(kept.lo == fresh.lo && kept.hi == fresh.hi, qPrintable(QString::number(round)));
            }
        }
        // Spans merge where they touch or overlap, and stay sorted.
        {
            RecordSpans sp;
            addSpan(sp, 10, 20);
            addSpan(sp, 30, 40);
            addSpan(sp, 0, 5);
            addSpan(sp, 20, 25);   // touches [10, 20)
            addSpan(sp, 7, 7);     // empty: nothing
            QCOMPARE(sp, (RecordSpans{{0, 5}, {10, 25}, {30, 40}}));
            addSpan(sp, 4, 31);    // over all three
            QCOMPARE(sp, (RecordSpans{{0, 40}}));
        }
        // A zoom into a window of a long history reads a finer level at once: the spike at
        // record 500 000 of 10^6 is there at every zoom.
        std::vector<double> x(1000000), y(1000000);
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] = static_cast<double>(i), y[i] = 1.0 + 1e-3 * std::sin(0.01 * static_cast<double>(i));
        y[500000] = 9.0;
        DecimateCache cache;
        for (const double half : {500000.0, 50000.0, 5000.0, 500.0}) {
            DecimateRequest r;
            r.x0 = 500000 - half;
            r.x1 = 500000 + half;
            r.pixels = 400;
            const auto& pts = decimateCached(x, y, r, 0, cache);
            double top = 0;
            for (const QPointF& q : pts)
                top = std::max(top, q.y());
            QCOMPARE(top, 9.0);
            QVERIFY2(pts.size() <= 2 * 400 + 4 && pts.size() >= 200, qPrintable(QString::number(pts.size())));
        }
    }

    void decimateClampsForLogAndSkipsNonFinite() {
        const std::vector<double> x = {0, 1, 2, 3, 4, 5};
        const std::vector<double> y = {1.0, 0.0, -2.0, NAN, 1e-3, 1e-9};
        DecimateRequest r;
        r.x0 = 0;
        r.x1 = 5;
        r.logY = true;
        r.yFloor = 1e-6;
        const auto pts = decimate(x, y, r);
        // NaN and the values a log axis cannot show (0, -2) are dropped, not drawn at the floor;
        // a value below the floor is drawn at it (off the plot, where the axis clips it).
        QCOMPARE(pts.size(), 3);
        QCOMPARE(pts[0].y(), 1.0);
        QCOMPARE(pts[1].y(), 1e-3);
        QCOMPARE(pts[2].y(), 1e-6);
        r.logX = true;  // x = 0 cannot be drawn on a log axis
        r.logY = false;
        QCOMPARE(decimate(x, y, r).front().x(), 1.0);
    }
    void emaIsIncrementalAndDebiased() {
        std::vector<double> y = {2, 2, 2, 4, 4};
        std::vector<double> whole, parts;
        EmaState a, b;
        extendEma(y, 0.6, whole, a);
        std::vector<double> head(y.begin(), y.begin() + 3);
        extendEma(head, 0.6, parts, b);
        extendEma(y, 0.6, parts, b);
        QCOMPARE(whole.size(), y.size());
        for (std::size_t i = 0; i < y.size(); ++i)
            QCOMPARE(parts[i], whole[i]);
        QCOMPARE(whole[0], 2.0);  // debiased: no pull towards zero
        QVERIFY(whole[4] > 2.0 && whole[4] < 4.0);
    }
    void storeAppendsColumnMajorAndExportsHistory() {
        RunStore store;
        QSignalSpy added(&store, &RunStore::runAdded);
        const int id = store.addRun(QStringLiteral("r"), ade::Config());
        QCOMPARE(added.count(), 1);
        store.setColumns(id, {"iteration", "time_s", "train_loss"});
        store.appendRows(id, {{0, 0.0, 1.0}, {1, 0.1, 0.5}});
        const RunRecord* r = store.run(id);
        QCOMPARE(r->size(), std::size_t(2));
        QCOMPARE(r->last("train_loss"), 0.5);
        const auto h = r->history();
        QCOMPARE(h.rows.size(), std::size_t(2));
        QCOMPARE(h.rows[1][2], 0.5);
        QCOMPARE(store.addRun(QStringLiteral("r"), ade::Config()), id + 1);
        QCOMPARE(store.run(id + 1)->name, QStringLiteral("r (2)"));
    }
    // The curves are painted by the chart's LineLayer: a streaming curve maps only its new
    // points and repaints only what they changed; a new range maps it again; painting a strip of
    // the plot gives the pixels a whole paint gives, for a solid curve and for dashed and dotted
    // ones (dashes laid along the curve from its first point, wherever the strip starts).
    void aStreamingCurveRepaintsOnlyWhatItGrew() {
        PlotMapping m;
        m.plot = QRectF(10, 10, 400, 300);
        m.x0 = 0, m.x1 = 100, m.y0 = -100, m.y1 = 100;
        LineLayer layer(nullptr, [&m] { return m; });
        const QString key = QStringLiteral("c");
        layer.setStyle(key, QPen(QColor(20, 80, 200), 1.0), QStringLiteral("run · loss"), true, false);
        // A noisy curve: the decimation's min and max per bucket zigzag.
        auto y = [](int i) { return 40 * std::sin(0.3 * i) + (i % 2 ? 15.0 : -15.0); };
        QList<QPointF> pts;
        for (int i = 0; i < 10; ++i)
            pts << QPointF(i, y(i));
        layer.setLine(key, pts);
        QVERIFY(layer.lastDirty().contains(m.map(pts[9])));
        for (int i = 10; i < 60; ++i) {
            pts << QPointF(i, y(i));
            layer.setLine(key, pts);
            const QRectF d = layer.lastDirty();
            // From the last unchanged point to the new one, a few pixels more for pen and edges.
            const double step = m.map(pts[i]).x() - m.map(pts[i - 1]).x();
            QVERIFY(d.contains(m.map(pts[i])) && d.contains(m.map(pts[i - 1])));
            QVERIFY2(d.left() >= m.map(pts[i - 1]).x() - 4 && d.width() <= step + 8,
                     qPrintable(QStringLiteral("%1 wide at %2").arg(d.width()).arg(d.left())));
        }
        layer.setLine(key, pts);  // the same points: nothing to repaint
        QVERIFY(layer.lastDirty().isEmpty());
        pts[3] = QPointF(3, 90);  // a changed prefix: from the point before it on
        layer.setLine(key, pts);
        QVERIFY(layer.lastDirty().left() <= m.map(pts[2]).x() + 1);
        QVERIFY(layer.lastDirty().right() >= m.map(pts[59]).x());
        const LineLayer::Line& l = layer.lines().at(key);
        QCOMPARE(l.px.size(), pts.size());
        m.x1 = 200;  // a new range maps every point again
        layer.syncMapping();
        QCOMPARE(l.px[20], m.map(pts[20], 1000));
        QCOMPARE(l.px[59], m.map(pts[59], 1000));
        QCOMPARE(layer.line(QStringLiteral("run · loss")), &l);
        m.x1 = 100;
        layer.syncMapping();

        for (Qt::PenStyle style : {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine}) {
            for (double width : {1.0, 3.0}) {
                QGraphicsScene scene;
                auto* item = new LineLayer(nullptr, [&m] { return m; });
                scene.addItem(item);
                item->setStyle(key, QPen(QColor(20, 80, 200), width, style), {}, true, false);
                item->setLine(key, pts);
                auto render = [&scene](const QRectF& r) {
                    QImage img(420, 320, QImage::Format_RGB32);
                    img.fill(Qt::white);
                    QPainter p(&img);
                    p.setRenderHint(QPainter::Antialiasing);  // as the chart view paints
                    scene.render(&p, r, r);
                    return img;
                };
                const QImage whole = render(QRectF(0, 0, 420, 320));
                int inked = 0;
                for (int x = 10; x < 410; ++x)
                    for (int yy = 10; yy < 310; ++yy)
                        inked += whole.pixelColor(x, yy) != QColor(Qt::white);
                QVERIFY2(inked > 400 * width * (style == Qt::SolidLine ? 1 : 0.3), qPrintable(QString::number(inked)));
                for (double at : {7.3, 25.0, 41.6}) {
                    const QRectF strip(std::floor(m.map(QPointF(at, 0)).x()), 0, 12, 320);
                    const QImage part = render(strip);
                    for (int x = int(strip.left()) + 1; x < int(strip.right()) - 1; ++x)
                        for (int yy = 10; yy < 310; ++yy)
                            QVERIFY2(part.pixelColor(x, yy) == whole.pixelColor(x, yy),
                                     qPrintable(QStringLiteral("style %1, width %2: pixel %3,%4").arg(int(style)).arg(width).arg(x).arg(yy)));
                }
            }
        }
        // A curve far below a log axis' range still leaves the plot at the slope of its data.
        PlotMapping lg = m;
        lg.logY = true;
        lg.y0 = 1, lg.y1 = 100;
        const QPointF far = lg.map(QPointF(50, 1e-30), 1000);
        QVERIFY(far.y() > lg.plot.bottom() + 10 * lg.plot.height());
    }

    void chartPanelDrawsStoreData() {
        RunStore store;
        const int id = store.addRun(QStringLiteral("r"), ade::Config());
        store.setColumns(id, {"iteration", "time_s", "train_loss", "excess_risk", "norm_A"});
        std::vector<std::vector<double>> rows;
        for (int i = 0; i < 5000; ++i)
            rows.push_back({double(i), 0.0, 1.0 / (i + 1), 0.0 /* not drawn on log */, 1.0});
        store.appendRows(id, rows);
        std::unique_ptr<ChartPanel> loss(createChartPanel(chartSpec(std::string("loss"))));
        loss->resize(600, 400);
        loss->refresh(store);
        // Series read as phrases from the metric descriptions, not column names.
        QCOMPARE(loss->seriesNames(),
                 QStringList({"excess risk E(θ) (n → ∞)", "train loss L_n(θ)"}));
        QVERIFY(loss->drawnPoints() > 0);
        QVERIFY(loss->drawnPoints() < 2 * 5000);  // decimated
        loss->setSeriesHidden(QStringLiteral("train loss L_n(θ)"), true);
        QCOMPARE(loss->drawnPoints(), 0);  // zeros have no place on a log axis
        ChartOptions o = loss->options();
        o.logY = false;
        loss->setOptions(o);
        QVERIFY(loss->drawnPoints() > 0);  // on a linear one they are drawn
    }

    // A diverged run's values near the largest double: the axes' ends stay finite, on a log and
    // on a linear axis. (The log axis's top rounded up to 10^309 = inf, and Qt laid out an
    // unbounded number of ticks: gigabytes in the GUI thread, seen in ui_stress's "a-diverges"
    // run, whose trajectory depends on the machine's rounding.)
    void divergedValuesKeepTheAxesFinite() {
        RunStore store;
        const int id = store.addRun(QStringLiteral("diverges"), ade::Config());
        store.setColumns(id, {"iteration", "time_s", "train_loss"});
        std::vector<std::vector<double>> rows;
        for (int i = 0; i < 40; ++i)
            rows.push_back({double(i), 0.0, i < 30 ? std::pow(10.0, 10 * i) : 1.7e308});
        store.appendRows(id, rows);
        std::unique_ptr<ChartPanel> p(createChartPanel(chartSpec(std::string("loss"))));
        p->resize(600, 400);
        for (bool logY : {true, false}) {
            ChartOptions o = p->options();
            o.logY = logY;
            p->setOptions(o);
            p->refresh(store, true);
            QChart* chart = p->findChild<QChartView*>()->chart();
            QAbstractAxis* y = chart->axes(Qt::Vertical).value(0);
            QVERIFY(y);
            double lo = 0, hi = 0;
            if (auto* ly = qobject_cast<QLogValueAxis*>(y)) lo = ly->min(), hi = ly->max();
            else if (auto* vy = qobject_cast<QValueAxis*>(y)) lo = vy->min(), hi = vy->max();
            else QFAIL("unexpected y axis");
            QVERIFY2(std::isfinite(lo) && std::isfinite(hi) && lo < hi,
                     qPrintable(QStringLiteral("log %1: %2..%3").arg(logY).arg(lo).arg(hi)));
            QVERIFY(p->drawnPoints() > 0);
        }
    }

    // The chart grid follows the experiments' descriptions: the form's experiment's default
    // charts, another experiment's arrive with its runs, View > Charts adds and removes.
    void chartAreaFollowsTheDescriptions() {
        RunStore store;
        ChartArea area(&store);
        area.resize(1000, 700);
        auto ids = [&] { return panelIds(area); };
        area.setExperiment("a");
        QCOMPARE(ids(), QStringList({"loss", "manifold", "imbalance", "norms"}));
        QCOMPARE(area.panel("loss")->spec().title, QStringLiteral("Loss and excess risk"));
        QCOMPARE(area.panel("norms")->options().logY, false);  // weight norms: linear
        QCOMPARE(area.panel("loss")->options().logY, true);
        area.setExperiment("b");
        QCOMPARE(ids(), QStringList({"loss", "norms", "manifold", "gap"}));
        QCOMPARE(area.panel("loss")->spec().title, QStringLiteral("Loss"));  // B's version
        QCOMPARE(area.panel("gap")->options().logY, false);  // signed: never log
        // A run brings the charts it draws, and only those: an A run under a B form shows A's
        // loss, imbalance (A shows it by default) and step size charts, not B's empty ones. A
        // column no description knows gets a chart of its own.
        ade::Config a;
        a.setText("experiment", "a");
        const int id = store.addRun(QStringLiteral("a run"), a);
        store.setColumns(id, {"iteration", "time_s", "train_loss", "imbalance", "step_size",
                              "future_metric"});
        area.refresh(true);
        QCOMPARE(ids().join(","), QStringLiteral("loss,imbalance,column:future_metric"));
        QCOMPARE(area.panel("loss")->spec().title, QStringLiteral("Loss and excess risk"));
        QCOMPARE(area.panel("column:future_metric")->options().logY, false);
        // View > Charts lists every chart, shown or not, with the form's experiment's others;
        // unticking one removes it.
        QMenu* menu = area.chartsMenu();
        QMetaObject::invokeMethod(menu, "aboutToShow");
        QStringList offered;
        for (QAction* act : menu->actions())
            if (act->isCheckable()) offered << act->objectName();
        QVERIFY(offered.contains("showChart.villani"));
        QVERIFY(offered.contains("showChart.step"));
        area.setChartShown("imbalance", false);
        QVERIFY(!ids().contains("imbalance"));
        area.setChartShown("step", true);
        QVERIFY(ids().contains("step"));
        area.restoreDefaultCharts();
        QVERIFY(ids().contains("imbalance") && !ids().contains("step"));
        for (const QString& id : ids())
            QVERIFY(id != "other");  // no grab-bag chart
    }

    // Issue 30, item 5: charts of another experiment never linger. A chart shows only when a
    // drawn run draws in it (Darcy's runs bring no empty "Distance to the minimisers", C's no
    // empty "Test error"), and a chart two experiments title differently is titled for the runs
    // on it (C's norms were drawn under B's "‖W_Q‖_F, ‖W_K‖_F").
    void chartsFollowTheDrawnRuns() {
        RunStore store;
        ChartArea area(&store);
        area.resize(1000, 700);
        auto ids = [&] { return panelIds(area); };
        auto addRun = [&](const std::string& experiment) {
            const int id = store.addRun(QString::fromStdString(experiment),
                                        adetest::configFrom({{"experiment", experiment}}));
            std::vector<std::string> columns = {"iteration", "time_s"};
            for (const ade::MetricInfo& m : ade::findExperiment(experiment)->metrics)
                columns.push_back(m.column);
            store.setColumns(id, columns);
            store.setState(id, RunState::Stopped);
            return id;
        };
        area.setExperiment("c");  // no run yet: the form's experiment's charts, to be filled
        QVERIFY(ids().contains("manifold"));
        const QString cNorms = area.panel("norms")->spec().title;
        QVERIFY2(cNorms.contains(QStringLiteral("U")), qPrintable(cNorms));
        const int darcy = addRun("darcy");
        area.setExperiment("a");
        area.refresh(true);
        QVERIFY(ids().contains("rel_l2"));
        QVERIFY2(!ids().contains("manifold"), qPrintable(ids().join(",")));  // none draws there
        QVERIFY(!ids().contains("excess"));
        store.setVisible(darcy, false);
        const int c = addRun("c");
        area.setExperiment("darcy");
        area.refresh(true);
        QVERIFY2(!ids().contains("rel_l2"), qPrintable(ids().join(",")));  // no empty test error
        QVERIFY(ids().contains("manifold"));
        QCOMPARE(area.panel("norms")->spec().title, cNorms);  // C's own title over C's runs
        const int b = addRun("b");
        area.refresh(true);
        QCOMPARE(area.panel("norms")->spec().title, QStringLiteral("Weight norms"));  // B and C
        store.setVisible(c, false);
        area.refresh(true);
        QVERIFY2(area.panel("norms")->spec().title.contains(QStringLiteral("W_Q")),
                 qPrintable(area.panel("norms")->spec().title));
        store.setVisible(b, false);  // nothing drawn: the form's experiment's charts again
        area.refresh(true);
        QVERIFY(ids().contains("rel_l2"));
        QVERIFY(!ids().contains("manifold"));
    }

    // A signed quantity over many decades reads on a symmetric-log axis labelled in its values.
    void symLogAxisShowsBothSignsOverDecades() {
        QCOMPARE(symLog(0.0), 0.0);
        QCOMPARE(symLog(-9.0), -1.0);
        QVERIFY(std::abs(symLog(1e6) - 6.0) < 1e-6);
        RunStore store;
        ade::Config b;
        b.setText("experiment", "b");
        const int id = store.addRun(QStringLiteral("r"), b);
        store.setColumns(id, {"iteration", "time_s", "villani"});
        std::vector<std::vector<double>> rows;
        for (int i = 0; i < 400; ++i)
            rows.push_back({double(i), 0.0, (i % 2 ? -1.0 : 1.0) * std::pow(10.0, (i % 9) - 2)});
        store.appendRows(id, rows);
        std::unique_ptr<ChartPanel> p(createChartPanel(chartSpec(std::string("villani"))));
        p->resize(600, 400);
        ChartOptions o = p->options();
        o.logY = false;
        o.symLogY = true;
        p->setOptions(o);
        p->refresh(store, true);
        QVERIFY(p->drawnPoints() > 0);
        QChart* chart = p->findChild<QChartView*>()->chart();
        auto* axis = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(axis);
        const QStringList labels = axis->categoriesLabels();
        QVERIFY2(labels.contains("0") && labels.contains(QStringLiteral("−10⁶")) &&
                     labels.contains(QStringLiteral("10⁶")),
                 qPrintable(labels.join(' ')));
        QVERIFY(axis->min() < -6 && axis->max() > 6);  // both signs, six decades each way
        double lo = 0, hi = 0;
        for (const auto& [key, l] : adetest::lineLayerOf(chart)->lines())
            for (const QPointF& pt : l.points) {
                lo = std::min(lo, pt.y());
                hi = std::max(hi, pt.y());
            }
        QVERIFY(lo < -5.9 && lo > -6.1 && hi > 5.9 && hi < 6.1);  // drawn transformed
    }
    // Hover anywhere in the plot: a crosshair lists every visible run's value at that
    // iteration; zooming leaves round ticks and several labels on a log axis.
    void crosshairAndZoomedAxesRead() {
        RunStore store;
        ade::Config a;
        for (const char* name : {"alpha", "beta"}) {
            const int id = store.addRun(QString::fromLatin1(name), a);
            store.setColumns(id, {"iteration", "time_s", "train_loss"});
            std::vector<std::vector<double>> rows;
            for (int i = 0; i <= 1500; ++i)
                rows.push_back({double(i), 0.0, (name[0] == 'a' ? 1.0 : 2.0) / (i + 1.0)});
            store.appendRows(id, rows);
        }
        std::unique_ptr<ChartPanel> p(createChartPanel(chartSpec(std::string("loss"))));
        p->resize(700, 450);
        p->show();
        QVERIFY(QTest::qWaitForWindowExposed(p.get()));
        p->refresh(store, true);
        auto* view = p->findChild<QChartView*>();
        QChart* chart = view->chart();
        const QRectF area = chart->plotArea();
        QTest::mouseMove(view->viewport(), view->mapFromScene(area.center()));
        QTRY_VERIFY_WITH_TIMEOUT(!p->crosshairText().isEmpty(), kRunWaitMs);
        const QString text = p->crosshairText();
        QVERIFY2(text.contains("iteration") && text.contains("alpha") && text.contains("beta"),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("train loss L<sub>n</sub>(θ)")), qPrintable(text));
        // Log x ends where the data end (1500), not at the next power of ten.
        ChartOptions o = p->options();
        o.logX = true;
        p->setOptions(o);
        auto* lx = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        QVERIFY(lx);
        QCOMPARE(lx->max(), 1500.0);
        // Zoom far into the log y axis: it keeps at least two labels (finer powers).
        for (int i = 0; i < 8; ++i) {
            QWheelEvent wheel(view->viewport()->rect().center(), view->mapToGlobal(QPoint(10, 10)),
                              QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(view->viewport(), &wheel);
        }
        // Zoom far into the log y axis: it keeps at least two labels, at round values read as
        // numbers ("0.012", "2×10⁻⁴"), never printf's "1e-03" nor 10^(k/n).
        auto* ly = qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(ly);
        QTRY_VERIFY_WITH_TIMEOUT(p->tickTexts(Qt::Vertical).size() >= 2, kRunWaitMs);
        for (const QString& t : p->tickTexts(Qt::Vertical))
            QVERIFY2(!t.contains(QLatin1Char('e')) && t.size() <= 8,
                     qPrintable(p->tickTexts(Qt::Vertical).join(" ")));
        for (const QString& t : p->tickTexts(Qt::Horizontal))  // log x: 1, 10, 100, 1000
            QVERIFY2(!t.contains(QLatin1Char('e')), qPrintable(p->tickTexts(Qt::Horizontal).join(" ")));
        // Linear axes after a zoom tick at round 1-2-5 steps.
        o.logX = false;
        p->setOptions(o);
        for (int i = 0; i < 3; ++i) {
            QWheelEvent wheel(view->viewport()->rect().center(), view->mapToGlobal(QPoint(10, 10)),
                              QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QApplication::sendEvent(view->viewport(), &wheel);
        }
        // Round ticks of a 1-2-5 step whose labels fit the zoomed axis (no run-together text).
        QTRY_VERIFY_WITH_TIMEOUT(!p->tickTexts(Qt::Horizontal).isEmpty(), kRunWaitMs);
        checkRoundTicks(p.get(), Qt::Horizontal);
        checkRoundTicks(p.get(), Qt::Vertical, true);  // the loss: a log axis
        p->fitToData();
        checkRoundTicks(p.get(), Qt::Horizontal);
    }

    // Log axes read as numbers: powers of ten as decimals from 0.001 to 10000 and with a
    // superscript exponent beyond, 1-2-5 values when few decades show, round linear steps inside
    // a decade; the labels of a long range thin out to every second or third decade.
    void logTicksReadAsNumbers() {
        QCOMPARE(logTickText(0.001), QStringLiteral("0.001"));
        QCOMPARE(logTickText(1.0), QStringLiteral("1"));
        QCOMPARE(logTickText(10000.0), QStringLiteral("10000"));
        QCOMPARE(logTickText(1e-6), QStringLiteral("10⁻⁶"));
        QCOMPARE(logTickText(2e-5), QStringLiteral("2×10⁻⁵"));
        QCOMPARE(logTickText(1e6), QStringLiteral("10⁶"));
        QCOMPARE(logTickText(0.05), QStringLiteral("0.05"));
        const QFont font = QApplication::font();
        auto texts = [](const std::vector<Tick>& ticks) {
            QStringList out;
            for (const Tick& t : ticks)
                out << t.text;
            return out.join(" ");
        };
        QCOMPARE(texts(logTicks(1e-3, 10.0, 400, font, false)),
                 QStringLiteral("0.001 0.01 0.1 1 10"));
        // One style per axis: a label that needs a power makes them all powers.
        QCOMPARE(texts(logTicks(1e-4, 1.0, 400, font, false)),
                 QStringLiteral("10⁻⁴ 10⁻³ 10⁻² 10⁻¹ 10⁰"));
        // Fourteen decades in 200 px: every second or third power only.
        const std::vector<Tick> wide = logTicks(1e-12, 100.0, 200, font, false);
        QVERIFY2(wide.size() >= 2 && wide.size() <= 8, qPrintable(texts(wide)));
        for (std::size_t i = 1; i < wide.size(); ++i)
            QVERIFY(wide[i].value - wide[i - 1].value >= 2 - 1e-9);
        // One decade: 1-2-5 values.
        QCOMPARE(texts(logTicks(0.01, 0.1, 300, font, false)), QStringLiteral("0.01 0.02 0.05 0.1"));
        // Inside a decade: round linear steps, placed at their logarithms.
        const std::vector<Tick> zoomed = logTicks(0.0121, 0.0189, 300, font, false);
        QVERIFY2(zoomed.size() >= 3, qPrintable(texts(zoomed)));
        for (const Tick& t : zoomed) {
            QVERIFY2(t.text.startsWith(QStringLiteral("0.01")), qPrintable(texts(zoomed)));
            QVERIFY(std::abs(std::pow(10.0, t.value) - t.text.toDouble()) < 1e-12);
        }
        QVERIFY(logTicks(0.0, 1.0, 300, font, false).empty());  // no log of zero
    }

    // Ticks are multiples of one 1-2-5 step, zero reads "0" (not 5.55e-17), labels of a long
    // axis are few enough not to run together, and a negative value has a true minus.
    void ticksAreRoundNumbers() {
        QCOMPARE(tickText(5.551115123125783e-17, 0.1), QStringLiteral("0"));
        QCOMPARE(tickText(-1.3877787807814457e-17, 0.05), QStringLiteral("0"));
        QCOMPARE(tickText(0.25, 0.05), QStringLiteral("0.25"));
        QCOMPARE(tickText(0.5, 0.05), QStringLiteral("0.50"));
        QCOMPARE(tickText(-0.1, 0.1), QStringLiteral("−0.1"));
        QCOMPARE(tickText(12000, 2000), QStringLiteral("12000"));
        QCOMPARE(tickText(1.5e7, 5e6), QStringLiteral("1.5e+07"));
        QCOMPARE(tickText(2e-5, 1e-5), QStringLiteral("2e-05"));
        QStringList texts;
        for (const Tick& t : ticksWithStep(-0.1, 0.3, tickStep(-0.1, 0.3, 5)))
            texts << t.text;
        QCOMPARE(texts, QStringList({"−0.1", "0", "0.1", "0.2", "0.3"}));
        // 0..14000 in 300 px: no label closer to the next than its width.
        QFont f;
        const auto ticks = fittingTicks(0, 14000, 300, f, true);
        QVERIFY(ticks.size() >= 2);
        const QFontMetricsF fm(f);
        for (std::size_t i = 1; i < ticks.size(); ++i) {
            const double gap = 300 * (ticks[i].value - ticks[i - 1].value) / 14000;
            QVERIFY2(gap >= fm.horizontalAdvance(ticks[i].text),
                     qPrintable(ticks[i].text + QStringLiteral(" %1").arg(gap)));
        }
        // A linear chart whose values straddle zero labels it "0".
        RunStore s;
        const int id = s.addRun(QStringLiteral("signed"), adetest::tinyA(1));
        s.setColumns(id, {"iteration", "gen_gap"});
        s.appendRows(id, {{0, -0.1}, {1, 0.05}, {2, 0.3}});
        std::unique_ptr<ChartPanel> p(createChartPanel(chartSpec(std::string("gap"))));
        p->resize(500, 350);
        p->show();
        p->refresh(s, true);
        QTRY_VERIFY_WITH_TIMEOUT(!p->tickTexts(Qt::Vertical).isEmpty(), kRunWaitMs);
        QVERIFY2(p->tickTexts(Qt::Vertical).contains(QStringLiteral("0")),
                 qPrintable(p->tickTexts(Qt::Vertical).join(' ')));
        checkRoundTicks(p.get(), Qt::Vertical);
    }
};

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
