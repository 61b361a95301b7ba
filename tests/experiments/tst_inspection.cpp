// The inspection hooks (training/Inspection.h) of A, B, C and Darcy: heatmaps equal the
// parameters and independently computed products and targets; attention rows sum to 1 and equal
// a recomputation; the factor-plane point equals the norms recorded in metrics; the orbit leaves
// the data loss unchanged for B, C and Darcy and changes Experiment A's L_n (by how much is
// printed).
#include <QtTest>

#include <cmath>

#include "Configs.h"
#include "experiments/ExperimentRegistry.h"
#include "experiments/a/ExperimentA.h"
#include "experiments/b/ExperimentB.h"
#include "experiments/c/ExperimentC.h"
#include "training/Trainer.h"

using namespace ade;

namespace {

Config configFor(const std::string& experiment, std::vector<std::string> sets) {
    sets.insert(sets.begin(), "experiment=" + experiment);
    return adetest::configFromSets(sets);
}

Config darcyConfig(std::vector<std::string> sets = {}) {
    sets.insert(sets.begin(), {"darcy.resolution=16", "darcy.patch=4", "darcy.train=12",
                               "darcy.test=4", "darcy.width=6", "stage1.epochs=2",
                               "stage1.batch=4"});
    return configFor("darcy", sets);
}

const MatrixView* find(const std::vector<MatrixView>& v, const std::string& title) {
    for (const auto& m : v)
        if (m.title == title) return &m;
    return nullptr;
}

Eigen::MatrixXd softmaxRows(const Eigen::MatrixXd& S) {
    Eigen::MatrixXd W(S.rows(), S.cols());
    for (Eigen::Index i = 0; i < S.rows(); ++i) {
        double sum = 0;
        for (Eigen::Index j = 0; j < S.cols(); ++j) sum += std::exp(S(i, j));
        for (Eigen::Index j = 0; j < S.cols(); ++j) W(i, j) = std::exp(S(i, j)) / sum;
    }
    return W;
}

double maxAbs(const Eigen::MatrixXd& m) { return m.cwiseAbs().maxCoeff(); }

// Runs a config and returns the trainer (for its problem) and the result.
std::pair<std::unique_ptr<Trainer>, RunResult> run(const Config& c) {
    std::string err;
    auto t = makeTrainer(c, &err);
    if (!t) qFatal("%s", err.c_str());
    RunResult r = t->run();
    return {std::move(t), std::move(r)};
}

}  // namespace

class TestInspection : public QObject {
    Q_OBJECT
    QTemporaryDir cache_;

  private slots:
    void initTestCase() {
        // Darcy's data and stage-1 weights go to a cache of this test's own.
        QVERIFY(cache_.isValid());
        qputenv("ADE_CACHE_DIR", cache_.path().toUtf8());
    }

    void heatmapsOfA() {
        const Config c = configFor("a", {"data.d=3", "data.k=2", "data.n=10", "data.prompts=4"});
        ExperimentA a(c);
        Rng rng(5);
        const ParamSet p = a.initialParams(rng);
        const auto views = a.matrixViews(p);
        QVERIFY(find(views, "A")->values == p[0]);
        QVERIFY(find(views, "B")->values == p[1]);
        const Eigen::MatrixXd& S = a.truth().sigma;
        // Σ^{1/2} by an eigen-decomposition, independently of the experiment's own.
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(S);
        const Eigen::MatrixXd half = es.eigenvectors() *
                                     es.eigenvalues().cwiseSqrt().asDiagonal() *
                                     es.eigenvectors().transpose();
        const Eigen::MatrixXd LRt = p[0] * S * p[1].transpose() * half;  // A Σ Bᵀ Σ^{1/2}
        const Eigen::MatrixXd Xstar = a.truth().M * half;
        QVERIFY(maxAbs(find(views, "L Rᵀ")->values - LRt) < 1e-10);
        QVERIFY(maxAbs(find(views, "X*")->values - Xstar) < 1e-10);
        QVERIFY(maxAbs(find(views, "L Rᵀ − X*")->values - (LRt - Xstar)) < 1e-10);
        QCOMPARE(find(views, "A")->row, find(views, "B")->row);
        QVERIFY(find(views, "L Rᵀ")->row != find(views, "A")->row);
        // E(θ) = ½‖L Rᵀ − X*‖² is the excess risk the metrics report.
        std::map<std::string, double> m;
        a.evaluate(p, a.loss(p, nullptr, {}), m);
        QVERIFY(std::abs(0.5 * (LRt - Xstar).squaredNorm() - m["excess_risk"]) <
                1e-10 * (1 + m["excess_risk"]));
    }

