// Seeds as an axis (issue 14, item 3): a group's mean and min–max band for known data, the
// chart drawing one curve with a band (or every seed when asked), the run list's group row with
// mean ± sd, sessions keeping groups (and old sessions still opening), and the window's Seeds
// box starting K seeds per run. Runs are filled by hand except in the window test.
#include <QGraphicsScene>
#include <QPainter>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <cmath>
#include <map>
#include <set>
#include <memory>

#include "charts/BandLayer.h"
#include "ChartCurves.h"
#include "charts/LineLayer.h"
#include "charts/ChartArea.h"
#include "charts/QtSeriesEntry.h"
#include "Configs.h"
#include "window/MainWindow.h"
#include "form/ParamForm.h"
#include "runs/RunController.h"
#include "runlist/RunListColumns.h"
#include "runlist/RunListWidget.h"
#include "runs/RunStore.h"
#include "runs/SeedGroups.h"
#include "runs/SessionBridge.h"
#include "TestWindow.h"
#include "base/Palette.h"
#include "experiments/ExperimentRegistry.h"
#include "output/Session.h"

using namespace ade::ui;

namespace {

ade::Config seeded(long long seed) {
    return adetest::tinyA(100, {{"seed", std::to_string(seed)}});
}

// Seed k of group `group`: train loss (k + 1)(i + 1) and test loss its double, n records.
int addSeed(RunStore& s, const QString& group, int k, int n) {
    const int id = s.addRun(group + QStringLiteral("_seed%1").arg(k + 1), seeded(k + 1), group, k);
    s.setColumns(id, {"iteration", "time_s", "train_loss", "test_loss"});
    std::vector<std::vector<double>> rows;
    for (int i = 0; i < n; ++i)
        rows.push_back({double(10 * i), 0.1 * i, (k + 1.0) * (i + 1), 2 * (k + 1.0) * (i + 1)});
    s.appendRows(id, rows);
    s.setState(id, RunState::Completed);
    return id;
}

QString label(const char* column) {
    return QString::fromStdString(ade::describeColumn("a", column).label);
}

QChart* chartOf(ChartPanel* p) {
    auto* view = p->findChild<QChartView*>();
    return view ? view->chart() : nullptr;
}

BandLayer* bandLayerOf(QChart* c) {
    for (QGraphicsItem* i : c->childItems())
        if (auto* b = dynamic_cast<BandLayer*>(i)) return b;
    return nullptr;
}

using adetest::lineLayerOf;

template <class T>
std::vector<T*> seriesOf(QChart* c) {
    std::vector<T*> out;
    for (QAbstractSeries* s : c->series())
        if (auto* t = qobject_cast<T*>(s)) out.push_back(t);
    return out;
}

}  // namespace

class TestSeeds : public QObject {
    Q_OBJECT
  private slots:
    // Three seeds, the third still running (3 of 5 records): each record's mean, sd, min and
    // max over the seeds that reached it; when the third catches up, the later records change.
    void meanAndBandOfThreeSeeds() {
        RunStore s;
        for (int k = 0; k < 2; ++k)
            addSeed(s, "g", k, 5);
        const int third = addSeed(s, "g", 2, 3);
        const auto groups = seedGroups(s.visibleRuns());
        QCOMPARE(groups.size(), std::size_t(1));
        QVERIFY(groups[0].grouped());
        QCOMPARE(groups[0].label, QStringLiteral("g"));
        GroupAggregate agg;
        QCOMPARE(agg.update(groups[0].members), std::size_t(0));
        const RunRecord& m = agg.mean();
        const int c = m.column("train_loss");
        QVERIFY(c >= 0);
        QCOMPARE(m.size(), std::size_t(5));
        // Record 0: values 1, 2, 3.
        QCOMPARE(m.data[c][0], 2.0);
        QCOMPARE(agg.sd(c)[0], 1.0);
        QCOMPARE(agg.lo(c)[0], 1.0);
        QCOMPARE(agg.hi(c)[0], 3.0);
        QCOMPARE(agg.seeds()[0], 3);
        // Record 2: 3, 6, 9 -> mean 6, sd 3.
        QCOMPARE(m.data[c][2], 6.0);
        QCOMPARE(agg.sd(c)[2], 3.0);
        // Record 4: only the two seeds that reached it: 5 and 10.
        QCOMPARE(agg.seeds()[4], 2);
        QCOMPARE(m.data[c][4], 7.5);
        QCOMPARE(agg.lo(c)[4], 5.0);
        QCOMPARE(agg.hi(c)[4], 10.0);
        QCOMPARE(agg.sd(c)[4], std::sqrt(12.5));
        QCOMPARE(m.data[0][4], 40.0);  // the iteration
        // The third seed catches up: records from 3 on are computed again.
        s.appendRows(third, {{30, 0.3, 12, 24}, {40, 0.4, 15, 30}});
        QCOMPARE(agg.update(groups[0].members), std::size_t(3));
        QCOMPARE(agg.seeds()[4], 3);
        QCOMPARE(agg.mean().data[c][4], 10.0);
        QCOMPARE(agg.hi(c)[4], 15.0);
        QCOMPARE(agg.sd(c)[4], 5.0);
        // The summary statistics and their text.
        const SeedStats st = seedStats({5, 10, 15});
        QCOMPARE(st.mean, 10.0);
        QCOMPARE(st.sd, 5.0);
        QCOMPARE(meanSdText(st), QStringLiteral("10 ± 5"));
        QCOMPARE(groupLegendName(groups[0]), QStringLiteral("g · 3 seeds"));
    }

