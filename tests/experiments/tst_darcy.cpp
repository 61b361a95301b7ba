// Darcy flow (Paper B's experiment): the finite-difference solver against a manufactured
// solution, the Gaussian random field's spectrum, the data cache, the ViT regressor's gradients,
// stage 2 touching only W_Q and W_K, determinism.
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "Configs.h"
#include "FiniteDiff.h"
#include "config/Config.h"
#include "data/DarcyFlow.h"
#include "experiments/darcy/ExperimentDarcy.h"
#include "experiments/ExperimentRegistry.h"
#include "models/VitRegressor.h"
#include "training/Trainer.h"
#include "util/Rng.h"
#include "util/RunControl.h"
#include "util/WorkerPool.h"

using namespace ade;

namespace {

Config darcyConfig(std::vector<std::string> sets) {
    sets.insert(sets.begin(), {"experiment=darcy", "darcy.resolution=16", "darcy.patch=4",
                               "darcy.train=24", "darcy.test=8", "darcy.width=8",
                               "stage1.epochs=3", "stage1.batch=8"});
    return adetest::configFromSets(sets);
}

// Manufactured problem: a = 1 + x^2 + y, u = sin(pi x) sin(pi y), f = -div(a grad u).
double maxErrorAt(int s) {
    const double pi = std::numbers::pi, h = 1.0 / (s + 1);
    Eigen::MatrixXd a(s + 2, s + 2), f(s, s), exact(s, s);
    for (int i = 0; i < s + 2; ++i)
        for (int j = 0; j < s + 2; ++j)
            a(i, j) = 1 + (i * h) * (i * h) + j * h;
    for (int i = 1; i <= s; ++i)
        for (int j = 1; j <= s; ++j) {
            const double x = i * h, y = j * h, av = 1 + x * x + y;
            const double u = std::sin(pi * x) * std::sin(pi * y);
            exact(i - 1, j - 1) = u;
            f(i - 1, j - 1) = 2 * pi * pi * av * u -
                              2 * x * pi * std::cos(pi * x) * std::sin(pi * y) -
                              pi * std::sin(pi * x) * std::cos(pi * y);
        }
    return (solveDarcy(a, f) - exact).cwiseAbs().maxCoeff();
}

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

class TestDarcy : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;

  private slots:
    void initTestCase() {
        QVERIFY(cache_.isValid());
        qputenv("ADE_CACHE_DIR", cache_.path().toUtf8());
    }

    void solverConvergesAtSecondOrder() {
        const double e1 = maxErrorAt(15), e2 = maxErrorAt(31), e3 = maxErrorAt(63);
        const double r1 = std::log2(e1 / e2), r2 = std::log2(e2 / e3);
        QVERIFY2(r1 > 1.85 && r2 > 1.9, qPrintable(QString("orders %1 %2").arg(r1).arg(r2)));
        QVERIFY(e3 < 1e-3);
    }

    void solutionOfConstantCoefficientIsPositiveAndSymmetric() {
        const int s = 21;
        const Eigen::MatrixXd u =
            solveDarcy(Eigen::MatrixXd::Constant(s + 2, s + 2, 2.0), Eigen::MatrixXd::Ones(s, s));
        QVERIFY(u.minCoeff() > 0);
        QVERIFY((u - u.transpose()).cwiseAbs().maxCoeff() < 1e-12);
        QVERIFY((u - u.colwise().reverse()).cwiseAbs().maxCoeff() < 1e-12);
        // -Lap u = 1/2 on the unit square: max u = 0.07367 / 2 (series value).
        QVERIFY(std::abs(u.maxCoeff() - 0.0736713 / 2) < 2e-4);
    }

