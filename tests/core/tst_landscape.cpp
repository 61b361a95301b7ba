// The loss landscape (training/Landscape.h): its centre is the training objective, its orbit
// slice is flat without a regulariser for B, C and Darcy and not for A at finite n, a balancing
// or L2 regulariser has its minimum along the orbit at the balanced point, power iteration finds
// a known top eigenvalue, the grid is deterministic and a cancel stops it.
#include <QtTest>

#include <atomic>
#include <cmath>

#include "../common/Configs.h"
#include "experiments/ExperimentRegistry.h"
#include "models/FactorOrbit.h"
#include "training/Landscape.h"
#include "training/Trainer.h"
#include "util/Rng.h"

using namespace ade;

namespace {

Config configFor(const std::string& experiment, std::vector<std::string> sets) {
    sets.insert(sets.begin(), "experiment=" + experiment);
    return adetest::configFromSets(sets);
}

// Small runs of every experiment with an orbit; `extra` is set last.
Config small(const std::string& e, std::vector<std::string> extra = {}) {
    std::vector<std::string> s;
    if (e == "a") s = {"data.n=8", "data.prompts=4", "data.test_prompts=2", "optimizer=gd", "lr=0.05"};
    if (e == "b") s = {"data.n=16", "data.test_n=4", "optimizer=sde", "lr=0.05", "temperature=1e-3"};
    if (e == "c") s = {"data.n=24", "data.test_n=4", "optimizer=sde", "lr=0.05", "temperature=1e-3"};
    if (e == "darcy")
        s = {"darcy.resolution=16", "darcy.patch=4", "darcy.train=12", "darcy.test=4",
             "darcy.width=8", "stage1.epochs=2", "stage1.batch=4", "lr=0.01"};
    s.insert(s.end(), {"iterations=20", "log_every=5", "threads=1"});
    s.insert(s.end(), extra.begin(), extra.end());
    return configFor(e, s);
}

std::unique_ptr<Trainer> trainerFor(const Config& c) {
    std::string err;
    auto t = makeTrainer(c, &err);
    if (!t) qFatal("%s", err.c_str());
    return t;
}

// Relative spread (max - min) / |mean| of a vector.
double spread(const Eigen::VectorXd& v) {
    return (v.maxCoeff() - v.minCoeff()) / std::abs(v.mean());
}

}  // namespace

class TestLandscape : public QObject {
    Q_OBJECT
  private slots:
    // The centre value is Trainer::objective at the iterate, and the train_loss and reg_value
    // columns of the run's last record (computed by another problem instance of the same config).
    void centreIsTheTrainingObjective_data() {
        QTest::addColumn<QString>("experiment");
        QTest::addColumn<QString>("regularizer");
        QTest::newRow("b l2") << QString("b") << QString("l2");
        QTest::newRow("c balancing") << QString("c") << QString("balancing");
        QTest::newRow("a balancing") << QString("a") << QString("balancing");
        QTest::newRow("darcy log") << QString("darcy") << QString("log_amplified");
    }
    void centreIsTheTrainingObjective() {
        QFETCH(QString, experiment);
        QFETCH(QString, regularizer);
        const Config c = small(experiment.toStdString(),
                               {"regularizer=" + regularizer.toStdString(), "lambda=0.01"});
        const RunResult run = trainerFor(c)->run();
        QVERIFY(run.status == RunStatus::Completed);
        const auto& last = run.history.rows.back();
        const double train = last[run.history.column("train_loss")];
        const double reg = last[run.history.column("reg_value")];
        QVERIFY(reg > 0.0);
        auto trainer = trainerFor(c);
        LandscapeSpec spec;
        spec.grid = 5;
        const LandscapeResult r = computeLandscape(*trainer, run.finalParams, spec);
        QVERIFY(r.hasOrbit);
        QCOMPARE(r.pointsDone, 25);
        QCOMPARE(r.centreObjective(), trainer->objective(run.finalParams, nullptr, {}));
        QVERIFY(std::abs(r.centreObjective() - (train + reg)) <= 1e-12 * (train + reg));
        QVERIFY(std::abs(r.centreDataLoss() - train) <= 1e-12 * train);
    }