    // Seeds that grow at different rates, batch by batch: the aggregate kept up to date equals
    // one computed from scratch after every batch, and each update names the first record a
    // seed reached in it (not the slowest seed's end: that made every chart re-read the whole
    // tail where the faster seeds are alone, at every frame). A seed whose records start again
    // (setColumns, as a restart) makes it start from record 0.
    void anUpdatedAggregateEqualsAFreshOne() {
        RunStore s;
        const int ids[3] = {addSeed(s, "g", 0, 1), addSeed(s, "g", 1, 1), addSeed(s, "g", 2, 1)};
        const int steps[3] = {7, 3, 1};  // records per batch: the seeds' rates
        GroupAggregate kept;
        std::size_t had[3] = {1, 1, 1};
        QCOMPARE(kept.update(seedGroups(s.visibleRuns())[0].members), std::size_t(0));
        for (int batch = 0; batch < 12; ++batch) {
            std::size_t first = SIZE_MAX;
            for (int k = 0; k < 3; ++k) {
                if (batch % (k + 1) != 0) continue;  // the slower seeds skip batches
                std::vector<std::vector<double>> rows;
                for (int j = 0; j < steps[k]; ++j) {
                    const double i = static_cast<double>(had[k] + j);
                    rows.push_back({10 * i, 0.1 * i, (k + 1.0) * (i + 1) + batch, 3.0 * i - k});
                }
                s.appendRows(ids[k], rows);
                first = std::min(first, had[k]);
                had[k] += static_cast<std::size_t>(steps[k]);
            }
            const auto members = seedGroups(s.visibleRuns())[0].members;
            const std::size_t from = kept.update(members);
            QCOMPARE(from, first);
            // The changed records are where each seed's new records fell, no more: past the
            // slowest seed's new ones, the faster seeds' records were final already.
            RecordSpans expected;
            for (int k = 0; k < 3; ++k)
                if (batch % (k + 1) == 0)
                    addSpan(expected, had[k] - static_cast<std::size_t>(steps[k]), had[k]);
            QCOMPARE(kept.changed(), expected);
            GroupAggregate fresh;
            QCOMPARE(fresh.update(members), std::size_t(0));
            QCOMPARE(kept.seeds(), fresh.seeds());
            for (int c = 0; c < 4; ++c) {
                QCOMPARE(kept.mean().data[c], fresh.mean().data[c]);
                QCOMPARE(kept.sd(c), fresh.sd(c));
                QCOMPARE(kept.lo(c), fresh.lo(c));
                QCOMPARE(kept.hi(c), fresh.hi(c));
            }
        }
        // Nothing new: nothing changed (the longest seed's end).
        const auto members = seedGroups(s.visibleRuns())[0].members;
        QCOMPARE(kept.update(members), members.front()->size());
        // The second seed starts again: everything from record 0.
        s.setColumns(ids[1], {"iteration", "time_s", "train_loss", "test_loss"});
        s.appendRows(ids[1], {{0, 0, 5, 5}});
        QCOMPARE(kept.update(seedGroups(s.visibleRuns())[0].members), std::size_t(0));
        QCOMPARE(kept.mean().data[2][0], (1.0 + 5.0 + 3.0) / 3.0);
        QCOMPARE(kept.seeds()[1], 2);
    }

