// Experiment A's attention loss and gradients (SoftmaxAttentionRegression::loss), compiled once
// per instruction-set level (util/KernelDispatch.h): the fused small-d kernel, the blocked
// general-d path, their vectorised exp and register-blocked products.
#include "models/SoftmaxAttentionKernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <cstdint>

#include "util/WorkerPool.h"

// No implicit contraction of a * b + c into FMAs in this file (GCC's default for C++): where it
// happens depends on the surrounding code, so the loss alone and the loss computed with its
// gradient would differ in the last bit. The kernels use explicit FMAs where they matter. (The
// kernels' own headers come after it, so that it holds for them too.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "models/BlockProducts.h"
#include "models/VectorExp.h"

namespace ade {

namespace {

using Eigen::Index;
template <typename T>
using RowMatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
namespace ei = Eigen::internal;
// The kernels are templates on the scalar T: double (the reference) or float (precision =
// float32, twice the lanes per packet).
using vexp::expNonPositive;
using vexp::expNonPositiveScalar;
using vexp::kLanesOf;
using vexp::PacketOf;

// Lane mask (all bits set) for the lanes j0 + l < limit, l = 0..lanes-1.
template <typename T>
inline PacketOf<T> lanesBelow(Index j0, Index limit) {
    constexpr int L = kLanesOf<T>;
    alignas(64) T m[L];
    for (int l = 0; l < L; ++l)
        m[l] = j0 + l < limit ? T(1) : T(0);
    return ei::pcmp_lt(ei::pzero(PacketOf<T>{}), ei::pload<PacketOf<T>>(m));
}
template <typename T>
inline PacketOf<T> laneEquals(Index j0, Index j) {
    constexpr int L = kLanesOf<T>;
    alignas(64) T m[L];
    for (int l = 0; l < L; ++l)
        m[l] = j0 + l == j ? T(1) : T(0);
    return ei::pcmp_lt(ei::pzero(PacketOf<T>{}), ei::pload<PacketOf<T>>(m));
}

// Small fixed-trip loops over d must be unrolled before scalar replacement, or the kernel's
// running sums live on the stack instead of in registers.
#define ADE_UNROLL _Pragma("GCC unroll 16")

// out[k] = the sum of the lanes of a[k], k < N. On AVX-512 in double eight packets at a time
// by a transposing tree (unpack, add, shuffle 128-bit lanes, add: 21 operations for 8 sums,
// against about 7 each one by one: the small-d kernel reduces 15 packets per query row).
template <typename T, int N>
inline void reduceLanes(const PacketOf<T> (&a)[N], T* out) {
#if defined(EIGEN_VECTORIZE_AVX512)
    if constexpr (std::is_same_v<T, double>) {
        constexpr int N8 = (N + 7) / 8 * 8;
        alignas(64) double sums[N8];
        for (int k0 = 0; k0 < N; k0 += 8) {
            __m512d v[8];
            ADE_UNROLL
            for (int k = 0; k < 8; ++k)
                v[k] = k0 + k < N ? a[k0 + k < N ? k0 + k : 0] : _mm512_setzero_pd();
            __m512d p[4];  // 128-bit lane l of p[m]: pair sums of lanes 2l, 2l+1 of v[2m], v[2m+1]
            ADE_UNROLL
            for (int m = 0; m < 4; ++m)
                p[m] = _mm512_add_pd(_mm512_unpacklo_pd(v[2 * m], v[2 * m + 1]),
                                     _mm512_unpackhi_pd(v[2 * m], v[2 * m + 1]));
            __m512d q[2];  // lanes: (v[4h..4h+1]) over 128-bit lanes 0+1 and 2+3, (v[4h+2..4h+3])
                           // likewise
            ADE_UNROLL
            for (int h = 0; h < 2; ++h)
                q[h] = _mm512_add_pd(_mm512_shuffle_f64x2(p[2 * h], p[2 * h + 1], 0x88),
                                     _mm512_shuffle_f64x2(p[2 * h], p[2 * h + 1], 0xDD));
            _mm512_store_pd(sums + k0, _mm512_add_pd(_mm512_shuffle_f64x2(q[0], q[1], 0x88),
                                                     _mm512_shuffle_f64x2(q[0], q[1], 0xDD)));
        }
        std::copy(sums, sums + N, out);
        return;
    }
#endif
    ADE_UNROLL
    for (int k = 0; k < N; ++k)
        out[k] = ei::predux(a[k]);
}

// Per work item (sequence, block of rows): squared error, dL/dA (k x d), dL/dB (d x d), stored
// flat in one buffer so that a call allocates nothing once the buffer has grown.
struct PartialLayout {
    int k, d;
    Index stride() const { return 1 + Index(k) * d + Index(d) * d; }
};

constexpr int kTile = 512;  // j per tile of the small-d kernel (4 KiB buffer)

// buf[j] <- exp(buf[j] - mx), count a multiple of the packet size. Not inlined on purpose: its
// polynomial constants would otherwise stay in registers through the caller's loops and push
// the small-d kernel's 15 running sums out to the stack.
template <typename T>
[[gnu::noinline]] void expShiftTile(T* buf, Index count, T mx) {
    using P = PacketOf<T>;
    const P mxp = ei::pset1<P>(mx);
#pragma GCC unroll 2
    for (Index j = 0; j < count; j += kLanesOf<T>)
        ei::pstore(buf + j, expNonPositive<T>(ei::psub(ei::pload<P>(buf + j), mxp)));
}

// Fused kernel for d <= 4. For row i with q_i = B^T x_i, one sweep over j computes, with an
// online (running) maximum,
//   z = sum_j e_ij,  u = sum_j e_ij x_j,  M2 = sum_j e_ij x_j x_j^T,   e_ij = exp(s_ij - max),
// from which (W X)_i = u / z and, since dW_ij = (A^T g_i) . x_j,
//   (dS X)_i = sum_j w_ij (dW_ij - c_i) x_j = (M2 / z) (A^T g_i) - c_i (W X)_i.
// So no b x n attention block is ever stored: memory traffic is X only (n x d, cache-resident).
// T = float (precision float32) sweeps over the keys in single precision (Xs = the float copy
// of X, twice the lanes); the per-query work (q_i, the normalised outputs, residuals, gradient
// sums) stays in double either way.
template <typename T, int D, bool Grad>
void rowBlockSmallD(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const MatrixT<T>& Xs,
                    const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, Index r0, Index b,
                    bool excludeSelf, double scale, double* out) {
    using Packet = PacketOf<T>;
    constexpr int kLanes = kLanesOf<T>;
    // The loss alone needs no second moment: NM = 0 drops it from the sweep.
    constexpr int NM = Grad ? D * (D + 1) / 2 : 0;
    const Index n = X.rows();
    const int k = static_cast<int>(A.rows());
    const T* xc[D];
    ADE_UNROLL
    for (int f = 0; f < D; ++f)
        xc[f] = Xs.col(f).data();
    const Index nFull = n - n % kLanes;
    const T inf = std::numeric_limits<T>::infinity();

    // Zero-padded copy of the last partial chunk so that its loads stay in bounds.
    alignas(64) T pad[D][kLanes];
    ADE_UNROLL
    for (int f = 0; f < D; ++f)
        for (int l = 0; l < kLanes; ++l)
            pad[f][l] = nFull + l < n ? xc[f][nFull + l] : T(0);
    const Index nChunks = (n + kLanes - 1) / kLanes * kLanes;
    auto load = [&](int f, Index j0) {
        return j0 == nFull ? ei::pload<Packet>(pad[f]) : ei::ploadu<Packet>(xc[f] + j0);
    };
    alignas(64) T buf[kTile];

    // Per block, not per row: the queries Q = X_blk B before the sweeps, and after them the
    // outputs, residuals and gradient sums from the rows' normalised moments (W X)_i and M2_i
    // as small matrix products (per row, scalar and through memory, they took a fifth of the
    // time at n = 256), coefficient-based (lazyProduct: Eigen's GEMM packs its operands, 3% of
    // the time on these b x 4 shapes).
    using MatD = Eigen::Matrix<double, Eigen::Dynamic, D>;
    thread_local MatD Qb, WXb, GAb, DSXb;
    thread_local Eigen::MatrixXd Fb, Gb;
    thread_local std::vector<double> M2b;  // per row, D x D column-major
    Qb.noalias() = X.middleRows(r0, b).lazyProduct(B);
    WXb.resize(b, D);
    if constexpr (Grad) M2b.resize(static_cast<std::size_t>(b) * D * D);

    for (Index i = r0; i < r0 + b; ++i) {
        Packet q[D];
        ADE_UNROLL
        for (int f = 0; f < D; ++f)
            q[f] = ei::pset1<Packet>(static_cast<T>(Qb(i - r0, f)));
        // The running sums: sums[0] = z, sums[1 + a] = u_a, sums[1 + D + t] = M2's entry t.
        constexpr int NS = 1 + D + NM;
        Packet sums[NS];
        ADE_UNROLL
        for (int t = 0; t < NS; ++t)
            sums[t] = ei::pzero(Packet{});
        Packet& z = sums[0];
        Packet* const u = sums + 1;
        Packet* const m2 = sums + 1 + D;
        T mx = -inf;
        const Index selfChunk = excludeSelf ? i - i % kLanes : -1;

        // Tiles of j: scores and the tile maximum, then exp, then the sums. The three passes
        // keep register pressure low (the exp constants and the 15 sums do not fit together)
        // and touch only the tile buffer and X, both in L1.
        for (Index t0 = 0; t0 < nChunks; t0 += kTile) {
            const Index t1 = std::min<Index>(t0 + kTile, nChunks);
            // The packets with excluded lanes (the self entry, the zero padding past n) are
            // handled apart, so that the plain loop carries no per-packet tests (on Intel the
            // tests' branches share ports with the vector operations), and two running maxima
            // (one chain of vmaxpd, latency 4, set this pass's pace).
            Packet tmax[2] = {ei::pset1<Packet>(-inf), ei::pset1<Packet>(-inf)};
            auto score = [&](Index j0, auto&& ld) {
                Packet s = ei::pmul(q[0], ld(0, j0));
                ADE_UNROLL
                for (int f = 1; f < D; ++f)
                    s = ei::pmadd(q[f], ld(f, j0), s);
                return s;
            };
            auto loadPlain = [&](int f, Index j0) { return ei::ploadu<Packet>(xc[f] + j0); };
            auto plain = [&](Index from, Index to) {  // the packets [from, to)
                Index j0 = from;
                for (; j0 + 2 * kLanes <= to; j0 += 2 * kLanes) {
                    const Packet s0 = score(j0, loadPlain), s1 = score(j0 + kLanes, loadPlain);
                    ei::pstore(buf + (j0 - t0), s0);
                    ei::pstore(buf + (j0 + kLanes - t0), s1);
                    tmax[0] = ei::pmax(tmax[0], s0);
                    tmax[1] = ei::pmax(tmax[1], s1);
                }
                if (j0 < to) {
                    const Packet s0 = score(j0, loadPlain);
                    ei::pstore(buf + (j0 - t0), s0);
                    tmax[0] = ei::pmax(tmax[0], s0);
                }
            };
            auto masked = [&](Index j0) {
                Packet keep = lanesBelow<T>(j0, n);
                if (j0 == selfChunk) keep = ei::pandnot(keep, laneEquals<T>(j0, i));
                const Packet s0 = ei::pselect(keep, score(j0, load), ei::pset1<Packet>(-inf));
                ei::pstore(buf + (j0 - t0), s0);
                tmax[0] = ei::pmax(tmax[0], s0);
            };
            // The tile's masked packets in order: the self chunk, the padded last chunk.
            Index cuts[2];
            int nCuts = 0;
            if (selfChunk >= t0 && selfChunk < t1) cuts[nCuts++] = selfChunk;
            if (nFull < n && nFull >= t0 && nFull < t1 && nFull != selfChunk) cuts[nCuts++] = nFull;
            Index from = t0;
            for (int c = 0; c < nCuts; ++c) {
                plain(from, cuts[c]);
                masked(cuts[c]);
                from = cuts[c] + kLanes;
            }
            plain(from, t1);
            tmax[0] = ei::pmax(tmax[0], tmax[1]);
            const T tm = ei::predux_max(tmax[0]);
            if (tm > mx) {  // online maximum: rescale what was summed so far
                if (mx != -inf) {
                    const Packet f = ei::pset1<Packet>(expNonPositiveScalar<T>(mx - tm));
                    z = ei::pmul(z, f);
                    ADE_UNROLL
                    for (int a = 0; a < D; ++a)
                        u[a] = ei::pmul(u[a], f);
                    ADE_UNROLL
                    for (int t = 0; t < NM; ++t)
                        m2[t] = ei::pmul(m2[t], f);
                }
                mx = tm;
            }
            expShiftTile<T>(buf, t1 - t0, mx);
            // Excluded entries (self, padding) must weigh exactly 0.
            if (excludeSelf && i >= t0 && i < t1) buf[i - t0] = T(0);
            for (Index j = std::max(n, t0); j < t1; ++j)
                buf[j - t0] = T(0);
            auto sumsAt = [&](Index j0, auto&& ld) {
                const Packet e = ei::pload<Packet>(buf + (j0 - t0));
                z = ei::padd(z, e);
                Packet xv[D];
                ADE_UNROLL
                for (int f = 0; f < D; ++f)
                    xv[f] = ld(f, j0);
                ADE_UNROLL
                for (int a = 0, t = 0; a < D; ++a) {
                    // A multiply and an add (no contraction in this file): e x_a is reused
                    // by M2, and the add goes to an adder port, not the busier FMA ports.
                    const Packet ea = ei::pmul(e, xv[a]);
                    u[a] = ei::padd(u[a], ea);
                    if constexpr (Grad) {
                        ADE_UNROLL
                        for (int c = a; c < D; ++c, ++t)
                            m2[t] = ei::pmadd(ea, xv[c], m2[t]);
                    }
                }
            };
            // The zero-padded last chunk (if in this tile) apart: no per-packet test.
            const Index plainEnd = std::min(t1, nFull);
            for (Index j0 = t0; j0 < plainEnd; j0 += kLanes)
                sumsAt(j0, loadPlain);
            if (plainEnd < t1) sumsAt(plainEnd, load);
        }

        T total[NS];
        reduceLanes<T, NS>(sums, total);
        const double invZ = 1.0 / static_cast<double>(total[0]);
        ADE_UNROLL
        for (int a = 0; a < D; ++a)
            WXb(i - r0, a) = static_cast<double>(total[1 + a]) * invZ;
        if constexpr (Grad) {
            double* M2 = M2b.data() + (i - r0) * D * D;
            ADE_UNROLL
            for (int a = 0, t = 0; a < D; ++a) {
                ADE_UNROLL
                for (int c = a; c < D; ++c, ++t)
                    M2[a + c * D] = M2[c + a * D] = static_cast<double>(total[1 + D + t]) * invZ;
            }
        }
    }

    // F = (W X) A^T, residuals G = F - Y; dL/dA = G^T (W X) (G scaled by 1 / (P n));
    // (dS X)_i = M2_i (A^T g_i) - c_i (W X)_i with c_i = g_i . f_i;  dL/dB = X_blk^T (dS X).
    Fb.noalias() = WXb.lazyProduct(A.transpose());
    Gb = Fb - Y.middleRows(r0, b);
    out[0] = Gb.squaredNorm();
    if constexpr (!Grad) {
        return;
    } else {
        Gb *= scale;
        Eigen::Map<Eigen::MatrixXd>(out + 1, k, D).noalias() = Gb.transpose().lazyProduct(WXb);
        GAb.noalias() = Gb.lazyProduct(A);
        DSXb.resize(b, D);
        for (Index r = 0; r < b; ++r) {
            const double c = Gb.row(r).dot(Fb.row(r));
            const double* M2 = M2b.data() + r * D * D;
            ADE_UNROLL
            for (int a = 0; a < D; ++a) {
                double v = -c * WXb(r, a);
                ADE_UNROLL
                for (int e = 0; e < D; ++e)
                    v += M2[a + e * D] * GAb(r, e);
                DSXb(r, a) = v;
            }
        }
        Eigen::Map<Eigen::MatrixXd>(out + 1 + k * D, D, D).noalias() =
            X.middleRows(r0, b).transpose().lazyProduct(DSXb);
    }
}

template <typename T>
struct Scratch {
    RowMatrixT<T> E, WX, dSX;
    MatrixT<T> Q, F, G, GA;
    Eigen::Matrix<T, Eigen::Dynamic, 1> invZ, c, mx;
};

// General d: blocked matrix products with one fused exp-and-sum pass over each row of the
// b x n score block; the softmax is never normalised in place (rows of the b x d results are
// scaled by 1/z instead). The four thin products with a dimension n (S = Q X^T, E X,
// (G A) X^T, dS X) are the register-blocked ones of models/BlockProducts.h (Xr: the row-major
// copy of X), the small ones Eigen's. T = float: every product in single precision (A, B, X,
// Y the float copies); the partial sums come back as double.
template <typename T>
void rowBlockGeneral(const MatrixT<T>& A, const MatrixT<T>& B, const MatrixT<T>& X,
                     const RowMatrixT<T>& Xr, const MatrixT<T>& Y, Index r0, Index b,
                     bool excludeSelf, double scale, bool wantGrad, double* out) {
    thread_local Scratch<T> s;
    const Index n = X.rows();
    const Index d = A.cols(), k = A.rows();
    const T inf = std::numeric_limits<T>::infinity();

    s.Q.noalias() = X.middleRows(r0, b) * B;
    // The row maxima come with the scores; with the self entry excluded they are taken after
    // it is set to -inf (a large self score must not become the shift of the others).
    s.mx.resize(b);
    blockprod::scores<T>(s.Q, X, s.E, {.rowMax = excludeSelf ? nullptr : s.mx.data()});
    s.invZ.resize(b);
    for (Index i = 0; i < b; ++i) {
        T* row = s.E.row(i).data();
        if (excludeSelf) {
            row[r0 + i] = -inf;
            s.mx(i) = s.E.row(i).maxCoeff();
        }
        T z = vexp::expShiftRow<T>(row, n, s.mx(i));
        if (excludeSelf) {
            z -= row[r0 + i];
            row[r0 + i] = T(0);
        }
        s.invZ(i) = T(1) / z;
    }
    blockprod::rowsTimes(s.E, Xr, s.WX);
    s.WX.array().colwise() *= s.invZ.array();
    s.F.noalias() = s.WX * A.transpose();
    s.G = s.F - Y.middleRows(r0, b);  // residual
    if constexpr (std::is_same_v<T, double>)
        out[0] = s.G.squaredNorm();
    else
        out[0] = s.G.template cast<double>().squaredNorm();
    if (!wantGrad) return;
    s.G *= static_cast<T>(scale);
    Eigen::Map<Eigen::MatrixXd> gA(out + 1, k, d), gB(out + 1 + k * d, d, d);
    // c_i = rowsum(dW . W)_i = g_i . f_i
    s.c = (s.G.array() * s.F.array()).rowwise().sum().matrix();
    // dS X = diag(1/z) (E . (G A X^T)) X - c (W X);  dL/dB += X_blk^T dS X.
    s.GA.noalias() = s.G * A;
    s.GA.array().colwise() *= s.invZ.array();
    // dS = E .* dW, written over E (each tile reads its E entries before it stores them, and E
    // is not needed after): one b x n block per thread instead of two in L2.
    blockprod::scores<T>(s.GA, X, s.E, {.times = s.E.data()});
    blockprod::rowsTimes(s.E, Xr, s.dSX);
    s.dSX -= s.c.asDiagonal() * s.WX;
    if constexpr (std::is_same_v<T, double>) {
        gA.noalias() = s.G.transpose() * s.WX;  // dL/dA = G^T (W X)
        gB.noalias() = X.middleRows(r0, b).transpose() * s.dSX;
    } else {
        gA = (s.G.transpose() * s.WX).template cast<double>();
        gB = (X.middleRows(r0, b).transpose() * s.dSX).template cast<double>();
    }
}

double loss(bool modelExcludesSelf, Precision precision, const Eigen::MatrixXd& A,
            const Eigen::MatrixXd& B, const SequenceSet& data, std::span<const int> units,
            Eigen::MatrixXd* gA, Eigen::MatrixXd* gB, WorkerPool* pool) {
    const int count = units.empty() ? data.sequences() : static_cast<int>(units.size());
    const int d = static_cast<int>(A.cols());
    const int k = static_cast<int>(A.rows());
    if (gA) gA->setZero(k, d);
    if (gB) gB->setZero(d, d);
    if (count == 0) return 0.0;
    if (!A.allFinite() || !B.allFinite()) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        if (gA) gA->setConstant(nan);
        if (gB) gB->setConstant(nan);
        return nan;
    }
    const int n = static_cast<int>(data.X[0].rows());
    const bool wantGrad = gA || gB;
    const double scale = 1.0 / (static_cast<double>(count) * n);  // G = (F - Y) / (P n)
    const bool excludeSelf = modelExcludesSelf && n > 1;