    void grfHasThePrescribedSpectrum() {
        // On midpoints the cosines are exactly orthogonal (DCT-II), so the projection onto mode
        // k recovers c_k xi_k: its variance over samples must be c_k^2.
        const int n = 16, samples = 3000;
        const double tau = 3.0, alpha = 2.0;
        Eigen::VectorXd xs(n);
        for (int i = 0; i < n; ++i)
            xs(i) = (i + 0.5) / n;
        Eigen::MatrixXd C(n, n);
        for (int k = 0; k < n; ++k)
            C.col(k) = (std::numbers::pi * k * xs).array().cos().matrix() / (k == 0 ? n : n / 2.0);
        const Eigen::MatrixXd scales = grfScales(n, tau, alpha);
        Eigen::MatrixXd sumSq = Eigen::MatrixXd::Zero(n, n);
        Rng rng(4);
        for (int s = 0; s < samples; ++s) {
            const Eigen::MatrixXd proj = C.transpose() * sampleGrf(xs, n, tau, alpha, rng) * C;
            sumSq += proj.cwiseAbs2();
        }
        const Eigen::MatrixXd var = sumSq / samples;
        QVERIFY(var(0, 0) < 1e-24);  // zero-mean mode
        const double tol = 4 * std::sqrt(2.0 / samples);
        for (auto [k1, k2] :
             std::vector<std::pair<int, int>>{{0, 1}, {1, 1}, {2, 3}, {5, 0}, {7, 7}}) {
            const double expected = scales(k1, k2) * scales(k1, k2);
            QVERIFY2(std::abs(var(k1, k2) / expected - 1) < tol,
                     qPrintable(QString("mode %1,%2: %3 vs %4")
                                    .arg(k1)
                                    .arg(k2)
                                    .arg(var(k1, k2))
                                    .arg(expected)));
        }
        // The formula itself: tau^(alpha-1) (pi^2 |k|^2 + tau^2)^(-alpha/2).
        QCOMPARE(scales(1, 2), 3.0 / (std::numbers::pi * std::numbers::pi * 5 + 9));
    }

    void dataIsAPrefixAndCoefficientsAreThresholded() {
        DarcySpec spec;
        spec.resolution = 16;
        const DarcySet small = generateDarcy(spec, 3, 7, 100);
        const DarcySet large = generateDarcy(spec, 5, 7, 100);
        QVERIFY(std::equal(small.u.begin(), small.u.end(), large.u.begin()));
        for (double v : large.a)
            QVERIFY(v == 3.0 || v == 12.0);
        for (double v : large.u)
            QVERIFY(v > 0);
    }

    void cacheIsReusedAndCorruptFilesAreRegenerated() {
        DarcySpec spec;
        spec.resolution = 16;
        bool generated = false;
        std::string file;
        const DarcySet first = loadOrGenerateDarcy(spec, 4, 11, 0, nullptr, &generated, &file);
        QVERIFY(generated);
        QVERIFY(std::filesystem::exists(file));
        const DarcySet again = loadOrGenerateDarcy(spec, 4, 11, 0, nullptr, &generated);
        QVERIFY(!generated);
        QVERIFY(again.a == first.a && again.u == first.u);
        for (const std::string& junk :
             {std::string("not a numpy file"), readFile(file).substr(0, 200), std::string()}) {
            std::ofstream(file, std::ios::binary | std::ios::trunc) << junk;
            const DarcySet fixed = loadOrGenerateDarcy(spec, 4, 11, 0, nullptr, &generated);
            QVERIFY(generated);
            QVERIFY(fixed.a == first.a && fixed.u == first.u);
        }
    }