    // Two charts share the aggregates: each learns the spans that changed since it last asked
    // (a new chart: everything), merged over the revisions it missed.
    void eachChartLearnsTheSpansChangedSinceItAsked() {
        RunStore s;
        const int ids[2] = {addSeed(s, "g", 0, 1), addSeed(s, "g", 1, 1)};
        AggregateCache cache;
        const int a = 0, b = 0;  // two consumers (their addresses)
        auto ask = [&](const void* who, RecordSpans& spans) {
            std::size_t from = 0;
            cache.update(seedGroups(s.visibleRuns())[0], s.revision(), who, from, &spans);
            return from;
        };
        RecordSpans sa, sb;
        QCOMPARE(ask(&a, sa), std::size_t(0));
        QCOMPARE(sa, (RecordSpans{{0, SIZE_MAX}}));
        QCOMPARE(ask(&b, sb), std::size_t(0));
        auto grow = [&](int k, double from, int count) {
            std::vector<std::vector<double>> rows;
            for (int j = 0; j < count; ++j)
                rows.push_back({10 * (from + j), 0.1 * (from + j), 1.0 + from + j + k, 2.0});
            s.appendRows(ids[k], rows);
        };
        grow(0, 1, 20);  // seed 1 has records 0..20, seed 2 record 0
        QCOMPARE(ask(&a, sa), std::size_t(1));
        QCOMPARE(sa, (RecordSpans{{1, 21}}));
        grow(1, 1, 5);   // seed 2 reaches 1..5: the means there change, not 6..20
        QCOMPARE(ask(&a, sa), std::size_t(1));
        QCOMPARE(sa, (RecordSpans{{1, 6}}));
        grow(0, 21, 4);  // seed 1 goes on alone
        QCOMPARE(ask(&a, sa), std::size_t(21));
        QCOMPARE(sa, (RecordSpans{{21, 25}}));
        // The other chart missed three revisions: their spans, merged.
        QCOMPARE(ask(&b, sb), std::size_t(1));
        QCOMPARE(sb, (RecordSpans{{1, 25}}));
        QCOMPARE(ask(&a, sa), SIZE_MAX);  // nothing since
        QVERIFY(sa.empty());
        // Brought up to date as records arrive (advance, no consumer): the charts still learn
        // every span changed since they asked, merged, and the aggregate is the same.
        grow(1, 6, 10);  // seed 2: 6..15
        cache.advance(seedGroups(s.visibleRuns())[0], s.revision());
        grow(0, 25, 3);  // seed 1: 25..27
        const GroupAggregate& advanced = cache.advance(seedGroups(s.visibleRuns())[0], s.revision());
        QCOMPARE(advanced.mean().size(), std::size_t(28));
        QCOMPARE(ask(&a, sa), std::size_t(6));
        QCOMPARE(sa, (RecordSpans{{6, 16}, {25, 28}}));
        QCOMPARE(ask(&b, sb), std::size_t(6));
        QCOMPARE(sb, (RecordSpans{{6, 16}, {25, 28}}));
        GroupAggregate fresh;
        fresh.update(seedGroups(s.visibleRuns())[0].members);
        QCOMPARE(advanced.mean().data, fresh.mean().data);
    }

    // A band is painted by the chart's BandLayer: a streaming band maps only its new points and
    // repaints only what they changed; a new range maps it again; painting a strip of the plot
    // gives the same pixels as painting the whole plot.
    void aStreamingBandRepaintsOnlyWhatItGrew() {
        PlotMapping m;
        m.plot = QRectF(10, 10, 400, 300);
        m.x0 = 0, m.x1 = 100, m.y0 = -100, m.y1 = 100;
        BandLayer layer(nullptr, [&m] { return m; });
        QList<QPointF> l, h;
        for (int i = 0; i < 10; ++i) {
            l << QPointF(i, -i);
            h << QPointF(i, i);
        }
        layer.setBand(QStringLiteral("g"), l, h);
        layer.setStyle(QStringLiteral("g"), QBrush(QColor(200, 100, 50)), true);
        QVERIFY(layer.lastDirty().contains(m.map(h[9])));
        for (int i = 10; i < 40; ++i) {
            l << QPointF(i, -i);
            h << QPointF(i, i);
            layer.setBand(QStringLiteral("g"), l, h);
            const QRectF d = layer.lastDirty();
            // From the last unchanged point to the new one, a few pixels more for the edges.
            QVERIFY(d.contains(m.map(h[i])) && d.contains(m.map(l[i])));
            QVERIFY2(d.left() >= m.map(h[i - 1]).x() - 3 && d.width() < 4 * (m.map(h[i]).x() - m.map(h[i - 1]).x()) + 8,
                     qPrintable(QStringLiteral("%1 wide at %2").arg(d.width()).arg(d.left())));
        }
        layer.setBand(QStringLiteral("g"), l, h);  // the same points: nothing to repaint
        QVERIFY(layer.lastDirty().isEmpty());
        h[0] = QPointF(0, 5);  // a changed prefix: from there on
        layer.setBand(QStringLiteral("g"), l, h);
        QVERIFY(layer.lastDirty().left() <= m.map(h[0]).x());
        const BandLayer::Band& b = layer.bands().at(QStringLiteral("g"));
        QCOMPARE(b.hiPx.size(), h.size());
        m.x1 = 200;  // a new range maps every point again
        layer.syncMapping();
        QCOMPARE(b.hiPx[20], m.map(h[20]));
        QCOMPARE(b.loPx[39], m.map(l[39]));

        QGraphicsScene scene;
        auto* item = new BandLayer(nullptr, [&m] { return m; });
        scene.addItem(item);
        item->setBand(QStringLiteral("g"), l, h);
        item->setStyle(QStringLiteral("g"), QBrush(QColor(200, 100, 50)), true);
        auto render = [&scene](const QRectF& r) {
            QImage img(420, 320, QImage::Format_RGB32);
            img.fill(Qt::white);
            QPainter p(&img);
            scene.render(&p, r, r);
            return img;
        };
        const QImage whole = render(QRectF(0, 0, 420, 320));
        const QPoint inside = m.map(QPointF(30, 0)).toPoint(), outside = m.map(QPointF(30, 60)).toPoint();
        QCOMPARE(whole.pixelColor(inside), QColor(200, 100, 50));
        QCOMPARE(whole.pixelColor(outside), QColor(Qt::white));
        const QRectF strip(m.map(QPointF(25, 0)).x(), 0, 12, 320);
        const QImage part = render(strip);
        for (int x = int(strip.left()) + 1; x < int(strip.right()) - 1; ++x)
            for (int y = 12; y < 308; y += 3)
                QCOMPARE(part.pixelColor(x, y), whole.pixelColor(x, y));
    }