    // No regulariser: along the orbit the objective is the data loss, constant up to rounding for
    // the experiments whose model sees the product only.
    void orbitSliceIsFlatWithoutRegulariser_data() {
        QTest::addColumn<QString>("experiment");
        QTest::addColumn<QString>("orbit");  // in the experiment's own names
        QTest::newRow("b") << QString("b") << QString("(e^t W_Q, e^−t W_K)");
        QTest::newRow("c") << QString("c") << QString("(e^t U, e^−t V)");
        QTest::newRow("darcy") << QString("darcy") << QString("(e^t W_Q, e^−t W_K)");
    }
    void orbitSliceIsFlatWithoutRegulariser() {
        QFETCH(QString, experiment);
        QFETCH(QString, orbit);
        const Config c = small(experiment.toStdString(), {"regularizer=none"});
        const RunResult run = trainerFor(c)->run();
        auto trainer = trainerFor(c);
        QVERIFY(trainer->problem().orbitIsExactSymmetry());
        LandscapeSpec spec;
        spec.grid = 9;
        spec.tRange = 1.5;
        const LandscapeResult r = computeLandscape(*trainer, run.finalParams, spec);
        QCOMPARE(QString::fromStdString(r.orbitLabel), orbit);
        const Eigen::VectorXd slice = r.objective.row(spec.grid / 2).transpose();
        const double rel = spread(slice);
        qInfo("%s: relative spread of Q along the orbit (t in [-1.5, 1.5]): %.3g",
              qPrintable(experiment), rel);
        QVERIFY2(rel < 1e-12, qPrintable(QString::number(rel)));
        // ... while the normal direction does change it.
        const Eigen::VectorXd normal = r.objective.col(spec.grid / 2);
        QVERIFY(spread(normal) > 1e-6);
    }

    // Experiment A at finite n: the softmax sees B, so L_n changes along (e^t A, e^{-t} B).
    void orbitSliceOfANotFlat() {
        const Config c = small("a", {"regularizer=none"});
        const RunResult run = trainerFor(c)->run();
        auto trainer = trainerFor(c);
        QVERIFY(!trainer->problem().orbitIsExactSymmetry());
        LandscapeSpec spec;
        spec.grid = 9;
        const LandscapeResult r = computeLandscape(*trainer, run.finalParams, spec);
        QVERIFY(r.hasOrbit && !r.orbitExact);
        QCOMPARE(QString::fromStdString(r.orbitLabel), QString("(e^t L, e^−t R)"));
        const double rel = spread(r.dataLoss.row(spec.grid / 2).transpose());
        qInfo("a: relative spread of L_n along the orbit (t in [-1, 1]): %.3g", rel);
        QVERIFY(rel > 1e-3);
    }