    void vitGradientMatchesFiniteDifferences() {
        Config c = darcyConfig({"darcy.train=5", "darcy.test=2", "darcy.width=5"});
        std::string err;
        auto task = darcyTask(c, &err);
        QVERIFY(task);
        QCOMPARE(task->tokens, 16);
        const VitRegressor model(18, 16, 5);
        Rng rng(2);
        ParamSet p = model.initialParams(rng);
        for (int i : {1, 6})
            p[i] = rng.normalMatrix(p[i].rows(), p[i].cols(), 0.3);  // biases
        p[VitRegressor::WQ] *= 3.0;                                  // sharper attention
        const std::vector<int> units = {4, 1, 1};
        ParamSet g = p.zerosLike();
        model.loss(p, task->train, units, &g);
        auto f = [&](const ParamSet& q) { return model.loss(q, task->train, units, nullptr); };
        const double err1 = adetest::fdRelativeError(f, p, g);
        QVERIFY2(err1 < 1e-6, qPrintable(QString::number(err1)));
        ParamSet gq = p.zerosLike();
        model.loss(p, task->train, units, &gq, true);
        QVERIFY(gq[VitRegressor::WQ].isApprox(g[VitRegressor::WQ], 1e-12));
        QVERIFY(gq[VitRegressor::WK].isApprox(g[VitRegressor::WK], 1e-12));
        QCOMPARE(gq[VitRegressor::E].norm(), 0.0);
        QCOMPARE(gq[VitRegressor::WV].norm(), 0.0);
        // The stage-2 fast path (frozen parts precomputed) gives the same loss, gradients and
        // predictions.
        const auto frozen = model.freeze(p, task->train, nullptr);
        QVERIFY(VitRegressor::matches(frozen, p));
        ParamSet gf = p.zerosLike();
        Eigen::MatrixXd predSlow, predFast;
        const double slow = model.loss(p, task->train, units, nullptr, false, nullptr, &predSlow);
        const double fast = model.lossQK(p, task->train, frozen, units, &gf, nullptr, &predFast);
        QVERIFY(std::abs(fast - slow) < 1e-13 * slow);
        QVERIFY(predFast.isApprox(predSlow, 1e-12));
        QVERIFY(gf[VitRegressor::WQ].isApprox(g[VitRegressor::WQ], 1e-10));
        QVERIFY(gf[VitRegressor::WK].isApprox(g[VitRegressor::WK], 1e-10));
        ParamSet other = p;
        other[VitRegressor::WO](0, 0) += 1e-3;
        QVERIFY(!VitRegressor::matches(frozen, other));
    }

    // The stage-2 fast path's products are register-blocked when the width and p^2 are whole
    // vector packets and fall back to Eigen's otherwise, with tails when T is not: on every such
    // shape it gives the loss, predictions and W_Q, W_K gradients of the full model, and the
    // same bits on one thread and on a pool.
    void stage2FastPathOnEveryShape() {
        struct Shape {
            int resolution, patch, width;
        };
        for (const Shape sh : {Shape{20, 4, 16}, Shape{16, 2, 24}, Shape{16, 4, 32},
                               Shape{24, 4, 6}}) {
            Config c = darcyConfig({"darcy.train=6", "darcy.test=2",
                                    "darcy.resolution=" + std::to_string(sh.resolution),
                                    "darcy.patch=" + std::to_string(sh.patch),
                                    "darcy.width=" + std::to_string(sh.width)});
            std::string err;
            auto task = darcyTask(c, &err);
            QVERIFY2(task, err.c_str());
            const int pp = sh.patch * sh.patch;
            const VitRegressor model(pp + 2, pp, sh.width);
            Rng rng(3);
            ParamSet p = model.initialParams(rng);
            for (int i : {1, 6})
                p[i] = rng.normalMatrix(p[i].rows(), p[i].cols(), 0.3);
            p[VitRegressor::WQ] *= 3.0;
            const std::vector<int> units = {5, 0, 2, 2, 3};
            ParamSet g = p.zerosLike(), gf = p.zerosLike(), gp = p.zerosLike();
            Eigen::MatrixXd predSlow, predFast, predPool;
            const double slow = model.loss(p, task->train, units, &g, true, nullptr, &predSlow);
            const auto frozen = model.freeze(p, task->train, nullptr);
            const double fast = model.lossQK(p, task->train, frozen, units, &gf, nullptr, &predFast);
            const QString what = QString("s %1, p %2, width %3, T %4")
                                     .arg(sh.resolution).arg(sh.patch).arg(sh.width)
                                     .arg(task->tokens);
            QVERIFY2(std::abs(fast - slow) < 1e-13 * slow, qPrintable(what));
            QVERIFY2(predFast.isApprox(predSlow, 1e-12), qPrintable(what));
            QVERIFY2(gf[VitRegressor::WQ].isApprox(g[VitRegressor::WQ], 1e-10), qPrintable(what));
            QVERIFY2(gf[VitRegressor::WK].isApprox(g[VitRegressor::WK], 1e-10), qPrintable(what));
            WorkerPool pool(2);
            const double pooled =
                model.lossQK(p, task->train, frozen, units, &gp, &pool, &predPool);
            QCOMPARE(pooled, fast);
            QVERIFY(gp[VitRegressor::WQ] == gf[VitRegressor::WQ]);
            QVERIFY(gp[VitRegressor::WK] == gf[VitRegressor::WK]);
            QVERIFY(predPool == predFast);
        }
    }

