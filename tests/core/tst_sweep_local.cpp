// The local backend and the sweep folder (core/sweep): successive halving against the full
// grid, resuming after a task's folder is lost, a folder of another sweep refused, the folder
// read back to the same numbers, and tasks run one by one (as Slurm runs them) giving the same
// sweep.csv as the local backend.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <map>
#include <sstream>

#include "Configs.h"
#include "output/RunOutput.h"
#include "plan/Preset.h"
#include "sweep/Sweep.h"

using namespace ade;
namespace fs = std::filesystem;

namespace {

Plan tinyPlan(int iterations) {
    PlanError pe;
    const std::string text = R"({"config": {"experiment": "a", "data.n": 8, "data.prompts": 4,
        "data.test_prompts": 2, "optimizer": "gd", "log_every": 1, "seed": 3, "iterations": )" +
                             std::to_string(iterations) + R"(}, "runs": [{"name": "gd"}]})";
    auto plan = parsePlan(text, "tiny", {}, &pe);
    if (!plan) qFatal("plan: %s", pe.message.c_str());
    return *plan;
}

SweepDesign lrDesign(const std::string& values, int seeds) {
    std::string err;
    SweepDesign d;
    d.axes = {*parseAxis("lr=" + values, &err)};
    d.seeds = seeds;
    d.objective = {"train_loss", "final", true};
    return d;
}

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A history without its wall-time column.
std::vector<std::vector<double>> withoutTime(const MetricHistory& h) {
    const int t = h.column("time_s");
    std::vector<std::vector<double>> out;
    for (auto row : h.rows) {
        if (t >= 0) row.erase(row.begin() + t);
        out.push_back(std::move(row));
    }
    return out;
}

std::map<std::string, std::string> folderFiles(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = readAll(e.path());
    return out;
}

}  // namespace

