// Every analytic gradient of Experiment A against central finite differences.
#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

#include "FiniteDiff.h"
#include "Sanitizers.h"
#include "config/Config.h"
#include "data/LinearRegressionData.h"
#include "experiments/a/ExperimentA.h"
#include "experiments/ExperimentRegistry.h"
#include "models/BlockProducts.h"
#include "models/Factorization.h"
#include "models/Regularizer.h"
#include "models/SoftmaxAttentionRegression.h"
#include "models/VectorExp.h"
#include "training/Trainer.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

using namespace ade;
using adetest::numericGradient;
using adetest::relError;

class TestGradients : public QObject {
    Q_OBJECT

    struct Setup {
        RegressionDataSpec spec;
        RegressionTruth truth;
        SequenceSet data;
        Eigen::MatrixXd A, B;
    };
    static Setup makeSetup(int d, int k, int n, int P, std::uint64_t seed, double scale = 0.5) {
        Setup s;
        s.spec.d = d;
        s.spec.k = k;
        s.spec.n = n;
        Rng rng(seed, Rng::Data);
        s.truth = makeRegressionTruth(s.spec, rng);
        s.data = sampleSequences(s.truth, s.spec, P, rng);
        Rng init(seed, Rng::Init);
        s.A = init.normalMatrix(k, d, scale);
        s.B = init.normalMatrix(d, d, scale);
        return s;
    }

