// The kernels at every instruction-set level (issue 31, util/CpuLevel.h): each level this build
// compiled and this CPU runs is forced in turn, and every kernel family — Experiment A's loss
// (small-d and blocked paths, float64 and float32, with and without the self term), B's head
// (merged and factored), C's LoRA network (tanh, softplus), Darcy's ViT regressor (full loss,
// frozen parts, stage-2 loss) — gives the baseline's loss and gradients to 1e-12 (float32: its
// own rounding, 1e-5), and at each level the same bits on one thread and on a pool of two.
// The CLI says which level ran (version, summary.json) and what it did with ADE_CPU_LEVEL.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "Configs.h"
#include "Process.h"
#include "experiments/ExperimentRegistry.h"
#include "experiments/darcy/ExperimentDarcy.h"
#include "models/VitRegressor.h"
#include "training/Problem.h"
#include "util/CpuLevel.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

using namespace ade;

namespace {

// A loss and its gradients (and, for Darcy, its predictions), flattened.
struct Eval {
    double loss = 0;
    std::vector<double> values;  // every gradient entry, then any other output
};

double relativeDifference(const Eval& a, const Eval& b) {
    double num = std::pow(a.loss - b.loss, 2), den = a.loss * a.loss;
    if (a.values.size() != b.values.size()) return INFINITY;
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        num += std::pow(a.values[i] - b.values[i], 2);
        den += a.values[i] * a.values[i];
    }
    return std::sqrt(num / den);
}

bool sameBits(const Eval& a, const Eval& b) {
    return a.loss == b.loss && a.values == b.values;
}

void append(Eval& e, const ParamSet& g) {
    for (const auto& m : g.mats)
        e.values.insert(e.values.end(), m.data(), m.data() + m.size());
}

// One kernel call of a problem made from `sets` (with threads = T), at its initial point moved
// off it by a fixed random step, over all training units and over a listed few.
Eval problemEval(const std::vector<std::string>& sets, int threads) {
    std::vector<std::string> all = sets;
    all.push_back("threads=" + std::to_string(threads));
    const Config c = adetest::configFromSets(all);
    std::string err;
    auto problem = makeProblem(c, &err);
    if (!problem) qFatal("%s", err.c_str());
    Rng rng(7);
    ParamSet p = problem->initialParams(rng);
    Rng step(11);
    for (auto& m : p.mats)
        m += step.normalMatrix(m.rows(), m.cols(), 0.2);
    Eval e;
    ParamSet g = p.zerosLike();
    e.loss = problem->loss(p, &g, {});
    append(e, g);
    const std::vector<int> units = {3, 1, 2, 1};
    ParamSet gu = p.zerosLike();
    e.values.push_back(problem->loss(p, &gu, units));
    append(e, gu);
    e.values.push_back(problem->loss(p, nullptr, units));  // the loss alone
    return e;
}

// Darcy's ViT regressor: the full loss with every gradient and its predictions, the frozen
// parts of stage 2 and the stage-2 loss with its W_Q, W_K gradients.
Eval vitEval(int threads) {
    const Config c = adetest::configFromSets(
        {"experiment=darcy", "darcy.resolution=16", "darcy.patch=4", "darcy.train=12",
         "darcy.test=4", "darcy.width=8", "stage1.epochs=1", "stage1.batch=4"});
    std::string err;
    auto task = darcyTask(c, &err);
    if (!task) qFatal("%s", err.c_str());
    const VitRegressor model(18, 16, 8);
    Rng rng(3);
    ParamSet p = model.initialParams(rng);
    p[VitRegressor::WQ] *= 3.0;
    WorkerPool pool(threads);
    WorkerPool* pp = threads > 1 ? &pool : nullptr;
    Eval e;
    ParamSet g = p.zerosLike();
    Eigen::MatrixXd pred;
    e.loss = model.loss(p, task->train, {}, &g, false, pp, &pred);
    append(e, g);
    e.values.insert(e.values.end(), pred.data(), pred.data() + pred.size());
    const auto frozen = model.freeze(p, task->train, pp);
    for (const auto* m : {&frozen.H, &frozen.VO, &frozen.base})
        e.values.insert(e.values.end(), m->data(), m->data() + m->size());
    const std::vector<int> units = {5, 0, 2, 7, 2};
    ParamSet gq = p.zerosLike();
    Eigen::MatrixXd predQK;
    e.values.push_back(model.lossQK(p, task->train, frozen, units, &gq, pp, &predQK));
    append(e, gq);
    e.values.insert(e.values.end(), predQK.data(), predQK.data() + predQK.size());
    return e;
}

struct Case {
    const char* name;
    std::function<Eval(int)> eval;
    double tolerance;  // against the baseline level
};

