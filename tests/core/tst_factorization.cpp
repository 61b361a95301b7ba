// The infinite-data limit, the manifold of global minima, spectral initialisation.
#include <QtTest>

#include "config/Config.h"
#include "data/LinearRegressionData.h"
#include "experiments/a/ExperimentA.h"
#include "models/Factorization.h"
#include "models/SoftmaxAttentionRegression.h"
#include "util/Rng.h"

using namespace ade;

class TestFactorization : public QObject {
    Q_OBJECT

    static Config smallConfig(int n, int prompts) {
        Config c;
        c.setText("data.n", std::to_string(n));
        c.setText("data.prompts", std::to_string(prompts));
        return c;
    }

  private slots:
    void tiltedMeanIsSigmaQ() {
        // E[x e^{q^T x}] / E[e^{q^T x}] = Sigma q for x ~ N(0, Sigma), by Monte Carlo.
        RegressionDataSpec spec;
        spec.d = 3;
        spec.k = 1;
        Rng rng(21);
        const RegressionTruth t = makeRegressionTruth(spec, rng);
        const Eigen::Vector3d q(0.3, -0.2, 0.1);
        Eigen::Vector3d num = Eigen::Vector3d::Zero();
        double den = 0;
        const int N = 400000;
        for (int i = 0; i < N; ++i) {
            Eigen::Vector3d z(rng.normal(), rng.normal(), rng.normal());
            const Eigen::Vector3d x = t.sigmaHalf * z;
            const double w = std::exp(q.dot(x));
            num += w * x;
            den += w;
        }
        const Eigen::Vector3d mc = num / den;
        const Eigen::Vector3d exact = t.sigma * q;
        QVERIFY2((mc - exact).norm() < 0.01, qPrintable(QString::number((mc - exact).norm())));
    }

    void populationLossMatchesMonteCarlo() {
        // L_n on many long fresh sequences -> E + k sigma^2 / 2 (finite-n bias is O(1/n)).
        RegressionDataSpec spec;
        spec.d = 3;
        spec.k = 2;
        spec.n = 4096;
        spec.noise = 0.2;
        Rng rng(5, Rng::Data);
        const RegressionTruth t = makeRegressionTruth(spec, rng);
        Rng init(5, Rng::Init);
        const Eigen::MatrixXd A = init.normalMatrix(2, 3, 0.5), B = init.normalMatrix(3, 3, 0.3);
        const SequenceSet data = sampleSequences(t, spec, 24, rng);
        SoftmaxAttentionRegression model;
        const double mc = model.loss(A, B, data, {}, nullptr, nullptr);
        const double exact = populationExcessRisk(A, B, t.sigma, t.sigmaHalf, t.M) +
                             0.5 * spec.k * spec.noise * spec.noise;
        // A wrong formula (e.g. dropping Sigma in A Sigma B^T) is far off: make sure the
        // tolerance separates them.
        const double wrong = 0.5 * ((A * B.transpose() - t.M) * t.sigmaHalf).squaredNorm() +
                             0.5 * spec.k * spec.noise * spec.noise;
        const double relErr = std::abs(mc - exact) / exact;
        QVERIFY2(relErr < 0.02, qPrintable(QString("mc %1 exact %2").arg(mc).arg(exact)));
        QVERIFY(std::abs(wrong - exact) / exact > 5 * relErr);
    }

