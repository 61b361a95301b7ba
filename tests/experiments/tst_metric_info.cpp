// Every experiment describes its metrics and charts (core/experiments/MetricInfo.h): every
// column its Problem reports is described, charts exist, one chart holds one quantity, signed
// quantities never sit on a log axis, labels are phrases rather than column names, and the
// registry is what fills the parameter list, the About text and the default preset.
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "training/Trainer.h"

using namespace ade;

namespace {

// A small config of each experiment, with every optional metric switched on.
Config smallConfig(const std::string& experiment) {
    Config c;
    c.setText("experiment", experiment);
    std::vector<std::string> sets = {"iterations=2", "threads=1"};
    if (experiment == "darcy")
        sets.insert(sets.end(), {"darcy.resolution=16", "darcy.patch=4", "darcy.train=6",
                                 "darcy.test=3", "darcy.width=4", "stage1.epochs=1",
                                 "stage1.batch=3"});
    if (experiment == "b" || experiment == "c") sets.push_back("villani.probes=2");
    for (const auto& s : sets) {
        std::string k, v;
        splitAssignment(s, k, v);
        if (auto e = c.setText(k, v)) qFatal("%s", e->message.c_str());
    }
    return c;
}

// The columns a run of the config records.
std::vector<std::string> recordedColumns(const Config& c) {
    std::string error;
    auto trainer = makeTrainer(c, &error);
    if (!trainer) qFatal("%s", error.c_str());
    return trainer->run().history.columns;
}

}  // namespace

class TestMetricInfo : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;

  private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid());
        qputenv("ADE_CACHE_DIR", cache_.path().toUtf8());
        QVERIFY(experiments().size() >= 4);
    }

    void everyRecordedColumnIsDescribed() {
        for (const ExperimentInfo& e : experiments()) {
            const auto columns = recordedColumns(smallConfig(e.name));
            QVERIFY(columns.size() > 4);
            for (const auto& column : columns) {
                const auto all = metricsOf(e.name);
                const bool described = std::any_of(all.begin(), all.end(), [&](const auto& m) {
                    return m.column == column;
                });
                QVERIFY2(described, qPrintable(QString::fromStdString(e.name + ": " + column)));
                QVERIFY(describeColumn(e.name, column).chart.rfind("column:", 0) != 0);
            }
        }
    }

    void chartsAreConsistent() {
        for (const ExperimentInfo& e : experiments()) {
            std::set<std::string> ids;
            int shown = 0;
            for (const ChartInfo& c : e.charts) {
                QVERIFY2(ids.insert(c.id).second, qPrintable(QString::fromStdString(c.id)));
                QVERIFY(!c.title.empty() && !c.units.empty());
                shown += c.shownByDefault;
            }
            // The grid at first: a few charts, none a grab-bag.
            QVERIFY2(shown >= 2 && shown <= 4, qPrintable(QString::fromStdString(e.name)));
            std::map<std::string, std::string> unitsOfChart;
            for (const MetricInfo& m : metricsOf(e.name)) {
                const QString what = QString::fromStdString(e.name + ": " + m.column);
                QVERIFY2(!m.label.empty() && (m.label != m.column || m.column == "iteration"),
                 qPrintable(what));
                QVERIFY2(!m.meaning.empty() && !m.units.empty(), qPrintable(what));
                if (m.chart.empty()) continue;  // time: not charted
                QVERIFY2(ids.count(m.chart), qPrintable(what + " -> " + m.chart.c_str()));
                const ChartInfo chart = *std::find_if(
                    e.charts.begin(), e.charts.end(), [&](const auto& c) { return c.id == m.chart; });
                // One chart, one quantity: the axis label is the metrics' units.
                QCOMPARE(QString::fromStdString(m.units), QString::fromStdString(chart.units));
                auto [it, fresh] = unitsOfChart.emplace(m.chart, m.units);
                QVERIFY2(fresh || it->second == m.units, qPrintable(what));
                // Signed quantities are never drawn on a log axis.
                if (m.isSigned) QVERIFY2(chart.scale != AxisScale::Log, qPrintable(what));
                // A quantity that does not span decades is not put on a log axis by default.
                if (!m.logSuits) QVERIFY2(chart.scale != AxisScale::Log, qPrintable(what));
            }
        }
    }

    void unknownColumnsGetAChartOfTheirOwn() {
        const MetricInfo m = describeColumn("a", "some_future_metric");
        QCOMPARE(QString::fromStdString(m.chart), QStringLiteral("column:some_future_metric"));
        QCOMPARE(chartInfo(m.chart).scale, AxisScale::Linear);
        QCOMPARE(QString::fromStdString(describeColumn("nope", "norm_WQ").column),
                 QStringLiteral("norm_WQ"));
        // A column both B and Darcy report reads as the same symbol.
        QCOMPARE(QString::fromStdString(describeColumn("b", "norm_WQ").label),
                 QString::fromStdString(describeColumn("darcy", "norm_WQ").label));
        QCOMPARE(QString::fromStdString(describeColumn("b", "norm_WQ").label),
                 QStringLiteral("‖W_Q‖_F"));
    }

    void anExperimentIsAPlugIn() {
        // Its keys come from its registration, its About text, headline metric and default
        // preset from its ExperimentInfo.
        for (const ExperimentInfo& e : experiments()) {
            QVERIFY(e.registerParams);
            QVERIFY2(e.aboutHtml.find("<h3>") != std::string::npos,
                     qPrintable(QString::fromStdString(e.name)));
            QVERIFY(!e.defaultPreset.empty());
            const auto all = metricsOf(e.name);
            QVERIFY(std::any_of(all.begin(), all.end(),
                                [&](const auto& m) { return m.column == e.headlineMetric; }));
            int own = 0;
            for (const ParamSpec& s : ParamRegistry::instance().all())
                own += s.experiments.size() == 1 && s.experiments.front() == e.name;
            QVERIFY2(own > 0, qPrintable(QString::fromStdString(e.name)));
        }
        QCOMPARE(QString::fromStdString(defaultPresetName()),
                 QString::fromStdString(experiments().front().defaultPreset));
    }
};

QTEST_MAIN(TestMetricInfo)
#include "tst_metric_info.moc"
