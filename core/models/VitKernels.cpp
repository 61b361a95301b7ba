// The ViT regressor's loss and gradients, its stage-2 frozen parts and stage-2 loss (VitRegressor::
// loss, freeze, lossQK: Darcy's hot path), compiled once per instruction-set level
// (util/KernelDispatch.h).
#include "models/VitKernels.h"

#include <cmath>
#include <vector>

#include "models/BlockProducts.h"
#include "models/VectorExp.h"
#include "util/ChunkedParallel.h"
#include "util/WorkerPool.h"

namespace ade {

namespace {

using Index = VitRegressor::Index;
constexpr auto E = VitRegressor::E, bE = VitRegressor::bE, WQ = VitRegressor::WQ,
               WK = VitRegressor::WK, WV = VitRegressor::WV, WO = VitRegressor::WO,
               bO = VitRegressor::bO;
using RowMatrix = VitRegressor::RowMatrix;
using FrozenParts = VitRegressor::FrozenParts;

constexpr int kChunk = 8;  // samples per work item: whole-chunk GEMMs for the linear maps
// Stage 2 (lossQK): a minibatch of the default size 8 still makes 4 work items for the pool.
constexpr int kChunkQK = 2;

double loss(const VitRegressor& net, const ParamSet& p, const PatchTokens& data,
            std::span<const int> units, ParamSet* grad, bool onlyQK, WorkerPool* pool,
            Eigen::MatrixXd* prediction) {
    const int count = units.empty() ? data.samples : static_cast<int>(units.size());
    const int T = data.tokens;
    const double norm = 1.0 / (static_cast<double>(count) * T * net.outDim());
    const double invScale = 1.0 / std::sqrt(static_cast<double>(net.width()));
    const int chunks = chunkCount(count, kChunk);
    std::vector<double> partLoss(chunks, 0.0);
    std::vector<ParamSet> partGrad(grad ? chunks : 0);
    if (prediction) prediction->resize(static_cast<Eigen::Index>(count) * T, net.outDim());
    const Eigen::MatrixXd &E_ = p[E], &WQ_ = p[WQ], &WK_ = p[WK], &WV_ = p[WV], &WO_ = p[WO];

    forEachChunk(pool, count, kChunk, [&](int c, int begin, int end) {
        const int m = end - begin;
        const Eigen::Index rows = static_cast<Eigen::Index>(m) * T;
        Eigen::MatrixXd Xc(rows, data.X.cols()), Yc(rows, data.Y.cols());
        for (int i = 0; i < m; ++i) {
            const Eigen::Index s = units.empty() ? begin + i : units[begin + i];
            Xc.middleRows(i * T, T) = data.X.middleRows(s * T, T);
            Yc.middleRows(i * T, T) = data.Y.middleRows(s * T, T);
        }
        Eigen::MatrixXd H = Xc * E_;
        H.rowwise() += p[bE].row(0);
        const Eigen::MatrixXd Q = H * WQ_, K = H * WK_, V = H * WV_;
        std::vector<Eigen::MatrixXd> attn(m);
        Eigen::MatrixXd Z = H;
        for (int i = 0; i < m; ++i) {
            Eigen::MatrixXd& A = attn[i];
            A.noalias() = Q.middleRows(i * T, T) * K.middleRows(i * T, T).transpose();
            A *= invScale;
            A = (A.colwise() - A.rowwise().maxCoeff()).array().exp().matrix();
            A.array().colwise() /= A.rowwise().sum().array();
            Z.middleRows(i * T, T).noalias() += A * V.middleRows(i * T, T);
        }
        Eigen::MatrixXd R = Z * WO_;
        R.rowwise() += p[bO].row(0);
        if (prediction) prediction->middleRows(static_cast<Eigen::Index>(begin) * T, rows) = R;
        R -= Yc;
        partLoss[c] = 0.5 * norm * R.squaredNorm();
        if (!grad) return;

        ParamSet& g = partGrad[c];
        g = p.zerosLike();
        R *= norm;  // G = dLoss/dYhat
        const Eigen::MatrixXd dZ = R * WO_.transpose();
        if (!onlyQK) {
            g[WO].noalias() = Z.transpose() * R;
            g[bO] = R.colwise().sum();
        }
        Eigen::MatrixXd dQ(rows, net.width()), dK(rows, net.width()), dV;
        if (!onlyQK) dV.resize(rows, net.width());
        Eigen::MatrixXd dA, dS;
        for (int i = 0; i < m; ++i) {
            const Eigen::MatrixXd& A = attn[i];
            const auto dZi = dZ.middleRows(i * T, T);
            dA.noalias() = dZi * V.middleRows(i * T, T).transpose();
            const Eigen::VectorXd rs = dA.cwiseProduct(A).rowwise().sum();
            dS = (A.array() * (dA.colwise() - rs).array()).matrix() * invScale;
            dQ.middleRows(i * T, T).noalias() = dS * K.middleRows(i * T, T);
            dK.middleRows(i * T, T).noalias() = dS.transpose() * Q.middleRows(i * T, T);
            if (!onlyQK) dV.middleRows(i * T, T).noalias() = A.transpose() * dZi;
        }
        g[WQ].noalias() = H.transpose() * dQ;
        g[WK].noalias() = H.transpose() * dK;
        if (onlyQK) return;
        g[WV].noalias() = H.transpose() * dV;
        Eigen::MatrixXd dH = dZ;  // residual
        dH.noalias() += dQ * WQ_.transpose();
        dH.noalias() += dK * WK_.transpose();
        dH.noalias() += dV * WV_.transpose();
        g[E].noalias() = Xc.transpose() * dH;
        g[bE] = dH.colwise().sum();
    });
    double total = 0.0;
    for (int c = 0; c < chunks; ++c) {
        total += partLoss[c];
        if (grad)
            for (std::size_t k = 0; k < grad->size(); ++k)
                (*grad)[k] += partGrad[c][k];
    }
    return total;
}

VitRegressor::FrozenParts freeze(const VitRegressor& net, const ParamSet& p,
                                 const PatchTokens& data, WorkerPool* pool) {
    FrozenParts f;
    f.at = p;
    const int T = data.tokens;
    const Eigen::Index rows = static_cast<Eigen::Index>(data.samples) * T;
    f.H.resize(rows, net.width());
    f.VO.resize(rows, net.outDim());
    f.base.resize(rows, net.outDim());
    f.Y = data.Y;
    const Eigen::MatrixXd VWO = p[WV] * p[WO];
    forEachChunk(pool, data.samples, kChunk, [&](int, int begin, int end) {
        const Eigen::Index r0 = static_cast<Eigen::Index>(begin) * T, n = (end - begin) * T;
        Eigen::MatrixXd H = data.X.middleRows(r0, n) * p[E];
        H.rowwise() += p[bE].row(0);
        f.VO.middleRows(r0, n).noalias() = H * VWO;
        Eigen::MatrixXd base = H * p[WO];
        base.rowwise() += p[bO].row(0);
        f.base.middleRows(r0, n) = base;
        f.H.middleRows(r0, n) = H;
    });
    return f;
}

double lossQK(const VitRegressor& net, const ParamSet& p, const PatchTokens& data,
              const VitRegressor::FrozenParts& fz, std::span<const int> units, ParamSet* grad,
              WorkerPool* pool, Eigen::MatrixXd* prediction) {
    const int count = units.empty() ? data.samples : static_cast<int>(units.size());
    const int T = data.tokens;
    const double norm = 1.0 / (static_cast<double>(count) * T * net.outDim());
    const double invScale = 1.0 / std::sqrt(static_cast<double>(net.width()));
    const Eigen::MatrixXd Bm = p[WQ] * p[WK].transpose() * invScale;  // merged key-query
    const Eigen::MatrixXd BmT = Bm.transpose();
    const int chunks = chunkCount(count, kChunkQK);
    std::vector<double> partLoss(chunks, 0.0);
    std::vector<RowMatrix> partB(grad ? chunks : 0);
    if (prediction) prediction->resize(static_cast<Eigen::Index>(count) * T, net.outDim());

    forEachChunk(pool, count, kChunkQK, [&](int c, int begin, int end) {
        const int m = end - begin;
        const Eigen::Index rows = static_cast<Eigen::Index>(m) * T;
        const Eigen::Index o = net.outDim(), e = net.width();
        // The chunk's tokens row-major (for dS H) and column-major (keys of the score products),
        // and its V W_O column-major (keys of dA = G (V W_O)^T).
        RowMatrix Hc(rows, net.width()), M;
        Eigen::MatrixXd VOc(rows, net.outDim());
        for (int i = 0; i < m; ++i) {
            const Eigen::Index s = units.empty() ? begin + i : units[begin + i];
            Hc.middleRows(i * T, T) = fz.H.middleRows(s * T, T);
            VOc.middleRows(i * T, T) = fz.VO.middleRows(s * T, T);
        }
        const Eigen::MatrixXd Hcol = Hc;
        // H B column-major, as its transpose B^T H^T row-major: a score product (e x rows).
        Eigen::MatrixXd HB(rows, net.width());
        blockprod::scores<double>(BmT.data(), e, e, Hcol.data(), rows, rows, e, HB.data());
        if (grad) M.resize(rows, net.width());
        // Per sample, the forward pass and at once its share of the gradient (the residual of
        // sample i involves only sample i's attention). The T x T products are the
        // register-blocked ones of the attention kernel (models/BlockProducts.h) with their
        // epilogues: the scores' row maxima, and dA .* A formed as dA is; the softmax runs
        // along the rows with the kernels' exp.
        RowMatrix A(T, T), dS(T, T), Ri(T, net.outDim()), AV(T, net.outDim());
        Eigen::MatrixXd Gi(T, net.outDim());
        Eigen::VectorXd mx(T);
        double sq = 0.0;
        for (int i = 0; i < m; ++i) {
            const Eigen::Index s = units.empty() ? begin + i : units[begin + i];
            const double* VOi = fz.VO.data() + s * T * o;  // row-major T x o
            blockprod::scores<double>(HB.data() + i * T, rows, T, Hcol.data() + i * T, rows, T, e,
                                      A.data(), {.rowMax = mx.data()});
            vexp::softmaxRows<double>(A.data(), T, T, mx.data());
            blockprod::rowsTimes<double>(A.data(), T, T, VOi, o, AV.data());
            Ri = fz.base.middleRows(s * T, T) + AV;
            if (prediction)
                prediction->middleRows((static_cast<Eigen::Index>(begin) + i) * T, T) = Ri;
            Ri -= fz.Y.middleRows(s * T, T);
            sq += Ri.squaredNorm();
            if (!grad) continue;
            Gi = Ri * norm;  // G = dLoss/dYhat, column-major as the left factor of dA
            // dS = A .* (dA - rowsum(dA .* A)) with dA = G (V W_O)^T: dA .* A from the product,
            // then minus A times its row sum.
            blockprod::scores<double>(Gi.data(), T, T, VOc.data() + i * T, rows, T, o, dS.data(),
                                      {.times = A.data()});
            for (Eigen::Index r = 0; r < T; ++r)
                dS.row(r) -= dS.row(r).sum() * A.row(r);
            blockprod::rowsTimes<double>(dS.data(), T, T, Hc.data() + i * T * e, e,
                                         M.data() + i * T * e);
        }
        partLoss[c] = 0.5 * norm * sq;
        // d loss / d(W_Q W_K^T / sqrt(e)) = H^T M: a score product with Q = H^T (H row-major is
        // H^T column-major) and X = M^T (likewise), summed over the chunk's rows.
        if (grad) {
            partB[c].resize(net.width(), net.width());
            blockprod::scores<double>(Hc.data(), e, e, M.data(), e, e, rows, partB[c].data());
        }
    });
    double total = 0.0;
    RowMatrix dB;
    if (grad) dB.setZero(net.width(), net.width());
    for (int c = 0; c < chunks; ++c) {
        total += partLoss[c];
        if (grad) dB += partB[c];
    }
    if (grad) {
        (*grad)[WQ].noalias() += invScale * dB * p[WK];
        (*grad)[WK].noalias() += invScale * dB.transpose() * p[WQ];
    }
    return total;
}

}  // namespace

}  // namespace ade

namespace ade::kernels::vit {
const VitKernels* ADE_KERNEL_LEVEL() {
    static const VitKernels table{&loss, &freeze, &lossQK};
    return &table;
}
}  // namespace ade::kernels::vit
