// Experiments B and C (Paper B): gradients against central differences, regularisers,
// the Euler-Maruyama stationary law, determinism and thread-count independence.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "Configs.h"
#include "FiniteDiff.h"
#include "Sanitizers.h"
#include "config/Config.h"
#include "experiments/b/ExperimentB.h"
#include "experiments/c/ExperimentC.h"
#include "experiments/ExperimentRegistry.h"
#include "models/FactorOrbit.h"
#include "models/Regularizer.h"
#include "models/VillaniEstimate.h"
#include "training/Trainer.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

using namespace ade;

namespace {

Config configFor(const std::string& experiment, std::vector<std::string> sets = {}) {
    sets.insert(sets.begin(), "experiment=" + experiment);
    return adetest::configFromSets(sets);
}

// A test-only problem: M independent copies of the 1-D quadratic V(theta) = k/2 (theta - m)^2,
// so one Euler-Maruyama run gives M independent chains.
class QuadraticWells final : public Problem {
  public:
    QuadraticWells(int chains, double k, double m, double start)
        : chains_(chains), k_(k), m_(m), start_(start) {}
    ParamSet initialParams(Rng&) override {
        ParamSet p;
        p.names = {"theta"};
        p.mats = {Eigen::MatrixXd::Constant(1, chains_, start_)};
        return p;
    }
    int trainingUnits() const override { return 1; }
    double loss(const ParamSet& p, ParamSet* grad, std::span<const int>) override {
        const Eigen::ArrayXXd dev = p[0].array() - m_;
        if (grad) (*grad)[0] += (k_ * dev).matrix();
        return 0.5 * k_ * dev.square().sum();
    }
    std::vector<std::string> metricNames() const override { return {"train_loss"}; }
    void evaluate(const ParamSet&, double t, std::map<std::string, double>& out) override {
        out["train_loss"] = t;
    }

  private:
    int chains_;
    double k_, m_, start_;
};

}  // namespace

class TestPaperB : public QObject {
    Q_OBJECT
  private slots:
    void attentionGradientMatchesFiniteDifferences_data() {
        QTest::addColumn<QString>("sets");
        QTest::newRow("d=dk=4") << "";
        QTest::newRow("dk<d, dv=3") << "data.d=5,b.dk=2,b.dv=3,b.tokens=6";
        QTest::newRow("sharp") << "b.tau=20,init_scale=1.5";
    }
    void attentionGradientMatchesFiniteDifferences() {
        QFETCH(QString, sets);
        std::vector<std::string> list = {"data.n=12", "data.test_n=4"};
        for (const auto& s : sets.split(',', Qt::SkipEmptyParts))
            list.push_back(s.toStdString());
        Config c = configFor("b", list);
        ExperimentB prob(c);
        Rng rng(7, Rng::Init);
        ParamSet p = prob.initialParams(rng);
        ParamSet g = p.zerosLike();
        const std::vector<int> units = {3, 0, 7, 7};
        prob.loss(p, &g, units);
        const double err = adetest::fdRelativeError(
            [&](const ParamSet& q) { return prob.loss(q, nullptr, units); }, p, g);
        QVERIFY2(err < 1e-6, qPrintable(QString::number(err)));
    }