  private slots:
    void attentionLoss_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("P");
        QTest::addColumn<bool>("excludeSelf");
        QTest::newRow("d3k2n7") << 3 << 2 << 7 << 3 << false;
        QTest::newRow("d3k2n7-exclude-self") << 3 << 2 << 7 << 3 << true;
        QTest::newRow("d4k4-multi-block") << 4 << 4 << 300 << 2 << false;  // several row blocks
        QTest::newRow("d1k1n1") << 1 << 1 << 1 << 2 << false;
        QTest::newRow("d5k3n2-exclude-self") << 5 << 3 << 2 << 2 << true;
        // The blocked path's register-blocked products (models/BlockProducts.h): d a multiple
        // of the packet size or not, n not a multiple of it, several row blocks.
        QTest::newRow("d16k16n37-exclude-self") << 16 << 16 << 37 << 2 << true;
        QTest::newRow("d16k4-multi-block") << 16 << 4 << 300 << 2 << false;
        QTest::newRow("d8k3n61") << 8 << 3 << 61 << 2 << false;
        QTest::newRow("d12k2n45") << 12 << 2 << 45 << 2 << false;
        QTest::newRow("d24k5n29-exclude-self") << 24 << 5 << 29 << 2 << true;
    }

    // The kernels' exp (models/VectorExp.h; on AVX-512 the table-driven one) against long
    // double exp over the softmax arguments' range, at 0, at -inf and for NaN.
    void vectorExpAccuracy() {
        namespace vx = ade::vexp;
        auto worst = []<typename T>(T lo, int count) {
            std::mt19937_64 g(7);
            std::uniform_real_distribution<double> u(static_cast<double>(lo), 0.0);
            double w = 0;
            for (int i = 0; i < count; ++i) {
                // Every tenth argument near 0, where softmax weights are large.
                const T x = static_cast<T>(i % 10 == 0 ? u(g) * 1e-3 : u(g));
                const long double ref = std::exp(static_cast<long double>(x));
                const long double y = vx::expNonPositiveScalar<T>(x);
                w = std::max(w, static_cast<double>(std::fabs((y - ref) / ref)));
            }
            return w;
        };
        const double e64 = worst(-708.0, 400000), e32 = worst(-87.0f, 400000);
        qInfo("exp max relative error: float64 %.2e, float32 %.2e (%d lanes)", e64, e32,
              vx::kLanesOf<double>);
        QVERIFY2(e64 <= 1e-15, qPrintable(QString::number(e64)));
        QVERIFY2(e32 <= 2e-7, qPrintable(QString::number(e32)));
        QCOMPARE(vx::expNonPositiveScalar<double>(0.0), 1.0);
        QCOMPARE(vx::expNonPositiveScalar<float>(0.0f), 1.0f);
        const double tiny = vx::expNonPositiveScalar<double>(-std::numeric_limits<double>::infinity());
        QVERIFY(tiny >= 0 && tiny < 1e-300);
        QVERIFY(std::isnan(vx::expNonPositiveScalar<double>(std::numeric_limits<double>::quiet_NaN())));
        QVERIFY(std::isnan(vx::expNonPositiveScalar<float>(std::numeric_limits<float>::quiet_NaN())));
    }

    // S = Q X^T and C = L X of the blocked path against Eigen's products, for shapes around
    // every tile edge (rows 1..13, tokens 1..70, d from 5 to 40).
    void blockProductsMatchEigen() {
        namespace bp = ade::blockprod;
        using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
        Rng rng(3, Rng::Data);
        int checked = 0;
        for (int d : {5, 8, 12, 16, 24, 32, 40})
            for (int b : {1, 3, 4, 6, 7, 12, 13})
                for (int n : {1, 7, 8, 16, 23, 24, 25, 48, 70}) {
                    const Eigen::MatrixXd Q = rng.normalMatrix(b, d), X = rng.normalMatrix(n, d);
                    RowMatrix S;
                    bp::scores(Q, X, S);
                    const Eigen::MatrixXd Sref = Q * X.transpose();
                    QVERIFY2((S - Sref).cwiseAbs().maxCoeff() <= 1e-13 * (1 + Sref.cwiseAbs().maxCoeff()),
                             qPrintable(QString("scores b %1 n %2 d %3").arg(b).arg(n).arg(d)));
                    // The epilogue: an elementwise factor, and the row maxima of the result.
                    const RowMatrix M = rng.normalMatrix(b, n);
                    Eigen::VectorXd mx(b);
                    RowMatrix SM;
                    bp::scores<double>(Q, X, SM, {.times = M.data(), .rowMax = mx.data()});
                    const Eigen::MatrixXd SMref = Sref.cwiseProduct(Eigen::MatrixXd(M));
                    QVERIFY2((SM - SMref).cwiseAbs().maxCoeff() <= 1e-13 * (1 + SMref.cwiseAbs().maxCoeff()),
                             qPrintable(QString("scores .* M b %1 n %2 d %3").arg(b).arg(n).arg(d)));
                    QVERIFY2(mx == Eigen::MatrixXd(SM).rowwise().maxCoeff(),
                             qPrintable(QString("row maxima b %1 n %2 d %3").arg(b).arg(n).arg(d)));
                    const RowMatrix Lm = rng.normalMatrix(b, n), Xr = X;
                    RowMatrix C;
                    bp::rowsTimes(Lm, Xr, C);
                    const Eigen::MatrixXd Cref = Lm * X;
                    QVERIFY2((C - Cref).cwiseAbs().maxCoeff() <= 1e-13 * (1 + Cref.cwiseAbs().maxCoeff()),
                             qPrintable(QString("rowsTimes b %1 n %2 d %3").arg(b).arg(n).arg(d)));
                    ++checked;
                }
        QCOMPARE(checked, 7 * 7 * 9);
    }
    void attentionLoss() {
        ADE_SKIP_UNDER_TSAN("finite differences of one loss, 33 s at d = 16");
        QFETCH(int, d);
        QFETCH(int, k);
        QFETCH(int, n);
        QFETCH(int, P);
        QFETCH(bool, excludeSelf);
        Setup s = makeSetup(d, k, n, P, 11);
        SoftmaxAttentionRegression model(excludeSelf);
        Eigen::MatrixXd gA, gB;
        const double L = model.loss(s.A, s.B, s.data, {}, &gA, &gB);
        QVERIFY(std::isfinite(L) && L > 0);
        auto f = [&] { return model.loss(s.A, s.B, s.data, {}, nullptr, nullptr); };
        const Eigen::MatrixXd nA = numericGradient(s.A, f);
        const Eigen::MatrixXd nB = numericGradient(s.B, f);
        QVERIFY2(relError(gA, nA) < 1e-7, qPrintable(QString::number(relError(gA, nA))));
        QVERIFY2(relError(gB, nB) < 1e-6, qPrintable(QString::number(relError(gB, nB))));
    }

    void lossMatchesDirectFormula() {
        // L_n = 1/(2 P n) sum ||f(X)_i - y_i||^2 with f from the unblocked predict().
        Setup s = makeSetup(3, 2, 40, 3, 5);
        SoftmaxAttentionRegression model;
        double sse = 0;
        for (int p = 0; p < 3; ++p)
            sse += (model.predict(s.A, s.B, s.data.X[p]) - s.data.Y[p]).squaredNorm();
        QCOMPARE_LE(
            std::abs(model.loss(s.A, s.B, s.data, {}, nullptr, nullptr) - sse / (2.0 * 3 * 40)),
            1e-14);
    }

    void minibatchGradient() {
        Setup s = makeSetup(3, 3, 9, 5, 3);
        SoftmaxAttentionRegression model;
        const std::vector<int> units = {4, 1};
        Eigen::MatrixXd gA, gB;
        model.loss(s.A, s.B, s.data, units, &gA, &gB);
        auto f = [&] { return model.loss(s.A, s.B, s.data, units, nullptr, nullptr); };
        QVERIFY(relError(gA, numericGradient(s.A, f)) < 1e-7);
        QVERIFY(relError(gB, numericGradient(s.B, f)) < 1e-6);
    }

    void threadCountDoesNotChangeResults_data() {
        QTest::addColumn<int>("d");
        QTest::newRow("fused d4") << 4;
        QTest::newRow("blocked d16") << 16;
    }
    void threadCountDoesNotChangeResults() {
        QFETCH(int, d);
        Setup s = makeSetup(d, d, 700, 3, 8);
        SoftmaxAttentionRegression model;
        Eigen::MatrixXd gA1, gB1, gA3, gB3;
        const double l1 = model.loss(s.A, s.B, s.data, {}, &gA1, &gB1, nullptr);
        WorkerPool pool(3);
        const double l3 = model.loss(s.A, s.B, s.data, {}, &gA3, &gB3, &pool);
        QCOMPARE(l1, l3);  // bit-identical
        QVERIFY(gA1 == gA3);
        QVERIFY(gB1 == gB3);
    }

    // precision = float32: the loss and gradients of the single-precision step against float64
    // at the presets' and the benchmark's sizes (docs/performance.md quotes these bounds).
    void float32MatchesFloat64_data() {
        QTest::addColumn<int>("d");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("P");
        QTest::addColumn<double>("scale");
        QTest::addColumn<bool>("excludeSelf");
        QTest::newRow("a-same-start d4 n128 P32") << 4 << 128 << 32 << 0.5 << false;
        QTest::newRow("d4 n128 P32 large weights") << 4 << 128 << 32 << 1.5 << false;
        QTest::newRow("d4 n300 exclude-self") << 4 << 300 << 4 << 0.5 << true;
        QTest::newRow("bench d4 n4096 P1") << 4 << 4096 << 1 << 0.5 << false;
        QTest::newRow("general d5 n200 P4") << 5 << 200 << 4 << 0.5 << false;
        QTest::newRow("bench d16 n1024 P4") << 16 << 1024 << 4 << 0.3 << false;
        QTest::newRow("d16 n256 exclude-self") << 16 << 256 << 4 << 0.3 << true;
    }
    void float32MatchesFloat64() {
        QFETCH(int, d);
        QFETCH(int, n);
        QFETCH(int, P);
        QFETCH(double, scale);
        QFETCH(bool, excludeSelf);
        Setup s = makeSetup(d, d, n, P, 21, scale);
        s.data.makeSingleCopies();
        SoftmaxAttentionRegression m64(excludeSelf), m32(excludeSelf, Precision::Float32);
        QCOMPARE(m32.precision(), Precision::Float32);
        Eigen::MatrixXd gA64, gB64, gA32, gB32;
        const double l64 = m64.loss(s.A, s.B, s.data, {}, &gA64, &gB64);
        const double l32 = m32.loss(s.A, s.B, s.data, {}, &gA32, &gB32);
        const double eL = std::abs(l32 - l64) / l64;
        const double eA = (gA32 - gA64).norm() / gA64.norm();
        const double eB = (gB32 - gB64).norm() / gB64.norm();
        qInfo("float32 vs float64: loss %.2g, grad A %.2g, grad B %.2g (relative)", eL, eA, eB);
        QVERIFY2(eL < 1e-6, qPrintable(QString::number(eL)));
        QVERIFY2(eA < 1e-5, qPrintable(QString::number(eA)));
        QVERIFY2(eB < 1e-4, qPrintable(QString::number(eB)));
        QVERIFY(eL > 0.0 || eA > 0.0);  // it did compute in single precision
        // The loss alone equals the loss computed with the gradient, and threads change nothing.
        QCOMPARE(m32.loss(s.A, s.B, s.data, {}, nullptr, nullptr), l32);
        WorkerPool pool(3);
        Eigen::MatrixXd gA3, gB3;
        QCOMPARE(m32.loss(s.A, s.B, s.data, {}, &gA3, &gB3, &pool), l32);
        QVERIFY(gA3 == gA32 && gB3 == gB32);
    }

    void float32NeedsTheSingleCopies() {
        Setup s = makeSetup(4, 4, 16, 2, 3);
        SoftmaxAttentionRegression m32(false, Precision::Float32);
        QVERIFY_THROWS_EXCEPTION(std::logic_error,
                                 m32.loss(s.A, s.B, s.data, {}, nullptr, nullptr));
    }

    void balancingRegularizerGradient() {
        Rng rng(4);
        const int d = 4, k = 3;
        Eigen::MatrixXd A = rng.normalMatrix(k, d), B = rng.normalMatrix(d, d);
        Eigen::MatrixXd G = rng.normalMatrix(d, d);
        const Eigen::MatrixXd sigmaHalf =
            spdSqrt(G * G.transpose() / d + Eigen::MatrixXd::Identity(d, d));
        Eigen::MatrixXd gA = Eigen::MatrixXd::Zero(k, d), gB = Eigen::MatrixXd::Zero(d, d);
        ade::balancingRegularizer(A, B, sigmaHalf, 0.7, &gA, &gB);
        auto f = [&] { return ade::balancingRegularizer(A, B, sigmaHalf, 0.7, nullptr, nullptr); };
        QVERIFY(relError(gA, numericGradient(A, f)) < 1e-7);
        QVERIFY(relError(gB, numericGradient(B, f)) < 1e-7);
    }

    void perMatrixRegularizers_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("l2") << "l2";
        QTest::newRow("log_amplified") << "log_amplified";
        QTest::newRow("power") << "power";
    }
    void perMatrixRegularizers() {
        QFETCH(QString, name);
        auto reg = makeRegularizer(name.toStdString(), 0.3, 0.5);
        QVERIFY(reg);
        Rng rng(9);
        Eigen::MatrixXd W = rng.normalMatrix(3, 4);
        Eigen::MatrixXd g = Eigen::MatrixXd::Zero(3, 4);
        reg->addGradient(W, g);
        auto f = [&] { return reg->value(W); };
        QVERIFY2(relError(g, numericGradient(W, f)) < 1e-7, qPrintable(name));
    }

    void fullObjectiveWithBalancing() {
        // Q = L_n + balancing, through the Trainer, for the Experiment A problem.
        Config c;
        QVERIFY(!c.setText("data.n", "6"));
        QVERIFY(!c.setText("data.prompts", "3"));
        QVERIFY(!c.setText("data.d", "3"));
        QVERIFY(!c.setText("data.k", "2"));
        QVERIFY(!c.setText("regularizer", "balancing"));
        QVERIFY(!c.setText("lambda", "0.8"));
        std::string err;
        auto t = makeTrainer(c, &err);
        QVERIFY2(t, err.c_str());
        Rng rng(1, Rng::Init);
        ParamSet p = t->problem().initialParams(rng);
        ParamSet g = p.zerosLike();
        t->objective(p, &g, {});
        for (int i = 0; i < 2; ++i) {
            auto f = [&] { return t->objective(p, nullptr, {}); };
            QVERIFY(relError(g[i], numericGradient(p[i], f)) < 1e-6);
        }
    }

    void preconditionedDirectionDescends() {
        Config c;
        QVERIFY(!c.setText("preconditioner", "scaled"));
        QVERIFY(!c.setText("data.n", "16"));
        std::string err;
        auto t = makeTrainer(c, &err);
        QVERIFY(t);
        Rng rng(2, Rng::Init);
        ParamSet p = t->problem().initialParams(rng);
        ParamSet g = p.zerosLike();
        const double q0 = t->objective(p, &g, {});
        ParamSet dir = g;
        t->problem().precondition(p, dir);
        QVERIFY(g.dot(dir) > 0);  // a descent direction
        ParamSet trial = p;
        trial.axpy(-1e-4, dir);
        QVERIFY(t->objective(trial, nullptr, {}) < q0);
    }
};

QTEST_APPLESS_MAIN(TestGradients)
#include "tst_gradients.moc"