    // With a balancing or L2 regulariser the orbit slice has its minimum at the balanced point:
    // balancing at ‖L‖ = ‖R‖ for a rank-one pair (D = 0 there), L2 at ‖L‖ = ‖R‖ always
    // (λ(e^{2t}‖L‖² + e^{-2t}‖R‖²) is smallest at e^{4t} = ‖R‖²/‖L‖²).
    void regularisedOrbitMinimumAtBalancedPoint_data() {
        QTest::addColumn<QString>("regularizer");
        QTest::newRow("l2") << QString("l2");
        QTest::newRow("balancing") << QString("balancing");
    }
    void regularisedOrbitMinimumAtBalancedPoint() {
        QFETCH(QString, regularizer);
        const Config c = small("b", {"regularizer=" + regularizer.toStdString(), "lambda=0.05",
                                     "b.dk=1", "init=random", "init_scale=0.5"});
        auto trainer = trainerFor(c);
        ParamSet p = trainerFor(c)->run().finalParams;
        // Unbalance it: ‖W_Q‖ / ‖W_K‖ = e^{2 · 0.3} times the balanced ratio.
        const double nq = p[0].norm(), nk = p[1].norm();
        const double tBalanced = 0.5 * std::log(nk / nq);  // e^t ‖W_Q‖ = e^{-t} ‖W_K‖
        p = *trainer->problem().orbitMove(p, tBalanced + 0.3);
        LandscapeSpec spec;
        spec.grid = 61;
        spec.tRange = 0.9;
        const LandscapeResult r = computeLandscape(*trainer, p, spec);
        const Eigen::VectorXd slice = r.objective.row(spec.grid / 2).transpose();
        Eigen::Index best = 0;
        slice.minCoeff(&best);
        const double spacing = 2 * spec.tRange / (spec.grid - 1);
        qInfo("%s: minimum along the orbit at t = %.3f, balanced point at t = -0.300",
              qPrintable(regularizer), r.t[best]);
        QVERIFY(std::abs(r.t[best] - (-0.3)) <= spacing);
        QVERIFY(spread(slice) > 1e-4);
    }

    // Power iteration on a known quadratic: Q = ½ θᵀ diag(5, 2, 1, 0.5) θ + regulariser none.
    void powerIterationFindsTopEigenvalue() {
        class Quadratic final : public Problem {
          public:
            ParamSet initialParams(Rng&) override {
                ParamSet p;
                p.names = {"theta"};
                p.mats = {Eigen::MatrixXd::Constant(4, 1, 0.3)};
                return p;
            }
            int trainingUnits() const override { return 1; }
            double loss(const ParamSet& p, ParamSet* g, std::span<const int>) override {
                Eigen::VectorXd h(4);
                h << 5.0, 2.0, 1.0, 0.5;
                const Eigen::VectorXd x = p[0].col(0);
                if (g) (*g)[0].col(0) = h.cwiseProduct(x);
                return 0.5 * x.dot(h.cwiseProduct(x));
            }
            std::vector<std::string> metricNames() const override { return {"train_loss"}; }
            void evaluate(const ParamSet&, double l, std::map<std::string, double>& out) override {
                out["train_loss"] = l;
            }
        };
        Trainer trainer(configFor("a", {"regularizer=none"}), std::make_unique<Quadratic>());
        Rng rng(1);
        const ParamSet p = trainer.problem().initialParams(rng);
        const auto eig = topHessianEigen(trainer, p, 200, 1e-10, 3);
        qInfo("power iteration: lambda = %.10f after %d iterations", eig.eigenvalue, eig.iterations);
        QVERIFY(eig.converged);
        QVERIFY(std::abs(eig.eigenvalue - 5.0) < 1e-6);
        QVERIFY(std::abs(std::abs(eig.vector[0](0, 0)) - 1.0) < 1e-4);
        // Without an orbit the landscape's first axis is a second direction; still computable.
        LandscapeSpec spec;
        spec.grid = 3;
        spec.normal = LandscapeNormal::HessianTop;
        spec.powerIterations = 100;
        const LandscapeResult r = computeLandscape(trainer, p, spec);
        QVERIFY(!r.hasOrbit);
        QVERIFY(r.objective.allFinite());
        QCOMPARE(r.centreObjective(), trainer.objective(p, nullptr, {}));
        // d ⟂ the first axis: the top eigenvalue of H restricted to that complement is at most 5.
        QVERIFY(r.eigenvalue > 0.5 && r.eigenvalue <= 5.0 + 1e-6);
    }

