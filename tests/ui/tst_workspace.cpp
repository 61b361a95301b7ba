// The workspace without a window (issue 29): a preset's comparison with its seeds and claims,
// Reset in place with the same numbers, Re-seed beside the old runs, "same start as" resolved
// from the batch or from a run of the store, a form's run named uniquely, deleting a run.
#include <QSignalSpy>
#include <QTest>

#include "runs/ClaimsMonitor.h"
#include "Configs.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "Waits.h"
#include "workspace/Workspace.h"

using namespace ade::ui;

namespace {

// a-same-start at a few milliseconds a run: two runs, the second from the first's weights.
ade::Plan smallSameStart(const Workspace& ws) {
    QString error;
    auto plan = ws.loadPreset(QStringLiteral("a-same-start"),
                              {"iterations=30", "data.n=16", "data.prompts=4", "log_every=1"},
                              &error);
    if (!plan) qFatal("a-same-start: %s", qPrintable(error));
    return *plan;
}

bool idle(const Workspace& ws) {
    return !ws.controller()->anyActive();
}

double lastValue(const RunStore& store, int id, const char* column) {
    const RunRecord* r = store.run(id);
    if (!r) return std::nan("");
    for (std::size_t c = 0; c < r->columns.size(); ++c)
        if (r->columns[c] == column && !r->data[c].empty()) return r->data[c].back();
    return std::nan("");
}

}  // namespace

class TestWorkspace : public QObject {
    Q_OBJECT
  private slots:
    void comparisonRunsEverySeedAndTheClaimsWatchIt();
    void resetReplaysTheSameNumbersInPlace();
    void reseedAddsRunsBesideTheOldOnes();
    void formRunsAreNamedUniquelyAndSameStartComesFromTheStore();
    void deleteRunLeavesTheBatch();
    void rerunsAreNamedAfterWhatChanged();
};

void TestWorkspace::comparisonRunsEverySeedAndTheClaimsWatchIt() {
    Workspace ws("");
    const ade::Plan plan = smallSameStart(ws);
    QSignalSpy planSpy(&ws, &Workspace::planChanged);
    QSignalSpy seedsSpy(&ws, &Workspace::seedsChanged);
    const ade::Config form = plan.runs.front().config;
    ws.setPlan(plan, QStringLiteral("a-same-start"), form.toJson().dump());
    QCOMPARE(planSpy.count(), 1);
    QCOMPARE(ws.seeds(), 10);  // the preset's "seeds"
    QCOMPARE(seedsSpy.count(), 1);
    QCOMPARE(ws.presetRuns().size(), std::size_t(2));  // one seed each until Start
    QVERIFY(ws.isPresetForm(form));
    QVERIFY(!ws.isPresetForm(adetest::tinyA(30)));
    QCOMPARE(ws.claims()->claims().size(), plan.claims.size());

    ws.setSeeds(3);
    ws.setSeeds(1000);  // the Seeds box's range
    QCOMPARE(ws.seeds(), 32);
    ws.setSeeds(2);
    QString error;
    QVERIFY2(ws.startComparison(&error), qPrintable(error));
    QCOMPARE(ws.batchIds().size(), std::size_t(4));
    QCOMPARE(ws.claims()->runs().size(), std::size_t(4));
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    // Two groups of two seeds; the gd run starts from alg1's weights, seed by seed.
    QStringList names;
    for (int id : ws.batchIds()) {
        const RunRecord* r = ws.store()->run(id);
        QVERIFY(r);
        QCOMPARE(r->state, RunState::Completed);
        names << r->name;
    }
    QCOMPARE(names, QStringList({"alg1_seed2", "gd_seed2", "alg1_seed3", "gd_seed3"}));
    for (int k = 0; k < 2; ++k) {
        const RunRecord* alg1 = ws.store()->run(ws.batchIds()[2 * k]);
        const RunRecord* gd = ws.store()->run(ws.batchIds()[2 * k + 1]);
        QVERIFY(alg1->initialParams && gd->initialParams);
        QCOMPARE(gd->initialParams->size(), alg1->initialParams->size());
        for (std::size_t m = 0; m < gd->initialParams->size(); ++m)
            QVERIFY((*gd->initialParams)[m] == (*alg1->initialParams)[m]);
    }
    // A second comparison hides the first from the charts; its runs get new group names.
    QVERIFY(ws.startComparison(&error));
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    QCOMPARE(ws.store()->runs().size(), std::size_t(8));
    int visible = 0;
    for (const auto& r : ws.store()->runs())
        visible += r->visible ? 1 : 0;
    QCOMPARE(visible, 4);
    QVERIFY(ws.store()->run(ws.batchIds().front())->name != QStringLiteral("alg1_seed2"));

    ws.clearPlan();
    QVERIFY(!ws.hasComparison());
    QVERIFY(ws.batchIds().empty());
    QVERIFY(!ws.startComparison(&error));
    QVERIFY(!error.isEmpty());
}

