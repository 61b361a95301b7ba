#include "models/SoftmaxAttentionRegression.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <cstdint>

#include "util/WorkerPool.h"

// No implicit contraction of a * b + c into FMAs in this file (GCC's default for C++): where it
// happens depends on the surrounding code, so the loss alone and the loss computed with its
// gradient would differ in the last bit. The kernels use explicit FMAs where they matter.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace ade {

namespace {

using Eigen::Index;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
namespace ei = Eigen::internal;
using Packet = ei::packet_traits<double>::type;
constexpr int kLanes = static_cast<int>(sizeof(Packet) / sizeof(double));

// 2^n for a packet t = x log2(e) + (1.5 * 2^52 + 1023) whose low mantissa bits hold n + 1023.
inline Packet exponentOf(const Packet& t) {
#if defined(EIGEN_VECTORIZE_AVX512)
    return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_castpd_si512(t), 52));
#elif defined(EIGEN_VECTORIZE_AVX2)
    return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(t), 52));
#elif defined(EIGEN_VECTORIZE_AVX)
    // AVX without AVX2 has no 256-bit integer shift: do the two halves.
    const __m128i lo = _mm_slli_epi64(_mm_castpd_si128(_mm256_castpd256_pd128(t)), 52);
    const __m128i hi = _mm_slli_epi64(_mm_castpd_si128(_mm256_extractf128_pd(t, 1)), 52);
    return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_castsi128_pd(lo)), _mm_castsi128_pd(hi),
                                1);
#elif defined(EIGEN_VECTORIZE_SSE2)
    return _mm_castsi128_pd(_mm_slli_epi64(_mm_castpd_si128(t), 52));
#else
    std::uint64_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits <<= 52;
    double r;
    std::memcpy(&r, &bits, sizeof r);
    return r;
#endif
}

// exp(x) for x <= 0 (arguments below -708 give about 1e-308, never 0; callers mask excluded
// entries). Cody-Waite reduction x = n ln2 + r, |r| <= ln2/2, degree-12 Taylor polynomial
// (relative error ~2e-16), scaling by 2^n through the exponent bits: about 18 packet operations
// and no division, unlike Eigen's generic pexp. NaN propagates.
inline Packet expNonPositive(Packet x) {
    const Packet shifter = ei::pset1<Packet>(6755399441055744.0 + 1023.0);  // 1.5 * 2^52 + 1023
    x = ei::pmax(x, ei::pset1<Packet>(-708.0));
    const Packet t = ei::pmadd(x, ei::pset1<Packet>(1.4426950408889634074), shifter);
    const Packet n = ei::psub(t, shifter);
    Packet r = ei::pmadd(n, ei::pset1<Packet>(-0.693145751953125), x);
    r = ei::pmadd(n, ei::pset1<Packet>(-1.42860682030941723212e-6), r);
    Packet p = ei::pset1<Packet>(1.0 / 479001600.0);  // 1/12!
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 39916800.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 3628800.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 362880.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 40320.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 5040.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 720.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 120.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 24.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0 / 6.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(0.5));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0));
    p = ei::pmadd(p, r, ei::pset1<Packet>(1.0));
    return ei::pmul(p, exponentOf(t));
}

#if !defined(EIGEN_VECTORIZE_AVX512) && !defined(EIGEN_VECTORIZE_AVX) && \
    !defined(EIGEN_VECTORIZE_SSE2)
#define ADE_SCALAR_PACKET 1
#else
inline double expNonPositive(double x) {
    return ei::pfirst(expNonPositive(ei::pset1<Packet>(x)));
}
#endif

// Lane mask (all bits set) for the lanes j0 + l < limit, l = 0..kLanes-1.
inline Packet lanesBelow(Index j0, Index limit) {
    alignas(64) double m[kLanes];
    for (int l = 0; l < kLanes; ++l)
        m[l] = j0 + l < limit ? 1.0 : 0.0;
    return ei::pcmp_lt(ei::pzero(Packet{}), ei::pload<Packet>(m));
}
inline Packet laneEquals(Index j0, Index j) {
    alignas(64) double m[kLanes];
    for (int l = 0; l < kLanes; ++l)
        m[l] = j0 + l == j ? 1.0 : 0.0;
    return ei::pcmp_lt(ei::pzero(Packet{}), ei::pload<Packet>(m));
}

// Small fixed-trip loops over d must be unrolled before scalar replacement, or the kernel's
// running sums live on the stack instead of in registers.
#define ADE_UNROLL _Pragma("GCC unroll 16")

// Per work item (sequence, block of rows): squared error, dL/dA (k x d), dL/dB (d x d), stored
// flat in one buffer so that a call allocates nothing once the buffer has grown.
struct PartialLayout {
    int k, d;
    Index stride() const { return 1 + Index(k) * d + Index(d) * d; }
};