    // A live run's columns, and its group's aggregate, hold the records the run plans from the
    // start: nine runs' columns fill at one pace, and when they doubled they all copied
    // themselves in the same frame (80 ms of the GUI thread at 60 000 records).
    // A short run's columns grow as vectors do (a long run's plan reserved at every start cost
    // ui_stress's 1000 starts ten minutes under TSan); once a run passes kPlanAfterRecords its
    // columns and its group's aggregate take the whole plan and never move again.
    void longRunsHoldTheirPlannedRecordsShortOnesDoNot() {
        QCOMPARE(plannedRecords(adetest::tinyA(5000, {{"log_every", "10"}})), std::size_t(502));
        QCOMPARE(plannedRecords(adetest::tinyA(1000000, {{"log_every", "0"}})), std::size_t(2002));
        QCOMPARE(plannedRecords(adetest::tinyA(10, {{"log_every", "0"}})), std::size_t(12));
        QCOMPARE(plannedRecords(adetest::tinyA(1000000000, {{"log_every", "1"}})),
                 std::size_t(1) << 22);
        const std::size_t planned = 3 * kPlanAfterRecords;
        RunStore s;
        std::vector<int> ids;
        for (int k = 0; k < 2; ++k) {
            ids.push_back(s.addRun(
                QStringLiteral("g_seed%1").arg(k + 1),
                adetest::tinyA(10 * long(planned - 2), {{"log_every", "10"}, {"seed", std::to_string(k + 1)}}),
                QStringLiteral("g"), k));
            s.setColumns(ids.back(), {"iteration", "time_s", "train_loss", "test_loss"});
        }
        QCOMPARE(plannedRecords(s.run(ids[0])->config), planned);
        GroupAggregate agg;
        const double* column = nullptr;
        const double* mean = nullptr;
        for (std::size_t i = 0; i < planned; ++i) {
            for (int id : ids)
                s.appendRows(id, {{10.0 * i, 0.1 * i, 1.0 + i, 2.0 + i}});
            agg.update(seedGroups(s.visibleRuns())[0].members);
            const auto& col = s.run(ids[0])->data[2];
            if (i < kPlanAfterRecords) {
                // Short so far: no more room than geometric growth gives.
                QVERIFY2(col.capacity() <= 2 * col.size(),
                         qPrintable(QStringLiteral("%1 records hold %2").arg(col.size()).arg(col.capacity())));
                QVERIFY(agg.mean().data[2].capacity() <= 2 * agg.mean().data[2].size());
            } else {
                if (!column) {
                    QCOMPARE(col.capacity(), planned);
                    QCOMPARE(agg.mean().data[2].capacity(), planned);
                    column = col.data();
                    mean = agg.mean().data[2].data();
                }
                QCOMPARE(col.data(), column);  // never moved once long
                QCOMPARE(agg.mean().data[2].data(), mean);
            }
        }
        QVERIFY(column);
        QCOMPARE(s.run(ids[0])->size(), planned);
        QCOMPARE(agg.mean().data[2][planned - 1], double(planned));
    }