class TestSweepLocal : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    fs::path root() const { return fs::path(tmp.path().toStdString()); }

  private slots:
    void halvingLastRungIsTheFullRun() {
        const Plan plan = tinyPlan(60);
        SweepDesign full = lrDesign("0.005,0.01,0.02,0.04,0.08,0.12,0.16,0.2,0.3", 1);
        std::string err;
        PlanRunOptions o;
        o.jobs = 2;
        const auto grid = runSweepLocal(plan, full, o, nullptr, &err);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(grid.size(), std::size_t(9));

        SweepDesign sh = full;
        sh.halving = {true, 3, 20};
        std::vector<HalvingRung> rungs;
        const auto halved = runSweepLocal(plan, sh, o, &rungs, &err);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(rungs.size(), std::size_t(2));
        QCOMPARE(rungs[0].iterations, 20L);
        QCOMPARE(rungs[0].configs, 9);
        QCOMPARE(rungs[0].kept, 3);
        QCOMPARE(rungs[1].iterations, 60L);
        QCOMPARE(rungs[1].configs, 3);
        QCOMPARE(rungs[1].kept, 0);
        QCOMPARE(halved.size(), std::size_t(9 + 3));

        // Rung 0 keeps the 3 best at 20 iterations.
        std::vector<RunOutcome> rung0(halved.begin(), halved.begin() + 9);
        const auto ranked0 = aggregateConfigs(rung0, sh.objective);
        std::set<std::string> kept;
        for (int k = 0; k < 3; ++k)
            kept.insert(ranked0[static_cast<std::size_t>(k)].values.front().second);
        int last = 0;
        for (const auto& h : halved) {
            const int rung = rungOfTask(h.run.name);
            QVERIFY(rung == 0 || rung == 1);
            // Same start, same first steps: the rung's records are the full run's first ones.
            const RunOutcome* twin = nullptr;
            for (const auto& g : grid)
                if (g.run.varied == h.run.varied) twin = &g;
            QVERIFY(twin);
            const auto a = withoutTime(h.result.history), b = withoutTime(twin->result.history);
            QVERIFY(a.size() <= b.size());
            QVERIFY(!a.empty());
            for (std::size_t r = 0; r < a.size(); ++r)
                QCOMPARE(a[r], b[r]);
            if (rung == 1) {
                ++last;
                QVERIFY(kept.count(h.run.varied.front().second));
                QCOMPARE(h.result.iterationsDone, twin->result.iterationsDone);
                QCOMPARE(a, b);  // the last rung's run is the full run, number for number
            } else {
                QCOMPARE(h.result.iterationsDone, 20L);
            }
        }
        QCOMPARE(last, 3);
        // The configs of the last rung rank as in the full grid among themselves; the results
        // table reports each config at its largest budget.
        const auto table = aggregateConfigs(halved, sh.objective);
        QCOMPARE(table.size(), std::size_t(9));
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(table[static_cast<std::size_t>(k)].iterations, 60L);
            QCOMPARE(table[static_cast<std::size_t>(k)].rung, 1);
        }
        QCOMPARE(table[3].iterations, 20L);
        QCOMPARE(table[3].rung, 0);
        std::vector<RunOutcome> gridKept;
        for (const auto& g : grid)
            if (kept.count(g.run.varied.front().second)) gridKept.push_back(g);
        const auto ranked = aggregateConfigs(gridKept, sh.objective);
        for (int k = 0; k < 3; ++k) {
            QCOMPARE(table[static_cast<std::size_t>(k)].values, ranked[static_cast<std::size_t>(k)].values);
            QCOMPARE(table[static_cast<std::size_t>(k)].mean, ranked[static_cast<std::size_t>(k)].mean);
        }
    }

    void folderResumesAndReadsBack() {
        const Plan plan = tinyPlan(30);
        const SweepDesign d = lrDesign("0.01,0.05,0.1", 2);
        const fs::path dir = root() / "resume";
        PlanRunOptions o;
        o.jobs = 2;
        o.outDir = dir;
        o.keepSnapshots = false;
        std::string err;
        SweepLocalStats stats;
        const auto first = runSweepLocal(plan, d, o, nullptr, &err, &stats);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(first.size(), std::size_t(6));
        QCOMPARE(stats.ran, 6);
        QCOMPARE(stats.skipped, 0);
        QVERIFY(fs::exists(dir / "sweep.json"));
        QVERIFY(fs::exists(dir / "configs" / (first[0].run.name + ".json")));
        const std::string csv = readAll(dir / "sweep.csv");
        QVERIFY(csv.rfind("run,label,lr,seed,status,iterations_done,stop,final_", 0) == 0);
        QVERIFY(csv.find("iterations_per_second") == std::string::npos);
        QVERIFY(readAll(dir / "timing.csv").rfind("run,label,seconds,iterations_per_second\n", 0) == 0);
        QVERIFY(fs::exists(dir / "session.json"));
        QVERIFY(!fs::exists(dir / "fit.json"));  // no fit in the design

        // Read back: the same summary metrics, exactly (every double round-trips).
        auto folder = readSweepFolder(dir, &err);
        QVERIFY2(folder, err.c_str());
        QCOMPARE(folder->finished.size(), std::size_t(6));
        QVERIFY(folder->missing.empty() && folder->failed.empty());
        QCOMPARE(folder->planName, std::string("tiny"));
        QCOMPARE(designToJson(folder->design), designToJson(d));
        for (std::size_t i = 0; i < 6; ++i) {
            QCOMPARE(folder->finished[i].run.name, first[i].run.name);
            QCOMPARE(folder->finished[i].run.varied, first[i].run.varied);
            QCOMPARE(folder->finished[i].run.config.toJson(), first[i].run.config.toJson());
            QCOMPARE(folder->finished[i].result.status, first[i].result.status);
            QVERIFY(summaryMetrics(folder->finished[i].result.history) ==
                    summaryMetrics(first[i].result.history));
            QCOMPARE(folder->finished[i].result.history.rows, first[i].result.history.rows);
        }
        QCOMPARE(sweepCsv(folder->finished), sweepCsv(first));

        // Lose one task's folder: only that task runs again.
        const std::string lost = first[3].run.name;
        const std::string keptSummary = readAll(dir / "runs" / first[0].run.name / "summary.json");
        fs::remove_all(dir / "runs" / lost);
        SweepLocalStats again;
        const auto second = runSweepLocal(plan, d, o, nullptr, &err, &again);
        QVERIFY2(err.empty(), err.c_str());
        QCOMPARE(again.skipped, 5);
        QCOMPARE(again.ran, 1);
        QVERIFY(fs::exists(dir / "runs" / lost / "summary.json"));
        QCOMPARE(readAll(dir / "runs" / first[0].run.name / "summary.json"), keptSummary);
        QCOMPARE(readAll(dir / "sweep.csv"), csv);  // same seeds, same numbers

        // Another sweep into the same folder: refused, nothing changed.
        const auto before = folderFiles(dir);
        const auto other = runSweepLocal(plan, lrDesign("0.2,0.3", 1), o, nullptr, &err);
        QVERIFY(other.empty());
        QVERIFY2(QString::fromStdString(err).contains("holds another sweep"), err.c_str());
        QVERIFY(folderFiles(dir) == before);
    }

    void tasksByIndexMatchTheLocalBackend() {
        const Plan plan = tinyPlan(25);
        SweepDesign d = lrDesign("0.02,0.1", 2);
        d.fitX = "lr";
        d.fitY = "train_loss";
        std::string err;
        PlanRunOptions o;
        o.outDir = root() / "local";
        runSweepLocal(plan, d, o, nullptr, &err);
        QVERIFY2(err.empty(), err.c_str());
        QVERIFY(fs::exists(o.outDir / "fit.json"));

        const fs::path dir = root() / "bytask";
        const auto tasks = expandDesign(plan, d, &err);
        QVERIFY(writeSweepManifest(dir, plan.name, d, *tasks, "test", &err));
        auto folder = readSweepFolder(dir, &err);
        QVERIFY2(folder, err.c_str());
        QCOMPARE(folder->missing, (std::vector<int>{0, 1, 2, 3}));
        // Tasks 2, 0 (any order); a Slurm log with an error for task 3.
        for (int i : {2, 0}) {
            RunOutcome out;
            QCOMPARE(runSweepTask(dir, i, "task", &out, &err), TaskRunStatus::Ran);
            QCOMPARE(out.run.name, (*tasks)[static_cast<std::size_t>(i)].name);
        }
        QCOMPARE(runSweepTask(dir, 2, "task", nullptr, &err), TaskRunStatus::AlreadyDone);
        QCOMPARE(runSweepTask(dir, 4, "task", nullptr, &err), TaskRunStatus::Invalid);
        QVERIFY2(QString::fromStdString(err).contains("not in 0..3"), err.c_str());
        fs::create_directories(dir / "slurm" / "logs");
        std::ofstream(dir / "slurm" / "logs" / "77_3.out") << "slurmstepd: error: *** JOB 78 CANCELLED DUE TO TIME LIMIT ***\n";
        std::ofstream(dir / "slurm" / "logs" / "77_1.out") << "running\n";
        folder = readSweepFolder(dir, &err);
        QVERIFY2(folder, err.c_str());
        QCOMPARE(folder->finished.size(), std::size_t(2));
        QCOMPARE(folder->missing, (std::vector<int>{1}));
        QCOMPARE(folder->failed, (std::vector<int>{3}));
        QCOMPARE(folder->logs.at(3), dir / "slurm" / "logs" / "77_3.out");
        for (int i : {1, 3})
            QCOMPARE(runSweepTask(dir, i, "task", nullptr, &err), TaskRunStatus::Ran);
        folder = readSweepFolder(dir, &err);
        QVERIFY(folder->missing.empty() && folder->failed.empty());
        QVERIFY(writeSweepResults(*folder, &err));
        QCOMPARE(readAll(dir / "sweep.csv"), readAll(o.outDir / "sweep.csv"));
        QCOMPARE(readAll(dir / "fit.json"), readAll(o.outDir / "fit.json"));
    }
};

QTEST_GUILESS_MAIN(TestSweepLocal)
#include "tst_sweep_local.moc"