    void spectralInitLandsOnEmpiricalBalancedManifold() {
        Config c = smallConfig(32, 16);
        c.setText("init", "spectral");
        ExperimentA a(c);
        Rng rng(1, Rng::Init);
        const ParamSet p = a.initialParams(rng);
        const Eigen::MatrixXd half = spdSqrt(a.sigmaHat());
        const Factors f = toFactors(p[0], p[1], half);
        // Balanced: L^T L = R^T R; product L R^T = C Sigmahat^{-1/2}.
        QVERIFY((f.L.transpose() * f.L - f.R.transpose() * f.R).norm() < 1e-10 * f.L.squaredNorm());
        const Eigen::MatrixXd target = a.crossMoment() * spdInvSqrt(a.sigmaHat());
        QVERIFY((f.L * f.R.transpose() - target).norm() < 1e-10 * target.norm());
        // And it starts orders of magnitude closer than a random start.
        c.setText("init", "random");
        ExperimentA r(c);
        Rng rng2(1, Rng::Init);
        const ParamSet q = r.initialParams(rng2);
        std::map<std::string, double> ms, mr;
        a.evaluate(p, 0, ms);
        r.evaluate(q, 0, mr);
        QVERIFY(ms["excess_risk"] * 100 < mr["excess_risk"]);
    }

    void manifoldDistanceZeroOnSAndInvariant() {
        RegressionDataSpec spec;
        spec.d = 4;
        spec.k = 3;
        Rng rng(7);
        const RegressionTruth t = makeRegressionTruth(spec, rng);
        const ManifoldDistance md(t.M, t.sigmaHalf, spec.effectiveRank());
        const Eigen::MatrixXd O = randomOrthogonal(4, rng);
        const Factors onS{md.star().L * O, md.star().R * O};
        QVERIFY(md.distance(onS) < 1e-12);
        QVERIFY(md.distance(md.star()) < 1e-12);
        // Invariance under O(d): dist(L O, R O) = dist(L, R).
        const Factors f{rng.normalMatrix(3, 4), rng.normalMatrix(4, 4)};
        const Factors fo{f.L * O, f.R * O};
        QVERIFY(std::abs(md.distance(f) - md.distance(fo)) < 1e-12 * md.distance(f));
        // Procrustes is the minimum over O: no random orthogonal matrix does better.
        const double d0 = md.distance(f);
        for (int i = 0; i < 200; ++i) {
            const Eigen::MatrixXd Q = randomOrthogonal(4, rng);
            const double di = std::sqrt((f.L - md.star().L * Q).squaredNorm() +
                                        (f.R - md.star().R * Q).squaredNorm());
            QVERIFY(di >= d0 - 1e-12);
        }
        // A point on S is also a global minimum of the excess risk.
        Eigen::MatrixXd A, B;
        fromFactors(onS, spdInvSqrt(t.sigma), A, B);
        QVERIFY(populationExcessRisk(A, B, t.sigma, t.sigmaHalf, t.M) < 1e-24);
    }

    void lowRankTargetPadsWithZeros() {
        RegressionDataSpec spec;
        spec.d = 4;
        spec.k = 4;
        spec.rank = 2;
        Rng rng(3);
        const RegressionTruth t = makeRegressionTruth(spec, rng);
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(t.M);
        QVERIFY(svd.singularValues()(2) < 1e-12);
        const ManifoldDistance md(t.M, t.sigmaHalf, 2);
        QCOMPARE(md.star().L.cols(), 4);
        QVERIFY(md.star().L.rightCols(2).norm() == 0.0);
        QVERIFY((md.star().L * md.star().R.transpose() - t.M * t.sigmaHalf).norm() < 1e-12);
    }

    void renormalizationKeepsProductAndBalances() {
        Config c = smallConfig(16, 4);
        ExperimentA a(c);
        Rng rng(2, Rng::Init);
        ParamSet p = a.initialParams(rng);
        const Eigen::MatrixXd half = spdSqrt(a.sigmaHat());
        const Factors before = toFactors(p[0], p[1], half);
        a.renormalize(p);
        const Factors after = toFactors(p[0], p[1], half);
        QVERIFY((before.L * before.R.transpose() - after.L * after.R.transpose()).norm() < 1e-10);
        QVERIFY(imbalance(after) < 1e-10);
        QVERIFY(imbalance(before) > 1e-3);
    }
};

QTEST_APPLESS_MAIN(TestFactorization)
#include "tst_factorization.moc"
