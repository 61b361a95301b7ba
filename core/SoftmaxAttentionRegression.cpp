#include "SoftmaxAttentionRegression.h"

#include <algorithm>
#include <limits>

#include "WorkerPool.h"

namespace ade {

namespace {

struct Partial {
    double sse = 0.0;
    Eigen::MatrixXd gA, gB;
};

struct Scratch {
    Eigen::MatrixXd W, T, WX, GA;
};

}  // namespace

int SoftmaxAttentionRegression::blockRows(int n) {
    const int target = 32768 / std::max(n, 1);  // ~256 KiB of doubles per block matrix
    return std::clamp(target, 8, 256);
}

Eigen::MatrixXd SoftmaxAttentionRegression::predict(const Eigen::MatrixXd& A,
                                                    const Eigen::MatrixXd& B,
                                                    const Eigen::MatrixXd& X) const {
    Eigen::MatrixXd S = (X * B) * X.transpose();
    if (excludeSelf_ && X.rows() > 1)
        S.diagonal().setConstant(-std::numeric_limits<double>::infinity());
    const Eigen::VectorXd mx = S.rowwise().maxCoeff();
    Eigen::MatrixXd W = (S.colwise() - mx).array().exp().matrix();
    W.array().colwise() /= W.rowwise().sum().array();
    return W * X * A.transpose();
}

double SoftmaxAttentionRegression::loss(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                        const SequenceSet& data, std::span<const int> units,
                                        Eigen::MatrixXd* gA, Eigen::MatrixXd* gB,
                                        WorkerPool* pool) const {
    const int count = units.empty() ? data.sequences() : static_cast<int>(units.size());
    if (count == 0) return 0.0;
    const int n = static_cast<int>(data.X[0].rows());
    const int d = static_cast<int>(A.cols());
    const int k = static_cast<int>(A.rows());
    const bool wantGrad = gA || gB;
    const double scale = 1.0 / (static_cast<double>(count) * n);  // G = (F - Y) / (P n)
    const bool excludeSelf = excludeSelf_ && n > 1;

    const int bs = blockRows(n);
    const int blocksPerSeq = (n + bs - 1) / bs;
    const int items = count * blocksPerSeq;
    std::vector<Partial> partials(items);
    // Per-sequence products shared by its blocks: Q = X B (so S = Q X^T), Z = X A^T.
    std::vector<Eigen::MatrixXd> Qs(count), Zs(count);

    auto seqIndex = [&](int u) { return units.empty() ? u : units[u]; };
    auto prepare = [&](int u) {
        const Eigen::MatrixXd& X = data.X[seqIndex(u)];
        Qs[u].noalias() = X * B;
        Zs[u].noalias() = X * A.transpose();
    };
    auto work = [&](int item) {
        thread_local Scratch s;
        const int u = item / blocksPerSeq;
        const int r0 = (item % blocksPerSeq) * bs;
        const int b = std::min(bs, n - r0);
        const Eigen::MatrixXd& X = data.X[seqIndex(u)];
        const Eigen::MatrixXd& Y = data.Y[seqIndex(u)];
        Partial& p = partials[item];

        // Scores and row softmax (row maximum subtracted before exp).
        s.W.resize(b, n);
        s.W.noalias() = Qs[u].middleRows(r0, b) * X.transpose();
        if (excludeSelf)
            for (int i = 0; i < b; ++i) s.W(i, r0 + i) = -std::numeric_limits<double>::infinity();
        const Eigen::VectorXd mx = s.W.rowwise().maxCoeff();
        s.W = (s.W.colwise() - mx).array().exp().matrix();
        const Eigen::VectorXd rs = s.W.rowwise().sum();
        s.W.array().colwise() /= rs.array();

        // F = W X A^T, residual.
        s.WX.resize(b, d);
        s.WX.noalias() = s.W * X;
        Eigen::MatrixXd F = s.WX * A.transpose();
        F -= Y.middleRows(r0, b);  // F now holds the residual F - Y
        p.sse = F.squaredNorm();
        if (!wantGrad) return;

        const Eigen::MatrixXd G = F * scale;  // b x k
        p.gA.noalias() = G.transpose() * s.WX;  // dL/dA = G^T (W X)
        // c_i = rowsum(dW . W)_i = g_i . f_i  with f = F + Y = prediction.
        const Eigen::VectorXd c =
            (G.array() * (F + Y.middleRows(r0, b)).array()).rowwise().sum().matrix();
        // dW = G (X A^T)^T = (G A) X^T;  dS = W . (dW - c 1^T);  dB += X_blk^T dS X.
        s.GA.noalias() = G * A;
        s.T.resize(b, n);
        s.T.noalias() = s.GA * X.transpose();
        s.T.array() *= s.W.array();
        Eigen::MatrixXd dSX = s.T * X;            // (W . dW) X
        dSX -= c.asDiagonal() * s.WX;             // - c (W X)
        p.gB.noalias() = X.middleRows(r0, b).transpose() * dSX;
    };

    if (pool && pool->threads() > 1) {
        pool->run(count, prepare);
        pool->run(items, work);
    } else {
        for (int u = 0; u < count; ++u) prepare(u);
        for (int i = 0; i < items; ++i) work(i);
    }

    double sse = 0.0;
    if (gA) gA->setZero(k, d);
    if (gB) gB->setZero(d, d);
    for (const auto& p : partials) {
        sse += p.sse;
        if (gA) *gA += p.gA;
        if (gB) *gB += p.gB;
    }
    return 0.5 * sse * scale;
}

}  // namespace ade