    // The fast loss against the formula written out per sample (predict: dense softmax and
    // Eigen products), its gradient against central differences, on sizes that take every path
    // of the kernel: N = 8 and other token counts, the merged (d_k >= d) and factored (d_k < d)
    // scores, several work items, a listed subset with repeats across items; thread counts
    // (with and without the pool, which small problems skip) and the loss with or without its
    // gradient agree bit for bit.
    void attentionKernelMatchesDirectFormula_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("dk");
        QTest::addColumn<int>("dv");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("samples");
        QTest::addColumn<double>("scale");
        QTest::newRow("N=8 merged") << 4 << 4 << 4 << 8 << 70 << 0.5;
        QTest::newRow("N=8 d_k=32") << 4 << 32 << 4 << 8 << 40 << 0.3;
        QTest::newRow("N=5 merged") << 3 << 4 << 2 << 5 << 33 << 0.7;
        QTest::newRow("N=11 factored") << 6 << 2 << 3 << 11 << 35 << 0.8;
        QTest::newRow("N=8 factored") << 9 << 1 << 4 << 8 << 9 << 0.8;
        QTest::newRow("N=1") << 4 << 4 << 4 << 1 << 40 << 0.5;
        QTest::newRow("sharp") << 4 << 4 << 4 << 8 << 12 << 4.0;
        // Enough work for the worker pool (samples N (N + d) (w + d_v) >= 2^20).
        QTest::newRow("pooled") << 4 << 4 << 4 << 8 << 1400 << 0.5;
    }
    void attentionKernelMatchesDirectFormula() {
        QFETCH(int, d);
        QFETCH(int, dk);
        QFETCH(int, dv);
        QFETCH(int, tokens);
        QFETCH(int, samples);
        QFETCH(double, scale);
        Rng rng(21);
        const SingleHeadAttention model(rng.normalMatrix(d, dv, 0.5), dk);
        TokenSamples data;
        data.samples = samples;
        data.tokens = tokens;
        data.X = rng.normalMatrix(static_cast<Eigen::Index>(samples) * tokens, d);
        data.Y = rng.normalMatrix(data.X.rows(), dv);
        Eigen::MatrixXd WQ = rng.normalMatrix(d, dk, scale), WK = rng.normalMatrix(d, dk, scale);
        auto direct = [&](const std::vector<int>& units) {
            double l = 0;
            const int count = units.empty() ? samples : static_cast<int>(units.size());
            for (int i = 0; i < count; ++i) {
                const int s = units.empty() ? i : units[i];
                const auto rows = Eigen::seqN(static_cast<Eigen::Index>(s) * tokens, tokens);
                l += (model.predict(WQ, WK, data.X(rows, Eigen::all)) - data.Y(rows, Eigen::all))
                         .squaredNorm();
            }
            return 0.5 * l / count;
        };
        WorkerPool pool(2);
        std::vector<int> subset;
        for (int i = 0; i < samples; i += 2)
            subset.push_back((7 * i + 3) % samples);
        subset.push_back(subset.front());
        for (const auto& units : {std::vector<int>{}, subset}) {
            Eigen::MatrixXd gQ = Eigen::MatrixXd::Zero(d, dk), gK = gQ, gQ2 = gQ, gK2 = gQ;
            const double l1 = model.loss(WQ, WK, data, units, &gQ, &gK, nullptr);
            const double l2 = model.loss(WQ, WK, data, units, &gQ2, &gK2, &pool);
            const double l0 = model.loss(WQ, WK, data, units, nullptr, nullptr, &pool);
            QVERIFY(l1 == l2 && l1 == l0);
            QVERIFY(gQ == gQ2 && gK == gK2);
            const double ref = direct(units);
            QVERIFY2(std::abs(l1 - ref) <= 1e-13 * ref,
                     qPrintable(QString("%1 vs %2").arg(l1, 0, 'g', 17).arg(ref, 0, 'g', 17)));
            auto f = [&] { return model.loss(WQ, WK, data, units, nullptr, nullptr, nullptr); };
            const Eigen::MatrixXd nQ = adetest::numericGradient(WQ, f, 1e-5);
            const Eigen::MatrixXd nK = adetest::numericGradient(WK, f, 1e-5);
            // Relative to the largest entry (absolute below 1e-6: with N = 1 the gradient is 0).
            const double den =
                std::max({gQ.cwiseAbs().maxCoeff(), gK.cwiseAbs().maxCoeff(), 1e-6});
            const double err = std::max((nQ - gQ).cwiseAbs().maxCoeff(),
                                        (nK - gK).cwiseAbs().maxCoeff()) / den;
            QVERIFY2(err < 1e-7, qPrintable(QString::number(err)));
        }
    }

    void teacherIsAZeroOfTheNoiselessLoss() {
        Config c = configFor("b", {"data.n=16", "data.noise=0"});
        ExperimentB prob(c);
        ParamSet p;
        p.names = {"W_Q", "W_K"};
        p.mats = {prob.teacherWQ(), prob.teacherWK()};
        QVERIFY(prob.loss(p, nullptr, {}) < 1e-24);
        // Invariance along the orbit (W_Q G, W_K G^-T).
        Eigen::MatrixXd G(4, 4);
        G << 2, 0.3, 0, 0, 0, 1, 0.1, 0, 0, 0, 0.5, 0, 0.2, 0, 0, 1.5;
        p.mats = {prob.teacherWQ() * G, prob.teacherWK() * G.inverse().transpose()};
        QVERIFY(prob.loss(p, nullptr, {}) < 1e-20);
        std::map<std::string, double> m;
        prob.evaluate(p, 0.0, m);
        QVERIFY(m["manifold_distance"] > 0.1);  // off the balanced orbit
        p.mats = {prob.teacherWQ(), prob.teacherWK()};
        prob.evaluate(p, 0.0, m);
        QVERIFY(m["manifold_distance_rel"] < 1e-10);  // orthonormal teacher factors are balanced
        QVERIFY(m["imbalance"] < 1e-10);
    }

    // excess_test_loss is the test loss above the teacher's own on the same held-out set: zero at
    // the teacher (and anywhere on its orbit, where the product is the same), the gap elsewhere.
    void excessTestLossIsMeasuredAboveTheTeacher() {
        {
            Config c = configFor("b", {"data.n=16", "data.test_n=32", "data.noise=0.3"});
            ExperimentB prob(c);
            ParamSet p;
            p.names = {"W_Q", "W_K"};
            p.mats = {prob.teacherWQ(), prob.teacherWK()};
            std::map<std::string, double> m;
            prob.evaluate(p, 0.0, m);
            QVERIFY(m.count("excess_test_loss"));
            QVERIFY(m["test_loss"] > 0.01);  // the noise: the teacher's own loss
            QCOMPARE(m["excess_test_loss"], 0.0);
            const double teacherLoss = m["test_loss"];
            Eigen::MatrixXd G = Eigen::MatrixXd::Identity(4, 4) * 1.7;
            p.mats = {prob.teacherWQ() * G, prob.teacherWK() * G.inverse().transpose()};
            prob.evaluate(p, 0.0, m);
            QVERIFY(std::fabs(m["excess_test_loss"]) < 1e-12 * teacherLoss);
            p.mats = {prob.teacherWQ() * 0.5, prob.teacherWK()};
            prob.evaluate(p, 0.0, m);
            QVERIFY(m["excess_test_loss"] > 0);
            QCOMPARE(m["excess_test_loss"], m["test_loss"] - teacherLoss);
        }
        {
            Config c = configFor("c", {"data.n=16", "data.test_n=32", "data.noise=0.3"});
            ExperimentC prob(c);
            ParamSet p;
            p.names = {"U", "V"};
            p.mats = {prob.teacherU(), prob.teacherV()};
            std::map<std::string, double> m;
            prob.evaluate(p, 0.0, m);
            QVERIFY(m["test_loss"] > 0.01);
            QCOMPARE(m["excess_test_loss"], 0.0);
            const double teacherLoss = m["test_loss"];
            p.mats = {prob.teacherU() * 0.5, prob.teacherV()};
            prob.evaluate(p, 0.0, m);
            QVERIFY(m["excess_test_loss"] > 0);
            QCOMPARE(m["excess_test_loss"], m["test_loss"] - teacherLoss);
        }
    }

    void loraGradientMatchesFiniteDifferences_data() {
        QTest::addColumn<QString>("activation");
        QTest::addColumn<QString>("alpha");
        QTest::newRow("tanh") << "tanh"
                              << "1";
        QTest::newRow("softplus") << "softplus"
                                  << "0.5";
        QTest::newRow("tanh alpha 4") << "tanh"
                                      << "4";
    }
    void loraGradientMatchesFiniteDifferences() {
        QFETCH(QString, activation);
        QFETCH(QString, alpha);
        Config c =
            configFor("c", {"data.n=40", "data.test_n=4", "data.d=5", "lora.hidden=7", "lora.out=3",
                            "rank=2", "init_scale=0.7", "activation=" + activation.toStdString(),
                            "alpha=" + alpha.toStdString()});
        ExperimentC prob(c);
        Rng rng(3, Rng::Init);
        ParamSet p = prob.initialParams(rng);
        ParamSet g = p.zerosLike();
        prob.loss(p, &g, {});
        const double err = adetest::fdRelativeError(
            [&](const ParamSet& q) { return prob.loss(q, nullptr, {}); }, p, g);
        QVERIFY2(err < 1e-6, qPrintable(QString::number(err)));
        // Minibatch subset too.
        const std::vector<int> units = {5, 1, 39};
        g.setZero();
        prob.loss(p, &g, units);
        QVERIFY(adetest::fdRelativeError(
                    [&](const ParamSet& q) { return prob.loss(q, nullptr, units); }, p, g) < 1e-6);
    }

    // As for the attention kernel: the fast LoRA loss against the per-sample formula
    // (predict: Eigen's tanh and softplus), central differences, several work items (256
    // samples each), a listed subset, saturated tanh (large pre-activations), thread counts
    // (with and without the pool, which small problems skip) and the loss with or without its
    // gradient bit for bit.
    void loraKernelMatchesDirectFormula_data() {
        QTest::addColumn<QString>("activation");
        QTest::addColumn<int>("samples");
        QTest::addColumn<double>("scale");
        QTest::newRow("tanh") << "tanh" << 600 << 0.4;
        QTest::newRow("tanh saturated") << "tanh" << 300 << 12.0;
        QTest::newRow("tanh small") << "tanh" << 37 << 1e-3;
        QTest::newRow("softplus") << "softplus" << 520 << 0.8;
        // Enough work for the worker pool (samples x h x (d + o) >= 2^20).
        QTest::newRow("tanh pooled") << "tanh" << 8100 << 0.4;
    }
    void loraKernelMatchesDirectFormula() {
        QFETCH(QString, activation);
        QFETCH(int, samples);
        QFETCH(double, scale);
        const int d = 7, h = 13, o = 3, r = 2;
        Rng rng(17);
        const LoraNetwork net(rng.normalMatrix(h, d, scale), rng.normalMatrix(o, h, 0.5), 1.5,
                              activation == "tanh" ? Activation::Tanh : Activation::Softplus);
        const Eigen::MatrixXd X = rng.normalMatrix(samples, d), Y = rng.normalMatrix(samples, o);
        Eigen::MatrixXd U = rng.normalMatrix(h, r, 0.5), V = rng.normalMatrix(r, d, 0.5);
        WorkerPool pool(2);
        std::vector<int> subset;
        for (int i = 0; i < samples; i += 2)
            subset.push_back((5 * i + 1) % samples);
        subset.push_back(subset.front());
        for (const auto& units : {std::vector<int>{}, subset}) {
            Eigen::MatrixXd Xs(units.empty() ? samples : units.size(), d), Ys(Xs.rows(), o);
            for (Eigen::Index i = 0; i < Xs.rows(); ++i) {
                Xs.row(i) = X.row(units.empty() ? i : units[i]);
                Ys.row(i) = Y.row(units.empty() ? i : units[i]);
            }
            const double ref = 0.5 * (net.predict(U, V, Xs) - Ys).squaredNorm() / Xs.rows();
            Eigen::MatrixXd gU = Eigen::MatrixXd::Zero(h, r), gV = Eigen::MatrixXd::Zero(r, d);
            Eigen::MatrixXd gU2 = gU, gV2 = gV;
            const double l1 = net.loss(U, V, X, Y, units, &gU, &gV, nullptr);
            const double l2 = net.loss(U, V, X, Y, units, &gU2, &gV2, &pool);
            const double l0 = net.loss(U, V, X, Y, units, nullptr, nullptr, &pool);
            QVERIFY(l1 == l2 && l1 == l0);
            QVERIFY(gU == gU2 && gV == gV2);
            QVERIFY2(std::abs(l1 - ref) <= 1e-13 * ref,
                     qPrintable(QString("%1 vs %2").arg(l1, 0, 'g', 17).arg(ref, 0, 'g', 17)));
            auto f = [&] { return net.loss(U, V, X, Y, units, nullptr, nullptr, nullptr); };
            const Eigen::MatrixXd nU = adetest::numericGradient(U, f, 1e-5);
            const Eigen::MatrixXd nV = adetest::numericGradient(V, f, 1e-5);
            const double den = std::max({gU.cwiseAbs().maxCoeff(), gV.cwiseAbs().maxCoeff()});
            const double err = std::max((nU - gU).cwiseAbs().maxCoeff(),
                                        (nV - gV).cwiseAbs().maxCoeff()) / den;
            QVERIFY2(err < 1e-7, qPrintable(QString::number(err)));
        }
        // Non-finite pre-activations propagate (the trainer stops on them).
        Eigen::MatrixXd Xn = X;
        Xn(0, 0) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(std::isnan(net.loss(U, V, Xn, Y, {}, nullptr, nullptr, nullptr)));
    }

    void loraTeacherAndRescalingOrbit() {
        Config c = configFor("c", {"data.n=32", "data.noise=0"});
        ExperimentC prob(c);
        ParamSet p;
        p.names = {"U", "V"};
        p.mats = {prob.teacherU() * 3.0, prob.teacherV() / 3.0};
        QVERIFY(prob.loss(p, nullptr, {}) < 1e-24);
        std::map<std::string, double> m;
        prob.evaluate(p, 0.0, m);
        QVERIFY(m["manifold_distance"] > 0.5);
        QCOMPARE(m["norm_U"], 3.0 * prob.teacherU().norm());
    }

    void regularizerGradientsMatchFiniteDifferences() {
        Rng rng(11);
        ParamSet p;
        p.names = {"W"};
        p.mats = {rng.normalMatrix(3, 4, 0.8)};
        for (const char* name : {"l2", "log_amplified", "power"}) {
            for (double eps : {0.5, 1.3}) {
                auto reg = makeRegularizer(name, 0.37, eps);
                QVERIFY(reg);
                ParamSet g = p.zerosLike();
                reg->addGradient(p[0], g[0]);
                const double err = adetest::fdRelativeError(
                    [&](const ParamSet& q) { return reg->value(q[0]); }, p, g);
                QVERIFY2(err < 1e-7, name);
            }
        }
        // Closed forms at a known norm: ||W||^2 = 4.
        const Eigen::MatrixXd W = Eigen::MatrixXd::Constant(2, 2, 1.0);
        QCOMPARE(makeRegularizer("log_amplified", 0.5, 0)->value(W), 0.5 * 4 * std::log(5.0));
        QCOMPARE(makeRegularizer("power", 0.5, 0.5)->value(W), 0.5 * std::pow(2.0, 2.5));
        QVERIFY(!makeRegularizer("none", 1, 1));
    }

    void balancingGradientsMatchFiniteDifferences() {
        for (const char* e : {"b", "c"}) {
            Config c = configFor(e, {"data.n=8", "data.test_n=2", "regularizer=balancing",
                                     "lambda=0.3", "init_scale=0.9"});
            std::unique_ptr<Problem> prob;
            if (std::string(e) == "b")
                prob = std::make_unique<ExperimentB>(c);
            else
                prob = std::make_unique<ExperimentC>(c);
            Rng rng(5, Rng::Init);
            ParamSet p = prob->initialParams(rng);
            ParamSet g = p.zerosLike();
            const double v = prob->structuralRegularizer(p, &g);
            QVERIFY(v > 0);
            const double err = adetest::fdRelativeError(
                [&](const ParamSet& q) { return prob->structuralRegularizer(q, nullptr); }, p, g);
            QVERIFY2(err < 1e-7, e);
        }
    }

    void eulerMaruyamaReachesTheGibbsLaw() {
        ADE_SKIP_UNDER_TSAN("20000 chains of 3000 steps on one thread, 58 s");
        // V = k/2 (theta - m)^2: the law exp(-2V/s) is N(m, s/(2k)). Euler-Maruyama with step h
        // has the stationary variance s/(2k - h k^2), an O(h) bias we allow for.
        const int chains = 20000;
        const double k = 2.0, m = 0.7, s = 0.05, h = 0.002;
        Config c = configFor("b", {"optimizer=sde", "lr=0.002", "temperature=0.05",
                                   "iterations=3000", "log_every=3000", "seed=9"});
        Trainer t(c, std::make_unique<QuadraticWells>(chains, k, m, 3.0));
        const RunResult r = t.run();
        QCOMPARE(r.status, RunStatus::Completed);
        const Eigen::ArrayXd x = r.finalParams[0].row(0).transpose().array();
        const double mean = x.mean();
        const double var = (x - mean).square().sum() / (chains - 1);
        const double varGibbs = s / (2 * k);
        const double seMean = std::sqrt(varGibbs / chains);
        const double seVar = varGibbs * std::sqrt(2.0 / (chains - 1));
        const double bias = varGibbs * (1.0 / (1.0 - h * k / 2) - 1.0);  // 0.2%
        QVERIFY2(std::abs(mean - m) < 4 * seMean,
                 qPrintable(QString("mean %1 vs %2").arg(mean).arg(m)));
        QVERIFY2(std::abs(var - varGibbs) < 4 * seVar + bias,
                 qPrintable(QString("var %1 vs %2").arg(var).arg(varGibbs)));
    }

    void runsAreDeterministicAndThreadIndependent_data() {
        QTest::addColumn<QString>("experiment");
        QTest::newRow("b") << "b";
        QTest::newRow("c") << "c";
    }
    void runsAreDeterministicAndThreadIndependent() {
        QFETCH(QString, experiment);
        auto runWith = [&](int threads) {
            Config c = configFor(experiment.toStdString(),
                                 {"data.n=300", "optimizer=sde", "lr=0.05", "temperature=1e-3",
                                  "iterations=60", "log_every=20", "regularizer=power",
                                  "lambda=0.01", "threads=" + std::to_string(threads)});
            std::string err;
            auto t = makeTrainer(c, &err);
            if (!t) qFatal("%s", err.c_str());
            return t->run();
        };
        const RunResult a = runWith(1), b = runWith(1), c = runWith(2);
        QCOMPARE(a.status, RunStatus::Completed);
        QCOMPARE(a.history.rows.size(), std::size_t(4));
        for (std::size_t i = 0; i < a.history.rows.size(); ++i)
            for (std::size_t j = 2; j < a.history.columns.size(); ++j) {  // skip time
                QCOMPARE(a.history.rows[i][j], b.history.rows[i][j]);
                QCOMPARE(a.history.rows[i][j], c.history.rows[i][j]);
            }
        QVERIFY(a.finalParams[0] == c.finalParams[0]);
        QVERIFY(a.finalParams[1] == c.finalParams[1]);
    }

    void villaniQuantityIsExactOnADiagonalQuadratic() {
        // V = 1/2 sum a_i theta_i^2 + 1/4 ||phi||^4 on a second, untrained matrix: Rademacher
        // probes give tr(Hess) exactly for a diagonal Hessian; phi must not count.
        ParamSet p;
        p.names = {"theta", "phi"};
        p.mats = {Eigen::MatrixXd(2, 2), Eigen::MatrixXd::Constant(1, 3, 0.7)};
        p.mats[0] << 0.3, -1.2, 0.5, 2.0;
        Eigen::MatrixXd a(2, 2);
        a << 1.0, 2.0, 3.0, 0.5;
        auto V = [&](const ParamSet& q, ParamSet* g) {
            if (g) {
                (*g)[0] += a.cwiseProduct(q[0]);
                (*g)[1] += q[1].squaredNorm() * q[1];
            }
            return 0.5 * (a.cwiseProduct(q[0].cwiseAbs2())).sum() +
                   0.25 * std::pow(q[1].squaredNorm(), 2);
        };
        Rng rng(1);
        const double s = 0.1;
        const double expected = -a.sum() + a.cwiseProduct(p[0]).squaredNorm() / s;
        const double got = villaniQuantity(V, p, {0}, s, 3, rng);
        QVERIFY2(std::abs(got - expected) < 1e-6 * std::abs(expected),
                 qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
        QVERIFY(std::isnan(villaniQuantity(V, p, {0}, 0.0, 3, rng)));
        // In a run: the column exists and is finite.
        Config c = configFor("b", {"data.n=20", "optimizer=sde", "iterations=4", "log_every=2",
                                   "regularizer=log_amplified", "lambda=0.01"});
        std::string err;
        auto t = makeTrainer(c, &err);
        const RunResult r = t->run();
        const int col = r.history.column("villani");
        QVERIFY(col >= 0);
        for (const auto& row : r.history.rows)
            QVERIFY(std::isfinite(row[col]));
    }

    void spectralInitIsRejectedOutsideExperimentA() {
        Config c = configFor("b", {"init=spectral"});
        const auto errors = validateConfig(c);
        QCOMPARE(errors.size(), std::size_t(1));
        QVERIFY(errors[0].message.find("experiment a") != std::string::npos);
        Config d = configFor("c", {"rank=9"});
        QVERIFY(!validateConfig(d).empty());
    }
};

QTEST_APPLESS_MAIN(TestPaperB)
#include "tst_paperb.moc"