std::vector<Case> cases() {
    auto problem = [](std::vector<std::string> sets) {
        return [sets](int threads) { return problemEval(sets, threads); };
    };
    const std::vector<std::string> a = {"experiment=a", "data.prompts=24", "data.test_prompts=4",
                                        "init=random"};
    auto with = [](std::vector<std::string> base, std::initializer_list<std::string> more) {
        base.insert(base.end(), more);
        return base;
    };
    return {
        {"A small-d (d = 4)", problem(with(a, {"data.d=4", "data.n=40"})), 1e-12},
        {"A small-d without self",
         problem(with(a, {"data.d=3", "data.n=33", "model.exclude_self=true"})), 1e-12},
        {"A blocked (d = 8)", problem(with(a, {"data.d=8", "data.n=70"})), 1e-12},
        {"A blocked without self",
         problem(with(a, {"data.d=6", "data.n=37", "model.exclude_self=true"})), 1e-12},
        {"A float32, small-d", problem(with(a, {"data.d=4", "data.n=40", "precision=float32"})),
         1e-5},
        {"A float32, blocked", problem(with(a, {"data.d=8", "data.n=70", "precision=float32"})),
         1e-5},
        {"B merged (N = 8)",
         problem({"experiment=b", "data.n=80", "data.d=6", "b.dk=6", "b.tokens=8"}), 1e-12},
        {"B factored (N = 5)",
         problem({"experiment=b", "data.n=70", "data.d=12", "b.dk=2", "b.tokens=5"}), 1e-12},
        {"C tanh", problem({"experiment=c", "data.n=600", "lora.activation=tanh"}), 1e-12},
        {"C softplus", problem({"experiment=c", "data.n=300", "lora.activation=softplus"}), 1e-12},
        {"Darcy ViT", vitEval, 1e-12},
    };
}

}  // namespace

class TestCpuLevels : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QVERIFY(!cpu::builtLevels().empty());
        QVERIFY(cpu::supports(cpu::builtLevels().front()));
        qInfo("kernels built for: %s; running: %s", cpu::levelSummary().c_str(),
              cpu::levelName().c_str());
    }

    void everyLevelAgreesWithTheBaseline() {
        const std::string first = cpu::levelName();
        const auto& levels = cpu::builtLevels();
        int compared = 0;
        for (const Case& c : cases()) {
            QVERIFY(cpu::forceLevel(levels.front()));
            const Eval base = c.eval(1);
            QVERIFY(std::isfinite(base.loss) && base.loss > 0);
            for (const auto& level : levels) {
                if (!cpu::supports(level)) {
                    qInfo("%-26s %-10s not run: this CPU lacks it", c.name, level.c_str());
                    continue;
                }
                std::string why;
                QVERIFY2(cpu::forceLevel(level, &why), why.c_str());
                QCOMPARE(QString::fromStdString(cpu::levelName()), QString::fromStdString(level));
                const Eval one = c.eval(1), two = c.eval(2);
                QVERIFY2(sameBits(one, two),
                         qPrintable(QString("%1 at %2: one thread and two differ")
                                        .arg(c.name, QString::fromStdString(level))));
                const double diff = relativeDifference(base, one);
                qInfo("%-26s %-10s relative difference to %s: %.2e", c.name, level.c_str(),
                      levels.front().c_str(), diff);
                QVERIFY2(diff <= c.tolerance,
                         qPrintable(QString("%1 at %2: %3 > %4")
                                        .arg(c.name, QString::fromStdString(level))
                                        .arg(diff)
                                        .arg(c.tolerance)));
                ++compared;
            }
        }
        QVERIFY(compared >= static_cast<int>(cases().size()));
        QVERIFY(cpu::forceLevel(first));
    }

    void refusedLevelsChangeNothing() {
        const std::string before = cpu::levelName();
        std::string why;
        QVERIFY(!cpu::forceLevel("x86-64-v9", &why));
        QVERIFY2(why.find("not a kernel level of this build") != std::string::npos, why.c_str());
        QCOMPARE(QString::fromStdString(cpu::levelName()), QString::fromStdString(before));
    }

    // The CLI: `version` names the level; ADE_CPU_LEVEL chooses one (summary.json records it);
    // a level it cannot follow is said on stderr and the best level runs.
    void theCliSaysWhichLevelRan() {
        const auto& levels = cpu::builtLevels();
        QProcessEnvironment env;
        env.insert("ADE_CPU_LEVEL", QString::fromStdString(levels.front()));
        auto v = testproc::runCli({"version"}, 60000, env);
        QCOMPARE(v.code, 0);
        QVERIFY2(v.out.contains("kernels: " + QString::fromStdString(levels.front()) + " (built: "),
                 qPrintable(v.out));
        QVERIFY2(v.err.isEmpty(), qPrintable(v.err));

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile config(dir.path() + "/tiny.json");
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(R"({"config": {"experiment": "a", "iterations": 3, "data.n": 8,
                                    "data.prompts": 4}})");
        config.close();
        auto r = testproc::runCli(
            {"run", "--config", config.fileName(), "--quiet", "--out", dir.path() + "/out"}, 120000,
            env);
        QCOMPARE(r.code, 0);
        QFile f(dir.path() + "/out/tiny/summary.json");
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(r.out + r.err));
        const QJsonObject s = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(s.value("cpu_level").toString(), QString::fromStdString(levels.front()));

        QProcessEnvironment bad;
        bad.insert("ADE_CPU_LEVEL", "pentium");
        auto w = testproc::runCli({"version"}, 60000, bad);
        QCOMPARE(w.code, 0);
        QVERIFY2(w.err.contains("warning: ADE_CPU_LEVEL: 'pentium' is not a kernel level of this "
                                "build"),
                 qPrintable(w.err));
        QVERIFY2(w.out.contains("kernels: " + QString::fromStdString(cpu::levelName())),
                 qPrintable(w.out));
    }
};

QTEST_GUILESS_MAIN(TestCpuLevels)
#include "tst_cpu_levels.moc"