    void heatmapsOfBAndC() {
        ExperimentB b(configFor("b", {"data.d=5", "data.n=8", "b.dk=3"}));
        Rng rng(3);
        const ParamSet p = b.initialParams(rng);
        auto views = b.matrixViews(p);
        QVERIFY(find(views, "W_Q")->values == p[0]);
        QVERIFY(find(views, "W_K")->values == p[1]);
        const Eigen::MatrixXd prod = p[0] * p[1].transpose();
        const Eigen::MatrixXd teacher = b.teacherWQ() * b.teacherWK().transpose();
        QVERIFY(maxAbs(find(views, "W_Q W_Kᵀ")->values - prod) < 1e-14);
        QVERIFY(maxAbs(find(views, "W_Q* W_K*ᵀ")->values - teacher) < 1e-14);
        QVERIFY(maxAbs(find(views, "W_Q W_Kᵀ − W_Q* W_K*ᵀ")->values - (prod - teacher)) < 1e-13);

        const Config cc = configFor("c", {"data.d=6", "data.n=8", "lora.alpha=2"});
        ExperimentC c(cc);
        const ParamSet q = c.initialParams(rng);
        views = c.matrixViews(q);
        QVERIFY(find(views, "U")->values == q[0]);
        QVERIFY(find(views, "V")->values == q[1]);
        const Eigen::MatrixXd update = 2.0 * q[0] * q[1];
        QVERIFY(maxAbs(find(views, "α U V")->values - update) < 1e-14);
        QVERIFY(maxAbs(find(views, "α U* V*")->values - 2.0 * c.teacherU() * c.teacherV()) <
                1e-14);
        QVERIFY(!c.attentionView(q, 128).has_value());
    }

    void attentionRowsSumToOneAndMatch() {
        const Config ca = configFor("a", {"data.d=3", "data.k=2", "data.n=20", "data.prompts=4"});
        ExperimentA a(ca);
        Rng rng(7);
        const ParamSet p = a.initialParams(rng);
        const auto va = a.attentionView(p, 12);
        QVERIFY(va.has_value());
        QCOMPARE(int(va->weights.rows()), 12);
        const Eigen::MatrixXd X = a.testData().X[0].topRows(12);
        QVERIFY(maxAbs(va->weights - softmaxRows(X * p[1] * X.transpose())) < 1e-12);
        QVERIFY(maxAbs(va->weights.rowwise().sum() - Eigen::VectorXd::Ones(12)) < 1e-12);
        QVERIFY(va->referenceTitle.empty());
        QVERIFY(QString::fromStdString(va->title).contains("No n → ∞ attention"));
        QCOMPARE(va->features.size(), va->featureNames.size());
        QCOMPARE(int(va->features[0].size()), 12);

        ExperimentB b(configFor("b", {"data.d=4", "data.n=8", "b.dk=2", "b.tokens=6"}));
        const ParamSet q = b.initialParams(rng);
        const auto vb = b.attentionView(q, 128);
        QVERIFY(vb.has_value());
        QCOMPARE(int(vb->weights.rows()), 6);
        QVERIFY(maxAbs(vb->weights.rowwise().sum() - Eigen::VectorXd::Ones(6)) < 1e-12);
        QVERIFY(maxAbs(vb->reference.rowwise().sum() - Eigen::VectorXd::Ones(6)) < 1e-12);
        QVERIFY(!vb->referenceTitle.empty());
        const Eigen::MatrixXd Xb = b.testData().X.topRows(6);
        const double scale = 1.0 / std::sqrt(2.0);
        QVERIFY(maxAbs(vb->weights - softmaxRows(scale * Xb * q[0] * q[1].transpose() *
                                                 Xb.transpose())) < 1e-12);
        QVERIFY(maxAbs(vb->reference -
                       softmaxRows(scale * Xb * b.teacherWQ() * b.teacherWK().transpose() *
                                   Xb.transpose())) < 1e-12);
    }