    // Seeds of one group share a colour; groups are told apart by label and config.
    void seedsShareTheirGroupsColour() {
        RunStore s;
        const int a = addSeed(s, "g", 0, 3);
        const int b = addSeed(s, "g", 1, 3);
        const int c = addSeed(s, "h", 0, 3);
        QCOMPARE(s.run(a)->colorIndex, s.run(b)->colorIndex);
        QVERIFY(s.run(c)->colorIndex != s.run(a)->colorIndex);
        QCOMPARE(seedGroups(s.visibleRuns()).size(), std::size_t(2));
        QCOMPARE(s.uniqueGroup(QStringLiteral("g")), QStringLiteral("g (2)"));
        QCOMPARE(s.uniqueGroup(QStringLiteral("k")), QStringLiteral("k"));
    }

    // The chart draws a group as one curve per metric, its legend saying what the band is, over
    // a band between the seeds' min and max; "show seeds separately" draws each seed.
    void chartDrawsTheMeanWithItsBand() {
        RunStore s;
        for (int k = 0; k < 3; ++k)
            addSeed(s, "g", k, 5);
        addSeed(s, "alone", 0, 5);
        ChartPanel* p = createChartPanel(chartSpec(std::string("loss")));
        p->resize(600, 400);
        p->refresh(s, true);
        const QString mean = QStringLiteral("g · 3 seeds · ") + label("train_loss");
        QVERIFY2(p->seriesNames().contains(mean), qPrintable(p->seriesNames().join('|')));
        QCOMPARE(p->seriesNames().size(), 4);  // (group, alone) x (train, test)
        QChart* chart = chartOf(p);
        QVERIFY(chart);
        BandLayer* layer = bandLayerOf(chart);
        QVERIFY(layer);
        // The group's train and test loss.
        QCOMPARE(layer->bands().size(), std::size_t(2));
        double hi = 0, lo = INFINITY;
        for (const auto& [key, b] : layer->bands()) {
            for (const QPointF& q : b.hi)
                hi = std::max(hi, q.y());
            for (const QPointF& q : b.lo)
                lo = std::min(lo, q.y());
        }
        QCOMPARE(hi, 30.0);  // test loss of seed 3 at record 4: 2 * 3 * 5
        QCOMPARE(lo, 1.0);   // train loss of seed 1 at record 0
        // Bands lie under every line: over the grid, under the curves' item; Qt Charts draws
        // no curve (its one series is empty: it holds the axes' domain).
        LineLayer* lines = lineLayerOf(chart);
        QVERIFY(lines);
        QVERIFY(lines->zValue() > layer->zValue());
        QCOMPARE(lines->lines().size(), std::size_t(4));  // (group, alone) x (train, test)
        for (QLineSeries* s : seriesOf<QLineSeries>(chart))
            QCOMPARE(s->count(), 0);
        // Where Qt Charts would draw a point, the band's and the curve's are drawn: on log y,
        // then on log x too.
        for (bool logX : {false, true}) {
            ChartOptions lx = p->options();
            lx.logX = logX;
            p->setOptions(lx);
            QLineSeries* domain = seriesOf<QLineSeries>(chart).front();
            const BandLayer::Band& band = layer->bands().begin()->second;
            const LineLayer::Line& line = lines->lines().begin()->second;
            QVERIFY(band.hi.size() >= 2 && line.points.size() >= 2);
            auto near = [&](const QPointF& value, const QPointF& ours, const char* what) {
                const QPointF qt = chart->mapToPosition(value, domain);
                QVERIFY2(std::abs(qt.x() - ours.x()) < 0.01 && std::abs(qt.y() - ours.y()) < 0.01,
                         qPrintable(QStringLiteral("%1, log x %2: Qt %3,%4, ours %5,%6").arg(what).arg(logX).arg(qt.x()).arg(qt.y()).arg(ours.x()).arg(ours.y())));
            };
            for (qsizetype i : {qsizetype(1), band.hi.size() - 1})
                near(band.hi[i], band.hiPx[i], "band");
            for (qsizetype i : {qsizetype(1), line.points.size() - 1})
                near(line.points[i], line.px[i], "curve");
        }
        ChartOptions o = p->options();
        o.seedBands = false;
        p->setOptions(o);
        QCOMPARE(p->seriesNames().size(), 8);
        QVERIFY(layer->bands().empty());
        delete p;
    }