void TestWorkspace::resetReplaysTheSameNumbersInPlace() {
    Workspace ws("");
    const ade::Plan plan = smallSameStart(ws);
    ws.setPlan(plan, QStringLiteral("a-same-start"), {});
    ws.setSeeds(1);
    QVERIFY(ws.startComparison());
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    std::vector<double> before;
    QStringList names;
    for (int id : ws.batchIds()) {
        before.push_back(lastValue(*ws.store(), id, "train_loss"));
        names << ws.store()->run(id)->name;
    }
    QSignalSpy batchSpy(&ws, &Workspace::batchChanged);
    QVERIFY(ws.resetBatch());
    QCOMPARE(batchSpy.count(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    QCOMPARE(ws.store()->runs().size(), std::size_t(2));  // in place
    for (std::size_t i = 0; i < ws.batchIds().size(); ++i) {
        const int id = ws.batchIds()[i];
        QCOMPARE(ws.store()->run(id)->name, names[static_cast<int>(i)]);
        QCOMPARE(ws.store()->run(id)->state, RunState::Completed);
        // Same config, seed and start: the same numbers, bit for bit.
        QCOMPARE(lastValue(*ws.store(), id, "train_loss"), before[i]);
    }
    // The claims follow the runs' new records.
    std::vector<int> claimIds;
    for (const auto& [id, label] : ws.claims()->runs())
        claimIds.push_back(id);
    QCOMPARE(claimIds, ws.batchIds());
}

void TestWorkspace::reseedAddsRunsBesideTheOldOnes() {
    Workspace ws("");
    const ade::Plan plan = smallSameStart(ws);
    ws.setPlan(plan, QStringLiteral("a-same-start"), {});
    ws.setSeeds(2);
    QVERIFY(ws.startComparison());
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    QString error;
    QVERIFY2(ws.reseedBatch(1234, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    QCOMPARE(ws.store()->runs().size(), std::size_t(8));  // the old four stay
    const auto& runs = ws.batchRuns();
    QCOMPARE(runs.size(), std::size_t(4));
    QCOMPARE(runs[0].label, std::string("alg1 · seed 1234"));
    QCOMPARE(runs[0].name, std::string("alg1 · seed 1234_seed1234"));
    QCOMPARE(runs[2].label, std::string("alg1 · seed 1234"));
    QCOMPARE(runs[2].config.getInt("seed"), 1235);  // a group's seeds stay a group
    QCOMPARE(runs[1].label, std::string("gd · seed 1234"));
    QCOMPARE(runs[3].name, std::string("gd · seed 1234_seed1235"));
    // "Same start as" follows its run to the new seed.
    QCOMPARE(runs[1].config.getString("init_from"), std::string("alg1 · seed 1234"));
    for (int id : ws.batchIds())
        QCOMPARE(ws.store()->run(id)->state, RunState::Completed);
}

void TestWorkspace::formRunsAreNamedUniquelyAndSameStartComesFromTheStore() {
    Workspace ws("");
    const ade::Config c = adetest::tinyA(20);
    QVERIFY(!ws.alreadyRan(c));
    QVERIFY(ws.startConfig(c));
    QVERIFY(ws.startConfig(c));
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    QCOMPARE(ws.store()->runs().front()->name, QStringLiteral("run 1"));
    // The same config again is that run again: its name, made unique.
    QCOMPARE(ws.store()->runs().back()->name, QStringLiteral("run 1 (2)"));
    QVERIFY(ws.alreadyRan(c));
    // A run of the store by name gives its recorded initial weights.
    const ade::Config same = adetest::tinyA(20, {{"init", "same"}, {"init_from", "run 1"}});
    QString error;
    QVERIFY2(ws.startConfig(same, false, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    const RunRecord* from = ws.store()->runs().front().get();
    const RunRecord* copy = ws.store()->run(ws.batchIds().front());
    QVERIFY(from->initialParams && copy->initialParams);
    for (std::size_t m = 0; m < from->initialParams->size(); ++m)
        QVERIFY((*copy->initialParams)[m] == (*from->initialParams)[m]);
    // No run by that name: an error in words, nothing started, the batch unchanged.
    const std::vector<int> batch = ws.batchIds();
    const ade::Config nowhere = adetest::tinyA(20, {{"init", "same"}, {"init_from", "nowhere"}});
    QVERIFY(!ws.startConfig(nowhere, false, &error));
    QVERIFY2(error.contains(QStringLiteral("nowhere")), qPrintable(error));
    QCOMPARE(ws.batchIds(), batch);
    QCOMPARE(ws.store()->runs().size(), std::size_t(3));
}

void TestWorkspace::deleteRunLeavesTheBatch() {
    Workspace ws("");
    ws.setSeeds(3);
    QVERIFY(ws.startConfig(adetest::tinyA(20)));
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    QCOMPARE(ws.batchIds().size(), std::size_t(3));
    const int middle = ws.batchIds()[1];
    const std::string third = ws.batchRuns()[2].name;
    ws.deleteRun(middle);
    QCOMPARE(ws.batchIds().size(), std::size_t(2));
    QCOMPARE(ws.batchRuns()[1].name, third);  // ids and plan stay in step
    QVERIFY(!ws.store()->run(middle));
    QVERIFY(ws.resetBatch());
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    QCOMPARE(ws.store()->runs().size(), std::size_t(2));
}

// Issue 30, item 11: a teacher's rerun after changing n was named "run 16"; it says what changed
// against the closest run of its experiment, after that run's name while both fit.
void TestWorkspace::rerunsAreNamedAfterWhatChanged() {
    Workspace ws("");
    QVERIFY(ws.startConfig(adetest::tinyA(5)));
    QVERIFY(ws.startConfig(adetest::tinyA(5, {{"data.n", "16"}})));
    QVERIFY(ws.startConfig(adetest::tinyA(5, {{"data.n", "16"}, {"lr", "0.02"}})));
    QVERIFY(ws.startConfig(adetest::tinyA(5, {{"data.n", "12"}, {"lr", "0.03"},
                                              {"iterations", "7"}})));
    QVERIFY(ws.startConfig(adetest::tinyA(5, {{"seed", "99"}})));  // only the seed: run 1 again
    QTRY_VERIFY_WITH_TIMEOUT(idle(ws), kRunWaitMs);
    QStringList names;
    for (const auto& r : ws.store()->runs())
        names << r->name;
    QCOMPARE(names, QStringList({QStringLiteral("run 1"), QStringLiteral("run 1 · n = 16"),
                                 QStringLiteral("run 1 · n = 16 · lr = 0.02"),
                                 QStringLiteral("iterations = 7, lr = 0.03, +1 more"),
                                 QStringLiteral("run 1 (2)")}));
}

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