    // The Hessian direction on a real problem: orthogonal to the orbit, a positive eigenvalue
    // near a minimum, and the same numbers again from the same seed.
    void hessianDirectionOnB() {
        const Config c = small("b", {"regularizer=l2", "lambda=0.01", "iterations=60"});
        const ParamSet p = trainerFor(c)->run().finalParams;
        auto trainer = trainerFor(c);
        LandscapeSpec spec;
        spec.grid = 3;
        spec.normal = LandscapeNormal::HessianTop;
        spec.powerIterations = 40;
        const LandscapeResult r = computeLandscape(*trainer, p, spec);
        qInfo("b: top Hessian eigenvalue %.6g after %d power iterations", r.eigenvalue,
              r.powerIterationsUsed);
        QVERIFY(std::isfinite(r.eigenvalue));
        QVERIFY(std::abs(r.direction.dot(r.tangent)) <=
                1e-9 * std::sqrt(r.direction.squaredNorm() * r.tangent.squaredNorm()));
        const LandscapeResult again = computeLandscape(*trainerFor(c), p, spec);
        QCOMPARE(again.eigenvalue, r.eigenvalue);
    }

    // The random direction: filter-normalised then orthogonal to the orbit's tangent; the grid is
    // the same bit for bit from the same seed, and different from another seed.
    void gridIsDeterministic() {
        const Config c = small("c", {"regularizer=l2", "lambda=0.01"});
        const ParamSet p = trainerFor(c)->run().finalParams;
        LandscapeSpec spec;
        spec.grid = 7;
        spec.seed = 11;
        const LandscapeResult a = computeLandscape(*trainerFor(c), p, spec);
        const LandscapeResult b = computeLandscape(*trainerFor(c), p, spec);
        QVERIFY(a.objective == b.objective);
        QVERIFY(a.dataLoss == b.dataLoss);
        QVERIFY(std::abs(a.direction.dot(a.tangent)) <=
                1e-12 * std::sqrt(a.direction.squaredNorm() * a.tangent.squaredNorm()));
        spec.seed = 12;
        const LandscapeResult other = computeLandscape(*trainerFor(c), p, spec);
        QVERIFY(!(other.objective == a.objective));
        // The projection of θ itself is the origin; of θ moved along the orbit, (t, 0); of θ
        // moved along d, near (0, 0.4) (|t| ≲ 0.16 |‖L‖² − ‖R‖²| / (‖L‖² + ‖R‖²) to first order).
        auto trainer = trainerFor(c);
        const Eigen::Vector2d o = projectOntoLandscape(*trainer, a, p);
        QVERIFY(o.norm() < 1e-8);
        const Eigen::Vector2d m = projectOntoLandscape(*trainer, a, *trainer->problem().orbitMove(p, 0.7));
        QVERIFY(std::abs(m.x() - 0.7) < 1e-6);
        QVERIFY(std::abs(m.y()) < 1e-6);
        ParamSet q = p;
        q.axpy(0.4, a.direction);
        const Eigen::Vector2d n = projectOntoLandscape(*trainer, a, q);
        qInfo("θ + 0.4 d projects onto (t, s) = (%.4f, %.4f)", n.x(), n.y());
        QVERIFY(std::abs(n.y() - 0.4) < 0.1 && std::abs(n.x()) < 0.2);
    }

    // A cancel stops the grid at the next point.
    void cancelStops() {
        const Config c = small("b", {"regularizer=none"});
        const ParamSet p = trainerFor(c)->run().finalParams;
        auto trainer = trainerFor(c);
        std::atomic<bool> cancel{false};
        int calls = 0;
        LandscapeSpec spec;
        spec.grid = 64;
        const LandscapeResult r = computeLandscape(*trainer, p, spec, &cancel, [&](int done, int total) {
            ++calls;
            QCOMPARE(total, 64 * 64);
            if (done == 10) cancel = true;
        });
        QVERIFY(r.cancelled);
        QCOMPARE(r.pointsDone, 10);
        QCOMPARE(calls, 10);
        QVERIFY(std::isnan(r.objective(63, 63)));
    }
};

QTEST_GUILESS_MAIN(TestLandscape)
#include "tst_landscape.moc"