    // A chart that followed three seeds streaming at uneven rates (long enough for the
    // level-of-detail pyramid, which then takes in only the spans each seed's records changed)
    // draws at the end what a chart drawn once from the same data draws.
    void aStreamedGroupDrawsWhatAFreshChartDraws() {
        RunStore s;
        int ids[3];
        for (int k = 0; k < 3; ++k)
            ids[k] = addSeed(s, "g", k, 0);
        std::size_t had[3] = {0, 0, 0};
        auto value = [](int k, std::size_t i, int column) {
            if (i < 2) return i == 0 ? 0.0 : 10.0;  // the y range is set by the first records
            return 5.0 + std::sin(0.0007 * double(i) * (k + 1) + column) * (1.0 + 0.5 * k) +
                   (i % 4999 == 0 ? 3.0 : 0.0);
        };
        ChartPanel* streamed = createChartPanel(chartSpec(std::string("loss")));
        streamed->resize(600, 400);
        const std::size_t rates[3] = {700, 500, 300};
        for (int batch = 0; batch < 60; ++batch) {
            for (int k = 0; k < 3; ++k) {
                if (k > 0 && batch % (k + 2) == 1) continue;  // the slower seeds skip batches
                std::vector<std::vector<double>> rows;
                for (std::size_t j = 0; j < rates[k]; ++j, ++had[k]) {
                    const double i = static_cast<double>(had[k]);
                    rows.push_back({i, 0.001 * i, value(k, had[k], 0), value(k, had[k], 1)});
                }
                s.appendRows(ids[k], rows);
            }
            streamed->refresh(s);
        }
        ChartPanel* fresh = createChartPanel(chartSpec(std::string("loss")));
        fresh->resize(600, 400);
        fresh->refresh(s, true);
        streamed->refresh(s, true);
        auto drawn = [](ChartPanel* p) {
            std::set<std::pair<double, double>> pts;
            for (const auto& [key, l] : lineLayerOf(chartOf(p))->lines())
                for (const QPointF& q : l.points)
                    pts.emplace(q.x(), q.y());
            for (const auto& [key, b] : bandLayerOf(chartOf(p))->bands())
                for (const QList<QPointF>* l : {&b.lo, &b.hi})
                    for (const QPointF& q : *l)
                        pts.emplace(q.x(), q.y());
            return pts;
        };
        QVERIFY(had[0] > 64 * 600);  // past the pyramid's threshold at this width
        const auto a = drawn(streamed), b = drawn(fresh);
        QVERIFY(a.size() > 500);
        QVERIFY2(a == b, qPrintable(QStringLiteral("%1 points streamed, %2 fresh").arg(a.size()).arg(b.size())));
        delete streamed;
        delete fresh;
    }

    // Past the palette's twelfth colour a run is told apart by its line style, not by shade
    // alone, and no heavy markers are strung along the curves: on a chart of one metric the
    // thirteenth run is dashed.
    void runsPastThePaletteCarryStyleNotMarkers() {
        RunStore s;
        for (int i = 0; i < paletteSize() + 1; ++i) {
            const int id = s.addRun(QStringLiteral("r%1").arg(i), seeded(i + 1));
            s.setColumns(id, {"iteration", "train_loss"});
            s.appendRows(id, {{0, 1.0 + i}, {1, 0.5 + i}, {2, 0.25 + i}});
        }
        ChartPanel* p = createChartPanel(chartSpec(std::string("loss")));
        p->refresh(s, true);
        QChart* chart = chartOf(p);
        std::map<QString, Qt::PenStyle> styles;
        for (const auto& [key, l] : lineLayerOf(chart)->lines())
            styles[l.name] = l.pen.style();
        const QString first = QStringLiteral("r0 · ") + label("train_loss");
        const QString last = QStringLiteral("r%1 · ").arg(paletteSize()) + label("train_loss");
        QCOMPARE(styles.at(first), Qt::SolidLine);
        QCOMPARE(styles.at(last), runPenStyle(paletteSize()));
        QVERIFY(runPenStyle(paletteSize()) != Qt::SolidLine);
        QVERIFY(runPenStyle(paletteSize() - 1) == Qt::SolidLine);
        QVERIFY(seriesOf<QScatterSeries>(chart).empty());
        delete p;
    }

