#pragma once
// The thin matrix products of the attention kernel's blocked path (d > 4,
// core/models/SoftmaxAttentionRegression.cpp), register-blocked on Eigen packets:
//   S = Q X^T    (b x d times d x n, the scores and dW = (G A) X^T), and
//   C = L X      (b x n times n x d, W X = E X and dS X),
// with one dimension d (16 in the presets). Eigen's general GEMM packs both operands for every
// call and reached 15-45 GFlop/s on one thread on these shapes against a dense-matmul peak of
// about 63 (bench/ade-bench --roofline, docs/performance.md "Roofline"); here every output
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

// Rows [i0, i0 + R) of S = Q X^T for j in [j0, j0 + J * L): Q is b x d (column-major, ldq = b),
// X is n x d (column-major: column f holds x_f over all tokens j).
template <typename T, int R, int J>
inline void scoresTile(const T* q, Index ldq, const T* x, Index n, Index d, Index i0, Index j0,
                       T* s, Index lds) {
    using P = PacketOf<T>;
    constexpr int L = kLanesOf<T>;
    P acc[R][J];
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < J; ++c)
            acc[r][c] = ei::pzero(P{});
    for (Index f = 0; f < d; ++f) {
        P xv[J];
        for (int c = 0; c < J; ++c)
            xv[c] = ei::ploadu<P>(x + f * n + j0 + c * L);
        for (int r = 0; r < R; ++r) {
            const P qv = ei::pset1<P>(q[f * ldq + i0 + r]);
            for (int c = 0; c < J; ++c)
                acc[r][c] = ei::pmadd(qv, xv[c], acc[r][c]);
        }
    }
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < J; ++c)
            ei::pstoreu(s + (i0 + r) * lds + j0 + c * L, acc[r][c]);
}

// S (b x n, row-major) = Q (b x d) X^T, X n x d column-major. Any d.
template <typename T>
void scores(const MatrixT<T>& Q, const MatrixT<T>& X, RowMatrixT<T>& S) {
    constexpr int L = kLanesOf<T>;
    const Index b = Q.rows(), d = Q.cols(), n = X.rows();
    S.resize(b, n);
    const T* q = Q.data();
    const T* x = X.data();
    T* s = S.data();
    // Tiles of 4 rows x 3 packets: 12 independent FMA chains (more than FMA latency x ports).
    constexpr int J = 3;
    const Index nOne = n - n % L, nWide = nOne - nOne % (J * L);
    Index i = 0;
    for (; i + 4 <= b; i += 4) {
        for (Index j = 0; j < nWide; j += J * L)
            scoresTile<T, 4, J>(q, b, x, n, d, i, j, s, n);
        for (Index j = nWide; j < nOne; j += L)
            scoresTile<T, 4, 1>(q, b, x, n, d, i, j, s, n);
    }
    for (; i < b; ++i) {
        for (Index j = 0; j < nWide; j += J * L)
            scoresTile<T, 1, J>(q, b, x, n, d, i, j, s, n);
        for (Index j = nWide; j < nOne; j += L)
            scoresTile<T, 1, 1>(q, b, x, n, d, i, j, s, n);
    }
    // The last n % L tokens: the same sum in the same order, one element at a time.
    for (Index r = 0; r < b; ++r)
        for (Index j = nOne; j < n; ++j) {
            T v = T(0);
            for (Index f = 0; f < d; ++f)
                v = ei::pmadd(q[f * b + r], x[f * n + j], v);
            s[r * n + j] = v;
        }
}

// Rows [i0, i0 + R) of C = Lm Xr: Lm b x n row-major, Xr n x (DP * L) row-major, C row-major.
template <typename T, int R, int DP>
inline void rowsTile(const T* lm, Index n, const T* xr, Index i0, T* c) {
    using P = PacketOf<T>;
    constexpr int L = kLanesOf<T>;
    constexpr Index d = DP * L;
    P acc[R][DP];
    for (int r = 0; r < R; ++r)
        for (int p = 0; p < DP; ++p)
            acc[r][p] = ei::pzero(P{});
    for (Index j = 0; j < n; ++j) {
        P xv[DP];
        for (int p = 0; p < DP; ++p)
            xv[p] = ei::ploadu<P>(xr + j * d + p * L);
        for (int r = 0; r < R; ++r) {
            const P e = ei::pset1<P>(lm[(i0 + r) * n + j]);
            for (int p = 0; p < DP; ++p)
                acc[r][p] = ei::pmadd(e, xv[p], acc[r][p]);
        }
    }
    for (int r = 0; r < R; ++r)
        for (int p = 0; p < DP; ++p)
            ei::pstoreu(c + (i0 + r) * d + p * L, acc[r][p]);
}

template <typename T, int DP>
void rowsTimesFixed(const RowMatrixT<T>& Lm, const RowMatrixT<T>& Xr, RowMatrixT<T>& C) {
    // Twelve accumulators (more than FMA latency x ports), in 16 of the registers at most; the
    // rows left over (blocks of 8 rows at n = 4096) in the widest tiles that fit, not one by
    // one (a single chain of FMAs would wait on its own latency).
    constexpr int R = DP == 1 ? 12 : DP == 2 ? 6 : DP == 3 ? 4 : 3;
    const Index b = Lm.rows(), n = Lm.cols();
    const T* lm = Lm.data();
    const T* xr = Xr.data();
    T* c = C.data();
    Index i = 0;
    for (; i + R <= b; i += R)
        rowsTile<T, R, DP>(lm, n, xr, i, c);
    if constexpr (R > 8)
        for (; i + 8 <= b; i += 8)
            rowsTile<T, 8, DP>(lm, n, xr, i, c);
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

// C (b x d, row-major) = Lm (b x n, row-major) X, with Xr the row-major copy of X (n x d).
template <typename T>
void rowsTimes(const RowMatrixT<T>& Lm, const RowMatrixT<T>& Xr, RowMatrixT<T>& C) {
    constexpr int L = kLanesOf<T>;
    const Index d = Xr.cols();
    C.resize(Lm.rows(), d);
    if (!rowsTimesBlocked<T>(d)) {
        C.noalias() = Lm * Xr;
        return;
    }
    switch (d / L) {
        case 1: rowsTimesFixed<T, 1>(Lm, Xr, C); break;
        case 2: rowsTimesFixed<T, 2>(Lm, Xr, C); break;
        case 3: rowsTimesFixed<T, 3>(Lm, Xr, C); break;
        default: rowsTimesFixed<T, 4>(Lm, Xr, C); break;
    }
}

}  // namespace ade::blockprod
