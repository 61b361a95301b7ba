#pragma once
// The thin matrix products of the attention kernel's blocked path (d > 4,
// core/models/SoftmaxAttentionRegression.cpp), register-blocked on Eigen packets:
//   S = Q X^T    (b x d times d x n, the scores and dW = (G A) X^T), and
//   C = L X      (b x n times n x d, W X = E X and dS X),
// with one dimension d (16 in the presets); also Darcy stage 2's per-sample products
// (core/models/VitRegressor.cpp lossQK: T = 64 tokens, width 32, p^2 = 16). Eigen's general
// GEMM packs both operands for every call and reached 15-45 GFlop/s on one thread on these
// shapes against a dense-matmul peak of about 63 (bench/ade-bench --roofline,
// docs/performance.md "Roofline"); here every output
// element is one fixed sequence of FMAs (so the results do not depend on the thread count, and
// the loss with and without its gradient stay bit-identical), with the operands streamed from
// L1/L2 and the accumulators in registers.
#include <Eigen/Core>

#include "models/VectorExp.h"

namespace ade::blockprod {

namespace ei = Eigen::internal;
using Eigen::Index;
using vexp::kLanesOf;
using vexp::PacketOf;

template <typename T>
using RowMatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;

// Small fixed-trip loops over tile rows and packets are unrolled before scalar replacement, so
// that the accumulators live in registers (without it, GCC kept a tile of 24 on the stack
// around the loop over f: 20% slower).
#define ADE_TILE_UNROLL _Pragma("GCC unroll 16")

// What scores() does to a tile of S while it is still in registers, saving a pass over S.
template <typename T>
struct ScoresEpilogue {
    // S = (Q X^T) .* times (b x n, row-major like S; may be S itself: every entry is read
    // before it is written): dS = E .* dW
    const T* times = nullptr;
    T* rowMax = nullptr;  // rowMax[i] = max over j of S(i, j): the softmax's shift
};

// Rows [i0, i0 + R) of S = Q X^T for j in [j0, j0 + J * L): Q is b x d (column-major, leading
// dimension ldq), X is n x d (column-major, leading dimension ldx: column f holds x_f over all
// tokens j). maxAcc (R packets, or null): the running maxima of the rows' stored values.
template <typename T, int R, int J>
inline void scoresTile(const T* q, Index ldq, const T* x, Index ldx, Index d, Index i0, Index j0,
                       T* s, Index lds, const T* times, PacketOf<T>* maxAcc) {
    using P = PacketOf<T>;
    constexpr int L = kLanesOf<T>;
    P acc[R][J];
    ADE_TILE_UNROLL
    for (int r = 0; r < R; ++r)
        ADE_TILE_UNROLL
        for (int c = 0; c < J; ++c)
            acc[r][c] = ei::pzero(P{});
    for (Index f = 0; f < d; ++f) {
        P xv[J];
        ADE_TILE_UNROLL
        for (int c = 0; c < J; ++c)
            xv[c] = ei::ploadu<P>(x + f * ldx + j0 + c * L);
        ADE_TILE_UNROLL
        for (int r = 0; r < R; ++r) {
            const P qv = ei::pset1<P>(q[f * ldq + i0 + r]);
            ADE_TILE_UNROLL
            for (int c = 0; c < J; ++c)
                acc[r][c] = ei::pmadd(qv, xv[c], acc[r][c]);
        }
    }
    if (times) {
        ADE_TILE_UNROLL
        for (int r = 0; r < R; ++r)
            ADE_TILE_UNROLL
            for (int c = 0; c < J; ++c)
                acc[r][c] = ei::pmul(acc[r][c], ei::ploadu<P>(times + (i0 + r) * lds + j0 + c * L));
    }
    if (maxAcc) {
        ADE_TILE_UNROLL
        for (int r = 0; r < R; ++r)
            ADE_TILE_UNROLL
            for (int c = 0; c < J; ++c)
                maxAcc[r] = ei::pmax(maxAcc[r], acc[r][c]);
    }
    ADE_TILE_UNROLL
    for (int r = 0; r < R; ++r)
        ADE_TILE_UNROLL
        for (int c = 0; c < J; ++c)
            ei::pstoreu(s + (i0 + r) * lds + j0 + c * L, acc[r][c]);
}

// The tiles of rows [i0, i0 + R) of S over every packet of keys but the last n % L keys: 3
// packets at a time, then the 0-2 packets left; the epilogue's row maxima over those keys.
template <typename T, int R>
inline void scoresRows(const T* q, Index ldq, const T* x, Index ldx, Index n, Index d, Index i0,
                       T* s, const ScoresEpilogue<T>& ep) {
    using P = PacketOf<T>;
    constexpr int L = kLanesOf<T>;
    const Index nOne = n - n % L, nWide = nOne - nOne % (3 * L);
    P maxAcc[R];
    for (int r = 0; r < R; ++r)
        maxAcc[r] = ei::pset1<P>(-std::numeric_limits<T>::infinity());
    P* const mx = ep.rowMax ? maxAcc : nullptr;
    for (Index j = 0; j < nWide; j += 3 * L)
        scoresTile<T, R, 3>(q, ldq, x, ldx, d, i0, j, s, n, ep.times, mx);
    if (nOne - nWide == 2 * L)
        scoresTile<T, R, 2>(q, ldq, x, ldx, d, i0, nWide, s, n, ep.times, mx);
    else if (nOne > nWide)
        scoresTile<T, R, 1>(q, ldq, x, ldx, d, i0, nWide, s, n, ep.times, mx);
    if (ep.rowMax)
        for (int r = 0; r < R; ++r)
            ep.rowMax[i0 + r] = ei::predux_max(maxAcc[r]);
}

// Rows per score tile: with 32 vector registers (AVX-512) 8 rows x 3 packets, 24 independent
// FMA chains, each loaded packet of X used by 8 rows (at d = 16 on one thread of the Zen 4 test
// machine: 50-55 GFlop/s against 30-35 with 4 rows; E X's rowsTimes runs at 50-56); with 16
// registers 4 rows (12 chains), so that the accumulators stay in registers.
constexpr int kScoreRows = EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32 ? 8 : 4;

// S (b x n, row-major, contiguous) = Q (b x d) X^T with the epilogue's product and row maxima:
// Q column-major with leading dimension ldq, X (n x d) column-major with leading dimension ldx
// (so Q and X may be row blocks of taller matrices). Any d. Tiles of kScoreRows rows, then 4,
// then one at a time.
template <typename T>
void scores(const T* q, Index ldq, Index b, const T* x, Index ldx, Index n, Index d, T* s,
            const ScoresEpilogue<T>& ep = {}) {
    constexpr int L = kLanesOf<T>;
    const Index nOne = n - n % L;
    Index i = 0;
    if constexpr (kScoreRows > 4)
        for (; i + kScoreRows <= b; i += kScoreRows)
            scoresRows<T, kScoreRows>(q, ldq, x, ldx, n, d, i, s, ep);
    for (; i + 4 <= b; i += 4)
        scoresRows<T, 4>(q, ldq, x, ldx, n, d, i, s, ep);
    for (; i < b; ++i)
        scoresRows<T, 1>(q, ldq, x, ldx, n, d, i, s, ep);
    // The last n % L tokens: the same sum in the same order, one element at a time.
    for (Index r = 0; r < b; ++r)
        for (Index j = nOne; j < n; ++j) {
            T v = T(0);
            for (Index f = 0; f < d; ++f)
                v = ei::pmadd(q[f * ldq + r], x[f * ldx + j], v);
            if (ep.times) v *= ep.times[r * n + j];
            if (ep.rowMax) ep.rowMax[r] = std::max(ep.rowMax[r], v);
            s[r * n + j] = v;
        }
}

// S (b x n, row-major) = Q (b x d) X^T, X n x d, both column-major and whole.
template <typename T>
void scores(const MatrixT<T>& Q, const MatrixT<T>& X, RowMatrixT<T>& S,
            const ScoresEpilogue<T>& ep = {}) {
    S.resize(Q.rows(), X.rows());
    scores<T>(Q.data(), Q.rows(), Q.rows(), X.data(), X.rows(), X.rows(), Q.cols(), S.data(), ep);
}

// Rows [i0, i0 + R) of C = Lm Xr: Lm b x n row-major, Xr n x (DP * L) row-major, C row-major.
template <typename T, int R, int DP>
inline void rowsTile(const T* lm, Index n, const T* xr, Index i0, T* c) {
    using P = PacketOf<T>;
    constexpr int L = kLanesOf<T>;
    constexpr Index d = DP * L;
    P acc[R][DP];
    ADE_TILE_UNROLL
    for (int r = 0; r < R; ++r)
        ADE_TILE_UNROLL
        for (int p = 0; p < DP; ++p)
            acc[r][p] = ei::pzero(P{});
    for (Index j = 0; j < n; ++j) {
        P xv[DP];
        ADE_TILE_UNROLL
        for (int p = 0; p < DP; ++p)
            xv[p] = ei::ploadu<P>(xr + j * d + p * L);
        ADE_TILE_UNROLL
        for (int r = 0; r < R; ++r) {
            const P e = ei::pset1<P>(lm[(i0 + r) * n + j]);
            ADE_TILE_UNROLL
            for (int p = 0; p < DP; ++p)
                acc[r][p] = ei::pmadd(e, xv[p], acc[r][p]);
        }
    }
    ADE_TILE_UNROLL
    for (int r = 0; r < R; ++r)
        ADE_TILE_UNROLL
        for (int p = 0; p < DP; ++p)
            ei::pstoreu(c + (i0 + r) * d + p * L, acc[r][p]);
}

template <typename T, int DP>
void rowsTimesFixed(const T* lm, Index b, Index n, const T* xr, T* c) {
    // Rows per tile. With 32 vector registers 8 rows (6 at four packets): up to 24 accumulators,
    // and the row blocks (8 to 256 rows, powers of two) split into whole tiles. With 16, at most
    // 12 accumulators. Never more than 8 rows: each row is a stream of broadcasts n apart, and
    // with n a power of two 12 rows map to the same L1 set and evict each other (float32 at
    // d = 16, n = 1024, one thread: 74 GFlop/s with 12 rows, 112 with 8; float64 at d = 24:
    // 28 with 4 rows, 55 with 8). The rows left over go in the widest tiles that fit, not one
    // by one (a single chain of FMAs would wait on its own latency).
    constexpr bool kWide = EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32;
    constexpr int R = DP == 1 ? 8 : DP == 2 ? (kWide ? 8 : 6) : DP == 3 ? (kWide ? 8 : 4)
                                                                        : (kWide ? 6 : 3);
    Index i = 0;
    for (; i + R <= b; i += R)
        rowsTile<T, R, DP>(lm, n, xr, i, c);
    if constexpr (R > 4)
        for (; i + 4 <= b; i += 4)
            rowsTile<T, 4, DP>(lm, n, xr, i, c);
    for (; i + 2 <= b; i += 2)
        rowsTile<T, 2, DP>(lm, n, xr, i, c);
    for (; i < b; ++i)
        rowsTile<T, 1, DP>(lm, n, xr, i, c);
}

// Whether rowsTimes runs the register-blocked product for this d (a multiple of the packet
// size, at most four packets); otherwise it falls back to Eigen's GEMM.
template <typename T>
constexpr bool rowsTimesBlocked(Index d) {
    constexpr int L = kLanesOf<T>;
    return L > 1 && d % L == 0 && d / L >= 1 && d / L <= 4;
}

// C (b x d) = Lm (b x n) Xr (n x d), all three row-major and contiguous (they may be row
// blocks of taller matrices).
template <typename T>
void rowsTimes(const T* lm, Index b, Index n, const T* xr, Index d, T* c) {
    constexpr int L = kLanesOf<T>;
    if (!rowsTimesBlocked<T>(d)) {
        using Map = Eigen::Map<RowMatrixT<T>>;
        using ConstMap = Eigen::Map<const RowMatrixT<T>>;
        Map(c, b, d).noalias() = ConstMap(lm, b, n) * ConstMap(xr, n, d);
        return;
    }
    switch (d / L) {
        case 1: rowsTimesFixed<T, 1>(lm, b, n, xr, c); break;
        case 2: rowsTimesFixed<T, 2>(lm, b, n, xr, c); break;
        case 3: rowsTimesFixed<T, 3>(lm, b, n, xr, c); break;
        default: rowsTimesFixed<T, 4>(lm, b, n, xr, c); break;
    }
}

// C (b x d, row-major) = Lm (b x n, row-major) X, with Xr the row-major copy of X (n x d).
template <typename T>
void rowsTimes(const RowMatrixT<T>& Lm, const RowMatrixT<T>& Xr, RowMatrixT<T>& C) {
    C.resize(Lm.rows(), Xr.cols());
    rowsTimes<T>(Lm.data(), Lm.rows(), Lm.cols(), Xr.data(), Xr.cols(), C.data());
}

}  // namespace ade::blockprod