    void stage2TrainsOnlyQueryAndKey() {
        Config c = darcyConfig({"optimizer=sde", "lr=0.05", "temperature=1e-3",
                                "regularizer=log_amplified", "lambda=1e-3", "iterations=15",
                                "log_every=5"});
        std::string err;
        auto task = darcyTask(c, &err);
        const auto stage1 = darcyStage1(c, task, &err);
        QVERIFY2(stage1, err.c_str());
        auto t = makeTrainer(c, &err);
        QVERIFY2(t, err.c_str());
        const RunResult r = t->run();
        QCOMPARE(r.status, RunStatus::Completed);
        QCOMPARE(r.initialParams.size(), std::size_t(7));
        for (std::size_t i = 0; i < 7; ++i) {
            QVERIFY(r.initialParams[i] == (*stage1)[i]);  // starts from the stage-1 weights
            const bool trained = i == VitRegressor::WQ || i == VitRegressor::WK;
            if (trained)
                QVERIFY(r.finalParams[i] != r.initialParams[i]);
            else
                QVERIFY2(r.finalParams[i] == r.initialParams[i], r.finalParams.names[i].c_str());
        }
        const int rel = r.history.column("rel_l2"), rmse = r.history.column("rmse");
        QVERIFY(rel >= 0 && rmse >= 0);
        QVERIFY(r.history.rows.back()[rel] > 0 && r.history.rows.back()[rel] < 1.0);
    }

    void stopDuringStage1StopsItAndCachesNothing() {
        auto stage1Files = [&] {
            int count = 0;
            for (const auto& e : std::filesystem::directory_iterator(cache_.path().toStdString()))
                count += e.path().filename().string().rfind("darcy-stage1-", 0) == 0;
            return count;
        };
        const Config c = darcyConfig({"stage1.epochs=40", "seed=77", "iterations=3"});
        const int before = stage1Files();
        RunControl control;
        control.requestStop();  // the user pressed Stop while the problem was being built
        std::string err;
        {
            AmbientRunControl ambient(&control);
            QVERIFY(!makeTrainer(c, &err));
        }
        QVERIFY2(QString::fromStdString(err).contains("stopped during stage 1"), err.c_str());
        QCOMPARE(stage1Files(), before);
        err.clear();
        auto t = makeTrainer(c, &err);  // no ambient control: stage 1 runs to the end
        QVERIFY2(t, err.c_str());
        QCOMPARE(stage1Files(), before + 1);
    }

    void stage1IsCachedOnDiskAndRunsAreDeterministic() {
        auto runWith = [](int threads) {
            Config c =
                darcyConfig({"optimizer=sgd", "batch=8", "lr=0.1", "iterations=12", "log_every=4",
                             "stage1.epochs=2", "seed=5", "threads=" + std::to_string(threads)});
            std::string err;
            auto t = makeTrainer(c, &err);
            if (!t) qFatal("%s", err.c_str());
            return t->run();
        };
        const RunResult a = runWith(1), b = runWith(2);
        QCOMPARE(a.history.rows.size(), b.history.rows.size());
        for (std::size_t i = 0; i < a.history.rows.size(); ++i)
            for (std::size_t j = 2; j < a.history.columns.size(); ++j)
                QCOMPARE(a.history.rows[i][j], b.history.rows[i][j]);
        bool found = false;
        for (const auto& e : std::filesystem::directory_iterator(cache_.path().toStdString()))
            if (e.path().filename().string().rfind("darcy-stage1-", 0) == 0) found = true;
        QVERIFY(found);
    }
};

QTEST_GUILESS_MAIN(TestDarcy)
#include "tst_darcy.moc"