    // Work items are (sequence, block of rows); the split depends on n and d only, never on
    // the thread count, and partials are reduced in item order: bit-identical results.
    const bool small = d <= 4;
    const int bs = small ? std::clamp(16384 / std::max(n, 1), 16, 64)
                         : SoftmaxAttentionRegression::blockRows(n);
    const int blocksPerSeq = (n + bs - 1) / bs;
    const int items = count * blocksPerSeq;
    const PartialLayout layout{k, d};
    thread_local std::vector<double> partials;  // the calling thread's; workers write into it
    partials.resize(static_cast<std::size_t>(items * layout.stride()));
    double* const base = partials.data();

    auto seqIndex = [&](int u) { return units.empty() ? u : units[u]; };
    // float32: the float copies of the data (SequenceSet::makeSingleCopies), and of A and B.
    const bool single = precision == Precision::Float32;
    if (single && !data.hasSingleCopies())
        throw std::logic_error(
            "SoftmaxAttentionRegression: a float32 step needs the data's "
            "single-precision copies (SequenceSet::makeSingleCopies)");
    Eigen::MatrixXf Af, Bf;
    if (single) {
        Af = A.cast<float>();
        Bf = B.cast<float>();
    }
    // The blocked path's row-major copies of the sequences it uses (O(P n d), once per call).
    // The calling thread's; workers reach them through the pointers (a thread_local named in
    // the lambda would be the worker's own).
    thread_local std::vector<RowMatrixT<double>> rowsOf64;
    thread_local std::vector<RowMatrixT<float>> rowsOf32;
    std::vector<RowMatrixT<double>>* const rows64 = &rowsOf64;
    std::vector<RowMatrixT<float>>* const rows32 = &rowsOf32;
    if (!small) {
        if (single)
            rows32->resize(count);
        else
            rows64->resize(count);
        for (int u = 0; u < count; ++u) {
            if (single)
                (*rows32)[u] = data.Xf[seqIndex(u)];
            else
                (*rows64)[u] = data.X[seqIndex(u)];
        }
    }
    auto smallD = [&]<typename T>(const Eigen::MatrixXd& X, const MatrixT<T>& Xs,
                                  const Eigen::MatrixXd& Y, Index r0, Index b, double* out) {
        switch (d) {
            case 1:
                wantGrad
                    ? rowBlockSmallD<T, 1, true>(A, B, Xs, X, Y, r0, b, excludeSelf, scale, out)
                    : rowBlockSmallD<T, 1, false>(A, B, Xs, X, Y, r0, b, excludeSelf, scale, out);
                break;
            case 2:
                wantGrad
                    ? rowBlockSmallD<T, 2, true>(A, B, Xs, X, Y, r0, b, excludeSelf, scale, out)
                    : rowBlockSmallD<T, 2, false>(A, B, Xs, X, Y, r0, b, excludeSelf, scale, out);
                break;
            case 3:
                wantGrad
                    ? rowBlockSmallD<T, 3, true>(A, B, Xs, X, Y, r0, b, excludeSelf, scale, out)
                    : rowBlockSmallD<T, 3, false>(A, B, Xs, X, Y, r0, b, excludeSelf, scale, out);
                break;
            default:
                wantGrad
                    ? rowBlockSmallD<T, 4, true>(A, B, Xs, X, Y, r0, b, excludeSelf, scale, out)
                    : rowBlockSmallD<T, 4, false>(A, B, Xs, X, Y, r0, b, excludeSelf, scale, out);
        }
    };
    auto work = [&](int item) {
        const int u = item / blocksPerSeq;
        const Index r0 = Index(item % blocksPerSeq) * bs;
        const Index b = std::min<Index>(bs, n - r0);
        const int sq = seqIndex(u);
        const Eigen::MatrixXd& X = data.X[sq];
        const Eigen::MatrixXd& Y = data.Y[sq];
        double* out = base + item * layout.stride();
        if (small) {
            if (single)
                smallD.template operator()<float>(X, data.Xf[sq], Y, r0, b, out);
            else
                smallD.template operator()<double>(X, X, Y, r0, b, out);
            return;
        }
        std::fill(out, out + layout.stride(), 0.0);
        if (single)
            rowBlockGeneral<float>(Af, Bf, data.Xf[sq], (*rows32)[u], data.Yf[sq], r0, b,
                                   excludeSelf, scale, wantGrad, out);
        else
            rowBlockGeneral<double>(A, B, X, (*rows64)[u], Y, r0, b, excludeSelf, scale, wantGrad,
                                    out);
    };

    if (pool && pool->threads() > 1) {
        pool->run(items, work);
    } else {
        for (int i = 0; i < items; ++i)
            work(i);
    }

    double sse = 0.0;
    for (int i = 0; i < items; ++i) {
        const double* p = base + i * layout.stride();
        sse += p[0];
        if (gA) *gA += Eigen::Map<const Eigen::MatrixXd>(p + 1, k, d);
        if (gB) *gB += Eigen::Map<const Eigen::MatrixXd>(p + 1 + k * d, d, d);
    }
    return 0.5 * sse * scale;
}

}  // namespace

}  // namespace ade

namespace ade::kernels::attention {
const AttentionKernels* ADE_KERNEL_LEVEL() {
    static const AttentionKernels table{&loss};
    return &table;
}
}  // namespace ade::kernels::attention