    void factorPointEqualsRecordedNorms_data() {
        QTest::addColumn<QString>("experiment");
        QTest::addColumn<QStringList>("sets");
        QTest::newRow("a") << "a" << QStringList{"data.n=10", "data.prompts=4", "iterations=12",
                                                 "log_every=4", "lr=0.05"};
        QTest::newRow("b") << "b" << QStringList{"data.n=16", "iterations=12", "log_every=4"};
        QTest::newRow("c") << "c" << QStringList{"data.n=16", "iterations=12", "log_every=4"};
    }
    void factorPointEqualsRecordedNorms() {
        QFETCH(QString, experiment);
        QFETCH(QStringList, sets);
        std::vector<std::string> s;
        for (const auto& x : sets) s.push_back(x.toStdString());
        auto [trainer, r] = run(configFor(experiment.toStdString(), s));
        QVERIFY(r.status == RunStatus::Completed);
        const auto plane = trainer->problem().factorPlane();
        QVERIFY(plane.has_value());
        const int cx = r.history.column(plane->xColumn), cy = r.history.column(plane->yColumn);
        QVERIFY(cx >= 0 && cy >= 0);
        const auto& last = r.history.rows.back();
        QCOMPARE(static_cast<long>(last[0]), r.iterationsDone);
        const Eigen::Vector2d pt = trainer->problem().factorPoint(r.finalParams);
        QCOMPARE(pt.x(), last[cx]);
        QCOMPARE(pt.y(), last[cy]);
        const Eigen::Vector2d p0 = trainer->problem().factorPoint(r.initialParams);
        QCOMPARE(p0.x(), r.history.rows.front()[cx]);
        QCOMPARE(p0.y(), r.history.rows.front()[cy]);
    }

    void orbitKeepsDataLossExceptA() {
        Rng rng(11);
        for (const char* e : {"b", "c"}) {
            std::string err;
            auto prob = makeProblem(configFor(e, {"data.n=16"}), &err);
            QVERIFY2(prob, err.c_str());
            QVERIFY(prob->orbitIsExactSymmetry());
            const ParamSet p = prob->initialParams(rng);
            const double l0 = prob->loss(p, nullptr, {});
            for (double t : {-1.0, 0.5, 2.0}) {
                const ParamSet q = *prob->orbitMove(p, t);
                QVERIFY(std::abs(q[0].norm() - std::exp(t) * p[0].norm()) < 1e-12 * q[0].norm());
                const double l = prob->loss(q, nullptr, {});
                QVERIFY2(std::abs(l - l0) <= 1e-12 * std::abs(l0), e);
            }
            const ParamSet same = *prob->orbitMove(p, 0.0);
            QVERIFY(same.mats == p.mats);
        }
        {
            auto [trainer, r] = run(darcyConfig({"iterations=2", "log_every=1"}));
            Problem& prob = trainer->problem();
            QVERIFY(prob.orbitIsExactSymmetry());
            const double l0 = prob.loss(r.finalParams, nullptr, {});
            const double l = prob.loss(*prob.orbitMove(r.finalParams, 1.0), nullptr, {});
            QVERIFY(std::abs(l - l0) <= 1e-10 * std::abs(l0));
            const auto v = prob.attentionView(r.finalParams, 128);
            QVERIFY(v.has_value());
            QVERIFY(maxAbs(v->weights.rowwise().sum() -
                           Eigen::VectorXd::Ones(v->weights.rows())) < 1e-12);
            const auto views = prob.matrixViews(r.finalParams);
            QVERIFY(maxAbs(find(views, "W_Q W_Kᵀ")->values -
                           r.finalParams[2] * r.finalParams[3].transpose()) < 1e-14);
        }
        {
            // A at finite n: the orbit is a symmetry of E(θ) only.
            const Config c =
                configFor("a", {"data.d=3", "data.k=3", "data.n=16", "data.prompts=8"});
            ExperimentA a(c);
            QVERIFY(!a.orbitIsExactSymmetry());
            const ParamSet p = a.initialParams(rng);
            const ParamSet q = *a.orbitMove(p, 1.0);
            const double l0 = a.loss(p, nullptr, {}), l1 = a.loss(q, nullptr, {});
            std::map<std::string, double> m0, m1;
            a.evaluate(p, l0, m0);
            a.evaluate(q, l1, m1);
            QVERIFY(std::abs(m1["excess_risk"] - m0["excess_risk"]) <
                    1e-10 * (1 + m0["excess_risk"]));
            QVERIFY(std::abs(l1 - l0) > 1e-6 * l0);
            qInfo("Experiment A, n = 16, orbit t = 1: L_n %.6g -> %.6g (relative change %.3g); "
                  "E(θ) %.6g -> %.6g",
                  l0, l1, (l1 - l0) / l0, m0["excess_risk"], m1["excess_risk"]);
        }
    }
};

QTEST_GUILESS_MAIN(TestInspection)
#include "tst_inspection.moc"