    // One row per group: final, best and floor as mean ± sd over its seeds; its seeds below it;
    // its tooltip lists every seed; its check box hides them all.
    void runListGroupRowShowsMeanAndSd() {
        RunStore s;
        RunListWidget list(&s);
        for (int k = 0; k < 3; ++k)
            addSeed(s, "g", k, 5);
        addSeed(s, "alone", 0, 5);
        list.setMetric("train_loss");
        QCOMPARE(list.topLevelItemCount(), 2);
        QTreeWidgetItem* g = list.topLevelItem(0);
        QCOMPARE(g->childCount(), 3);
        QCOMPARE(g->text(RunListWidget::ColName), QStringLiteral("g (3 seeds)"));
        // Finals 5, 10, 15; best 1, 2, 3; floor = last record (5 records: tail of 1).
        // (the table takes new records in at most every 200 ms)
        QTRY_COMPARE_WITH_TIMEOUT(g->text(RunListWidget::ColFinal), QStringLiteral("10 ± 5"),
                                  kRunWaitMs);
        QCOMPARE(g->text(RunListWidget::ColBest), QStringLiteral("2 ± 1"));
        QCOMPARE(g->text(RunListWidget::ColFloor), QStringLiteral("10 ± 5"));
        QCOMPARE(g->data(RunListWidget::ColFinal, kSortRole).toDouble(), 10.0);
        const QString tip = g->toolTip(RunListWidget::ColFinal);
        for (const char* seed : {"seed 1", "seed 2", "seed 3"})
            QVERIFY2(tip.contains(QLatin1String(seed)), qPrintable(tip));
        QCOMPARE(list.topLevelItem(1)->text(RunListWidget::ColName), QStringLiteral("alone_seed1"));
        // The group row stands for its seeds: selected, it selects them all.
        g->setSelected(true);
        QCOMPARE(list.selectedRunIds().size(), 3);
        g->setCheckState(RunListWidget::ColName, Qt::Unchecked);
        QCOMPARE(s.visibleRuns().size(), std::size_t(1));
        // Deleting seeds down to one makes it a run row of its own again.
        s.removeRun(s.runs()[0]->id);
        QCOMPARE(list.topLevelItem(0)->text(RunListWidget::ColName), QStringLiteral("g (2 seeds)"));
        s.removeRun(s.runs()[0]->id);
        QCOMPARE(list.topLevelItemCount(), 2);
        QCOMPARE(list.topLevelItem(0)->text(RunListWidget::ColName), QStringLiteral("g_seed3"));
        QCOMPARE(list.topLevelItem(0)->childCount(), 0);
    }

    // A session keeps which runs are seeds of which group; opened beside a group of that name,
    // its seeds form a group of their own.
    void sessionRoundTripKeepsGroups() {
        RunStore s;
        for (int k = 0; k < 3; ++k)
            addSeed(s, "g", k, 4);
        addSeed(s, "alone", 0, 4);
        const std::string text = ade::sessionToText(sessionFromStore(s, {}));
        const auto read = ade::sessionFromText(text);
        QVERIFY2(read.session, read.error.c_str());
        QCOMPARE(read.session->runs[1].group, std::string("g"));
        QCOMPARE(read.session->runs[1].seedIndex, 1);
        RunStore t;
        addSessionToStore(*read.session, t);
        const auto groups = seedGroups(t.visibleRuns());
        QCOMPARE(groups.size(), std::size_t(2));
        QCOMPARE(groups[0].members.size(), std::size_t(3));
        QCOMPARE(groups[0].label, QStringLiteral("g"));
        QCOMPARE(t.runs()[2]->seedIndex, 2);
        QCOMPARE(t.runs()[0]->colorIndex, t.runs()[2]->colorIndex);
        addSessionToStore(*read.session, t);  // again, beside the first copy
        const auto twice = seedGroups(t.visibleRuns());
        QCOMPARE(twice.size(), std::size_t(4));
        QCOMPARE(twice[2].label, QStringLiteral("g (2)"));
        QCOMPARE(twice[2].members.size(), std::size_t(3));
    }