constexpr int kTile = 512;  // j per tile of the small-d kernel (4 KiB buffer)

// buf[j] <- exp(buf[j] - mx), count a multiple of the packet size. Not inlined on purpose: its
// 13 polynomial constants would otherwise stay in registers through the caller's loops and push
// the small-d kernel's 15 running sums out to the stack.
[[gnu::noinline]] void expShiftTile(double* buf, Index count, double mx) {
    const Packet mxp = ei::pset1<Packet>(mx);
    for (Index j = 0; j < count; j += kLanes)
        ei::pstore(buf + j, expNonPositive(ei::psub(ei::pload<Packet>(buf + j), mxp)));
}

// Fused kernel for d <= 4. For row i with q_i = B^T x_i, one sweep over j computes, with an
// online (running) maximum,
//   z = sum_j e_ij,  u = sum_j e_ij x_j,  M2 = sum_j e_ij x_j x_j^T,   e_ij = exp(s_ij - max),
// from which (W X)_i = u / z and, since dW_ij = (A^T g_i) . x_j,
//   (dS X)_i = sum_j w_ij (dW_ij - c_i) x_j = (M2 / z) (A^T g_i) - c_i (W X)_i.
// So no b x n attention block is ever stored: memory traffic is X only (n x d, cache-resident).
template <int D, bool Grad>
void rowBlockSmallD(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& X,
                    const Eigen::MatrixXd& Y, Index r0, Index b, bool excludeSelf, double scale,
                    double* out) {
    // The loss alone needs no second moment: NM = 0 drops it from the sweep.
    constexpr int NM = Grad ? D * (D + 1) / 2 : 0;
    constexpr bool wantGrad = Grad;
    const Index n = X.rows();
    const int k = static_cast<int>(A.rows());
    const double* xc[D];
    ADE_UNROLL
    for (int f = 0; f < D; ++f)
        xc[f] = X.col(f).data();
    const Index nFull = n - n % kLanes;
    const double inf = std::numeric_limits<double>::infinity();
    double sse = 0;
    double* gA = out + 1;     // k x d, column-major
    double* gB = gA + k * D;  // d x d, column-major
    std::fill(out, out + 1 + k * D + D * D, 0.0);

    // Zero-padded copy of the last partial chunk so that its loads stay in bounds.
    alignas(64) double pad[D][kLanes];
    ADE_UNROLL
    for (int f = 0; f < D; ++f)
        for (int l = 0; l < kLanes; ++l)
            pad[f][l] = nFull + l < n ? xc[f][nFull + l] : 0.0;
    const Index nChunks = (n + kLanes - 1) / kLanes * kLanes;
    auto load = [&](int f, Index j0) {
        return j0 == nFull ? ei::pload<Packet>(pad[f]) : ei::ploadu<Packet>(xc[f] + j0);
    };
    alignas(64) double buf[kTile];

    for (Index i = r0; i < r0 + b; ++i) {
        Packet q[D];
        ADE_UNROLL
        for (int f = 0; f < D; ++f) {
            double v = 0;
            ADE_UNROLL
            for (int g = 0; g < D; ++g)
                v += X(i, g) * B(g, f);
            q[f] = ei::pset1<Packet>(v);
        }
        Packet z = ei::pzero(Packet{}), u[D], m2[NM > 0 ? NM : 1];
        ADE_UNROLL
        for (int f = 0; f < D; ++f)
            u[f] = ei::pzero(Packet{});
        ADE_UNROLL
        for (int t = 0; t < NM; ++t)
            m2[t] = ei::pzero(Packet{});
        double mx = -inf;
        const Index selfChunk = excludeSelf ? i - i % kLanes : -1;

        // Tiles of j: scores and the tile maximum, then exp, then the sums. The three passes
        // keep register pressure low (the exp constants and the 15 sums do not fit together)
        // and touch only the tile buffer and X, both in L1.
        for (Index t0 = 0; t0 < nChunks; t0 += kTile) {
            const Index t1 = std::min<Index>(t0 + kTile, nChunks);
            Packet tmax = ei::pset1<Packet>(-inf);
            for (Index j0 = t0; j0 < t1; j0 += kLanes) {
                Packet s = ei::pmul(q[0], load(0, j0));
                ADE_UNROLL
                for (int f = 1; f < D; ++f)
                    s = ei::pmadd(q[f], load(f, j0), s);
                if (j0 == nFull || j0 == selfChunk) {
                    Packet keep = lanesBelow(j0, n);
                    if (j0 == selfChunk) keep = ei::pandnot(keep, laneEquals(j0, i));
                    s = ei::pselect(keep, s, ei::pset1<Packet>(-inf));
                }
                ei::pstore(buf + (j0 - t0), s);
                tmax = ei::pmax(tmax, s);
            }
            const double tm = ei::predux_max(tmax);
            if (tm > mx) {  // online maximum: rescale what was summed so far
                if (mx != -inf) {
                    const Packet f = ei::pset1<Packet>(expNonPositive(mx - tm));
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
            expShiftTile(buf, t1 - t0, mx);
            // Excluded entries (self, padding) must weigh exactly 0.
            if (excludeSelf && i >= t0 && i < t1) buf[i - t0] = 0.0;
            for (Index j = std::max(n, t0); j < t1; ++j)
                buf[j - t0] = 0.0;
            for (Index j0 = t0; j0 < t1; j0 += kLanes) {
                const Packet e = ei::pload<Packet>(buf + (j0 - t0));
                z = ei::padd(z, e);
                Packet xv[D];
                ADE_UNROLL
                for (int f = 0; f < D; ++f)
                    xv[f] = load(f, j0);
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
            }
        }

        const double invZ = 1.0 / ei::predux(z);
        double wx[D], M2[D][D] = {};
        ADE_UNROLL
        for (int a = 0; a < D; ++a)
            wx[a] = ei::predux(u[a]) * invZ;
        if constexpr (Grad) {
            ADE_UNROLL
            for (int a = 0, t = 0; a < D; ++a) {
                ADE_UNROLL
                for (int c = a; c < D; ++c, ++t)
                    M2[a][c] = M2[c][a] = ei::predux(m2[t]) * invZ;
            }
        }

        // f_i = A (W X)_i, residual, gradients.
        double ga[D] = {}, cdot = 0;
        for (int r = 0; r < k; ++r) {
            double fr = 0;
            ADE_UNROLL
            for (int a = 0; a < D; ++a)
                fr += A(r, a) * wx[a];
            const double res = fr - Y(i, r);
            sse += res * res;
            if (!wantGrad) continue;
            const double g = res * scale;
            cdot += g * fr;
            ADE_UNROLL
            for (int a = 0; a < D; ++a) {
                gA[r + a * k] += g * wx[a];
                ga[a] += A(r, a) * g;
            }
        }
        if (!wantGrad) continue;
        double dsx[D];
        ADE_UNROLL
        for (int a = 0; a < D; ++a) {
            double v = -cdot * wx[a];
            ADE_UNROLL
            for (int c = 0; c < D; ++c)
                v += M2[a][c] * ga[c];
            dsx[a] = v;
        }
        ADE_UNROLL
        for (int c = 0; c < D; ++c)
            ADE_UNROLL
        for (int a = 0; a < D; ++a)
            gB[a + c * D] += X(i, a) * dsx[c];
    }
    out[0] = sse;
}

struct Scratch {
    RowMatrix E, T;
    Eigen::MatrixXd Q, WX, F, G, GA, dSX;
    Eigen::VectorXd invZ, c;
};

// General d: blocked matrix products (Eigen GEMM) with one fused exp-and-sum pass over each
// row of the b x n score block; the softmax is never normalised in place (rows of the b x d
// results are scaled by 1/z instead).
void rowBlockGeneral(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, const Eigen::MatrixXd& X,
                     const Eigen::MatrixXd& Y, Index r0, Index b, bool excludeSelf, double scale,
                     bool wantGrad, double* out) {
    thread_local Scratch s;
    const Index n = X.rows();
    const Index d = A.cols(), k = A.rows();
    const double inf = std::numeric_limits<double>::infinity();

    s.Q.noalias() = X.middleRows(r0, b) * B;
    s.E.resize(b, n);
    s.E.noalias() = s.Q * X.transpose();
    s.invZ.resize(b);
    const Index nFull = n - n % kLanes;
    for (Index i = 0; i < b; ++i) {
        double* row = s.E.row(i).data();
        if (excludeSelf) row[r0 + i] = -inf;
        const double mx = s.E.row(i).maxCoeff();
        const Packet mxp = ei::pset1<Packet>(mx);
        Packet zp = ei::pzero(Packet{});
        for (Index j = 0; j < nFull; j += kLanes) {
            const Packet e = expNonPositive(ei::psub(ei::ploadu<Packet>(row + j), mxp));
            ei::pstoreu(row + j, e);
            zp = ei::padd(zp, e);
        }
        double z = ei::predux(zp);
        for (Index j = nFull; j < n; ++j) {
            row[j] = expNonPositive(row[j] - mx);
            z += row[j];
        }
        if (excludeSelf) {
            z -= row[r0 + i];
            row[r0 + i] = 0.0;
        }
        s.invZ(i) = 1.0 / z;
    }
    s.WX.noalias() = s.E * X;
    s.WX.array().colwise() *= s.invZ.array();
    s.F.noalias() = s.WX * A.transpose();
    s.G = s.F - Y.middleRows(r0, b);  // residual
    out[0] = s.G.squaredNorm();
    if (!wantGrad) return;
    s.G *= scale;
    Eigen::Map<Eigen::MatrixXd> gA(out + 1, k, d), gB(out + 1 + k * d, d, d);
    gA.noalias() = s.G.transpose() * s.WX;  // dL/dA = G^T (W X)
    // c_i = rowsum(dW . W)_i = g_i . f_i
    s.c = (s.G.array() * s.F.array()).rowwise().sum().matrix();
    // dS X = diag(1/z) (E . (G A X^T)) X - c (W X);  dL/dB += X_blk^T dS X.
    s.GA.noalias() = s.G * A;
    s.GA.array().colwise() *= s.invZ.array();
    s.T.resize(b, n);
    s.T.noalias() = s.GA * X.transpose();
    s.T.array() *= s.E.array();
    s.dSX.noalias() = s.T * X;
    s.dSX -= s.c.asDiagonal() * s.WX;
    gB.noalias() = X.middleRows(r0, b).transpose() * s.dSX;
}

}  // namespace

int SoftmaxAttentionRegression::blockRows(int n) {
    const int target = 32768 / std::max(n, 1);  // ~256 KiB of doubles per block matrix
    return std::clamp(target, 8, 256);
}

Eigen::MatrixXd SoftmaxAttentionRegression::attention(const Eigen::MatrixXd& B,
                                                      const Eigen::MatrixXd& X) const {
    Eigen::MatrixXd S = (X * B) * X.transpose();
    if (excludeSelf_ && X.rows() > 1)
        S.diagonal().setConstant(-std::numeric_limits<double>::infinity());
    const Eigen::VectorXd mx = S.rowwise().maxCoeff();
    Eigen::MatrixXd W = (S.colwise() - mx).array().exp().matrix();
    W.array().colwise() /= W.rowwise().sum().array();
    return W;
}

Eigen::MatrixXd SoftmaxAttentionRegression::predict(const Eigen::MatrixXd& A,
                                                    const Eigen::MatrixXd& B,
                                                    const Eigen::MatrixXd& X) const {
    return attention(B, X) * X * A.transpose();
}

double SoftmaxAttentionRegression::loss(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                        const SequenceSet& data, std::span<const int> units,
                                        Eigen::MatrixXd* gA, Eigen::MatrixXd* gB,
                                        WorkerPool* pool) const {
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
    const bool excludeSelf = excludeSelf_ && n > 1;

    // Work items are (sequence, block of rows); the split depends on n and d only, never on
    // the thread count, and partials are reduced in item order: bit-identical results.
    const bool small = d <= 4;
    const int bs = small ? std::clamp(16384 / std::max(n, 1), 16, 64) : blockRows(n);
    const int blocksPerSeq = (n + bs - 1) / bs;
    const int items = count * blocksPerSeq;
    const PartialLayout layout{k, d};
    thread_local std::vector<double> partials;  // the calling thread's; workers write into it
    partials.resize(static_cast<std::size_t>(items * layout.stride()));
    double* const base = partials.data();

    auto seqIndex = [&](int u) { return units.empty() ? u : units[u]; };
    auto work = [&](int item) {
        const int u = item / blocksPerSeq;
        const Index r0 = Index(item % blocksPerSeq) * bs;
        const Index b = std::min<Index>(bs, n - r0);
        const Eigen::MatrixXd& X = data.X[seqIndex(u)];
        const Eigen::MatrixXd& Y = data.Y[seqIndex(u)];
        double* out = base + item * layout.stride();
        switch (small ? d : 0) {
            case 1:
                wantGrad ? rowBlockSmallD<1, true>(A, B, X, Y, r0, b, excludeSelf, scale, out)
                         : rowBlockSmallD<1, false>(A, B, X, Y, r0, b, excludeSelf, scale, out);
                break;
            case 2:
                wantGrad ? rowBlockSmallD<2, true>(A, B, X, Y, r0, b, excludeSelf, scale, out)
                         : rowBlockSmallD<2, false>(A, B, X, Y, r0, b, excludeSelf, scale, out);
                break;
            case 3:
                wantGrad ? rowBlockSmallD<3, true>(A, B, X, Y, r0, b, excludeSelf, scale, out)
                         : rowBlockSmallD<3, false>(A, B, X, Y, r0, b, excludeSelf, scale, out);
                break;
            case 4:
                wantGrad ? rowBlockSmallD<4, true>(A, B, X, Y, r0, b, excludeSelf, scale, out)
                         : rowBlockSmallD<4, false>(A, B, X, Y, r0, b, excludeSelf, scale, out);
                break;
            default:
                std::fill(out, out + layout.stride(), 0.0);
                rowBlockGeneral(A, B, X, Y, r0, b, excludeSelf, scale, wantGrad, out);
        }
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

}  // namespace ade