    // A session written before seeds were an axis (no "group", no "seed_index") opens with
    // every run on its own; a bad seed index is refused with its place.
    void oldSessionOpens() {
        const std::string old = R"({"format": "attention-explorer-session", "version": 1,
            "chart_settings": {}, "runs": [
            {"name": "a", "color": "#0072b2", "visible": true, "config": {"seed": 1},
             "status": "completed", "history": {"columns": ["iteration", "train_loss"],
             "rows": [[0, 1.0], [1, 0.5]]}},
            {"name": "b", "visible": true, "config": {"seed": 2}, "status": "completed",
             "history": {"columns": ["iteration", "train_loss"], "rows": [[0, 2.0]]}}]})";
        const auto read = ade::sessionFromText(old);
        QVERIFY2(read.session, read.error.c_str());
        QVERIFY(read.warnings.empty());
        RunStore t;
        addSessionToStore(*read.session, t);
        QCOMPARE(t.runs().size(), std::size_t(2));
        QVERIFY(t.runs()[0]->group.isEmpty());
        QCOMPARE(seedGroups(t.visibleRuns()).size(), std::size_t(2));
        std::string bad = old;
        bad.replace(bad.find("\"visible\""), 9, "\"seed_index\": -1, \"visible\"");
        const auto refused = ade::sessionFromText(bad);
        QVERIFY(!refused.session);
        QVERIFY2(refused.error.find("seed_index") != std::string::npos, refused.error.c_str());
    }

    // K seeds of each planned run (core: ade::withSeeds, which the Seeds box and plainRuns use):
    // seed, seed + 1, ..., named <label>_seed<seed>; "same start as" keeps naming the label
    // (the core finds the run of the same seed).
    void withSeedsExpandsEachRun() {
        ade::PlannedRun a, b;
        a.name = a.label = "a";
        a.config = seeded(7);
        b.name = b.label = "b";
        b.config = adetest::tinyA(100, {{"seed", "7"}, {"init", "same"}, {"init_from", "a"}});
        const auto runs = ade::withSeeds({a, b}, 3);
        QCOMPARE(runs.size(), std::size_t(6));
        QCOMPARE(runs[4].name, std::string("a_seed9"));
        QCOMPARE(runs[4].label, std::string("a"));
        QCOMPARE(runs[4].config.getInt("seed"), 9);
        QCOMPARE(runs[4].seedIndex, 2);
        QCOMPARE(runs[3].name, std::string("b_seed8"));
        QCOMPARE(runs[3].config.getString("init_from"), std::string("a"));
        QCOMPARE(ade::withSeeds({a}, 1).front().name, std::string("a"));
        // As a preset's "seeds" expands in the core.
        ade::Plan plan;
        plan.runs = {{"a", a.config}, {"b", b.config}};
        plan.seeds = 3;
        const auto core = ade::plainRuns(plan);
        QCOMPARE(core.size(), runs.size());
        for (std::size_t i = 0; i < core.size(); ++i) {
            QCOMPARE(core[i].name, runs[i].name);
            QCOMPARE(core[i].seedIndex, runs[i].seedIndex);
            QCOMPARE(core[i].config.getInt("seed"), runs[i].config.getInt("seed"));
        }
    }

    // The window: the Seeds box makes Start run K seeds of each of the preset's runs, as one
    // group each, and Play K seeds of the form; the charts draw each group's mean and band.
    void seedsBoxStartsKSeedsPerRun() {
        auto w = adetest::makeWindow();
        auto* box = w->findChild<QSpinBox*>(QStringLiteral("seeds"));
        QVERIFY(box);
        box->setValue(3);
        box->setValue(1);
        // Loading a preset sets the box to the preset's "seeds" (this one has 10). The data are
        // shrunk: the test is about the seeds, and nine runs at n = 128 take a minute under ASan.
        QVERIFY(w->commands()->loadPreset(QStringLiteral("a-spectral-vs-random"), false,
                              {"iterations=20", "data.n=16", "data.prompts=8"}));
        QCOMPARE(w->commands()->seeds(), 10);
        box->setValue(3);
        QCOMPARE(w->commands()->seeds(), 3);
        QSignalSpy finished(w->controller(), &RunController::allFinished);
        w->action(QStringLiteral("start"))->trigger();
        QCOMPARE(w->store()->runs().size(), std::size_t(9));
        QVERIFY(finished.wait(kRunWaitMs));
        const auto groups = seedGroups(w->store()->visibleRuns());
        QCOMPARE(groups.size(), std::size_t(3));
        QCOMPARE(groups[0].label, QStringLiteral("alg1-spectral"));
        const long long base = groups[0].members[0]->config.getInt("seed");
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(groups[0].members[k]->config.getInt("seed"), base + k);
            QCOMPARE(groups[0].members[k]->seedIndex, k);
        }
        w->charts()->refresh(true);
        ChartPanel* loss = w->charts()->panels().front();
        bool banded = false;
        for (const QString& n : loss->seriesNames())
            banded = banded || n.contains(QStringLiteral(" · 3 seeds · "));
        QVERIFY2(banded, qPrintable(loss->seriesNames().join('|')));
        QCOMPARE(w->runList()->topLevelItemCount(), 3);
        // View > Show seeds separately.
        w->action(QStringLiteral("seedsSeparate"))->setChecked(true);
        QVERIFY(w->charts()->seedsSeparate());
        for (const QString& n : loss->seriesNames())
            QVERIFY2(!n.contains(QStringLiteral(" seeds · ")), qPrintable(n));
        // Play: three seeds of the form's settings, one group.
        w->form()->setConfig(adetest::tinyA(10));
        w->action(QStringLiteral("pause"))->trigger();
        QCOMPARE(w->store()->runs().size(), std::size_t(12));
        QVERIFY(finished.wait(kRunWaitMs));
        const auto played = groups.size();
        QCOMPARE(seedGroups(w->store()->visibleRuns()).size(), played + 1);
        // Re-seed keeps the groups: three new seeds each.
        w->commands()->reseedRuns();
        QCOMPARE(w->store()->runs().size(), std::size_t(15));
        QVERIFY(finished.wait(kRunWaitMs));
        const RunRecord& last = *w->store()->runs().back();
        QCOMPARE(last.seedIndex, 2);
        QCOMPARE(groupMembers(*w->store(), last).size(), std::size_t(3));
    }
};

QTEST_MAIN(TestSeeds)
#include "tst_seeds.moc"
