// Experiment B's attention-head loss and gradients (SingleHeadAttention::loss), compiled once per
// instruction-set level (util/KernelDispatch.h).
#include "experiments/b/HeadKernels.h"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <span>

#include "models/VectorExp.h"
#include "util/ChunkedParallel.h"
#include "util/ThreadScratch.h"
#include "util/WorkerPool.h"

namespace ade {

namespace {

constexpr int kChunk = 32;  // samples per work item
// Work (samples x N (N + d) (w + d_v)) from which a loss call uses the worker pool.
constexpr double kPoolWork = 1 << 20;

// a * b + c, fused where the machine has FMA.
inline double madd(double a, double b, double c) {
#ifdef __FMA__
    return std::fma(a, b, c);
#else
    return a * b + c;
#endif
}

namespace ei = Eigen::internal;
using Packet = ei::packet_traits<double>::type;
constexpr int kPacket = ei::packet_traits<double>::size;

// exp(x) for x <= 0: the Experiment A kernels' (models/VectorExp.h).
inline Packet expNonPositive(Packet x) {
    return vexp::expNonPositive<double>(x);
}

// Operations on rows of n contiguous doubles (n = FixedN when that is not 0), one entry per
// token index a: Eigen's packets (8 lanes with AVX-512), then single lanes for the rest.
template <int FixedN>
struct Lanes {
    int n;
    int size() const { return FixedN > 0 ? FixedN : n; }
    template <typename PacketOp, typename ScalarOp>
    void apply(PacketOp p, ScalarOp s) const {
        const int len = size();
        int a = 0;
        for (; a + kPacket <= len; a += kPacket)
            p(a);
        for (; a < len; ++a)
            s(a);
    }
    static Packet ld(const double* x) { return ei::ploadu<Packet>(x); }
    static void st(double* y, Packet v) { ei::pstoreu(y, v); }

    void copy(const double* x, double* y) const {
        apply([&](int a) { st(y + a, ld(x + a)); }, [&](int a) { y[a] = x[a]; });
    }
    void zero(double* y) const {
        apply([&](int a) { st(y + a, ei::pset1<Packet>(0.0)); }, [&](int a) { y[a] = 0.0; });
    }
    // y = s x
    void scale(double s, const double* x, double* y) const {
        const Packet sp = ei::pset1<Packet>(s);
        apply([&](int a) { st(y + a, ei::pmul(sp, ld(x + a))); }, [&](int a) { y[a] = s * x[a]; });
    }
    // y += s x
    void axpy(double s, const double* x, double* y) const {
        const Packet sp = ei::pset1<Packet>(s);
        apply([&](int a) { st(y + a, ei::pmadd(sp, ld(x + a), ld(y + a))); },
              [&](int a) { y[a] = madd(s, x[a], y[a]); });
    }
    // y = max(y, x)
    void max(const double* x, double* y) const {
        apply([&](int a) { st(y + a, ei::pmax(ld(y + a), ld(x + a))); },
              [&](int a) { y[a] = x[a] > y[a] ? x[a] : y[a]; });
    }
    void sub(const double* x, double* y) const {
        apply([&](int a) { st(y + a, ei::psub(ld(y + a), ld(x + a))); },
              [&](int a) { y[a] -= x[a]; });
    }
    void add(const double* x, double* y) const {
        apply([&](int a) { st(y + a, ei::padd(ld(y + a), ld(x + a))); },
              [&](int a) { y[a] += x[a]; });
    }
    void mul(const double* x, double* y) const {
        apply([&](int a) { st(y + a, ei::pmul(ld(y + a), ld(x + a))); },
              [&](int a) { y[a] *= x[a]; });
    }
    void inverse(const double* x, double* y) const {
        const Packet one = ei::pset1<Packet>(1.0);
        apply([&](int a) { st(y + a, ei::pdiv(one, ld(x + a))); },
              [&](int a) { y[a] = 1.0 / x[a]; });
    }
    // r = f - y
    void diff(const double* f, const double* y, double* r) const {
        apply([&](int a) { st(r + a, ei::psub(ld(f + a), ld(y + a))); },
              [&](int a) { r[a] = f[a] - y[a]; });
    }
    // acc += x .* y
    void dotLanes(const double* x, const double* y, double* acc) const {
        apply([&](int a) { st(acc + a, ei::pmadd(ld(x + a), ld(y + a), ld(acc + a))); },
              [&](int a) { acc[a] = madd(x[a], y[a], acc[a]); });
    }
    // y .*= t - r
    void mulDiff(const double* t, const double* r, double* y) const {
        apply([&](int a) { st(y + a, ei::pmul(ld(y + a), ei::psub(ld(t + a), ld(r + a)))); },
              [&](int a) { y[a] *= t[a] - r[a]; });
    }
    // y = exp(y - m) (arguments <= 0)
    void expShifted(const double* m, double* y) const {
        apply([&](int a) { st(y + a, expNonPositive(ei::psub(ld(y + a), ld(m + a)))); },
              [&](int a) { y[a] = ei::pfirst(expNonPositive(ei::pset1<Packet>(y[a] - m[a]))); });
    }
    double dot(const double* x, const double* y) const {
        double acc = 0.0;
        for (int a = 0; a < size(); ++a)
            acc = madd(x[a], y[a], acc);
        return acc;
    }
    double sum(const double* x) const {
        double acc = 0.0;
        for (int a = 0; a < size(); ++a)
            acc += x[a];
        return acc;
    }
};

// One work item of SingleHeadAttention::loss: the samples [begin, end) of the list. Per sample,
// on tiny matrices (N tokens), explicit loops whose inner index is a token, so every vector
// below is N contiguous doubles and every reduction over the other token or a feature is
// elementwise across lanes (no horizontal sums until the end of the chunk):
//   Q = X P_q (width w), K = X P_k (merged: K = X, w = d), S^T_b = sum_l K_bl Q^T_l,
//   A = rowsoftmax(S), F = A V (V = X W_V), R = F - Y,
//   dS = A .* (dA - rowsum(dA .* A)) with dA = R V^T / |D| and rowsum(dA .* A) = (R .* F) 1 / |D|,
//   dL/dP_q = X^T (dS K) and, factored, dL/dP_k = X^T (dS^T Q).
// The data are read in place (column-major: a sample's segment of a column is contiguous).
struct AttentionChunk {
    const double* X = nullptr;  // column-major (samples N) x d
    Eigen::Index ldX = 0;
    const double* Y = nullptr;  // column-major (samples N) x dv
    Eigen::Index ldY = 0;
    std::span<const int> units;
    int N = 0, d = 0, dv = 0, w = 0;
    bool merged = true, wantGrad = false;
    const Eigen::MatrixXd* Pq = nullptr;  // d x w
    const Eigen::MatrixXd* Pk = nullptr;  // d x w (factored)
    const Eigen::MatrixXd* WV = nullptr;  // d x dv
    double norm = 1.0;                    // 1 / |D|

    // [loss, dL/dP_q (d x w, column-major), dL/dP_k (d x w, factored only)]
    std::size_t partSize() const { return 1 + static_cast<std::size_t>(grads()) * d * w; }
    int grads() const { return merged ? 1 : 2; }

    void run(int begin, int end, double* part) const {
        if (N == 8)
            runN<8>(begin, end, part);
        else
            runN<0>(begin, end, part);
    }

    template <int FixedN>
    void runN(int begin, int end, double* part) const;
};

template <int FixedN>
void AttentionChunk::runN(int begin, int end, double* part) const {
    const Lanes<FixedN> L{N};
    const int n = L.size();
    const std::size_t dw = static_cast<std::size_t>(d) * w;
    // Buffers rounded up to whole cache lines (8 doubles), so that each starts aligned.
    auto lines = [](std::size_t k) { return (k + 7) / 8 * 8; };
    const std::size_t nn = static_cast<std::size_t>(n);
    const std::size_t sizes[] = {wantGrad ? lines(nn * dw * grads()) : 0,  // gradient lanes
                                 lines(nn * w),                            // Q^T (w x N)
                                 merged ? 0 : lines(nn * w),               // K^T (factored)
                                 wantGrad ? lines(nn * w) : 0,  // (dS K)^T, then (dS^T Q)^T
                                 lines(nn * dv),                // V^T
                                 lines(nn * dv),                // F^T
                                 lines(nn * dv),                // R^T
                                 lines(nn * nn),  // S^T, then A^T, then dS^T: column b at b N
                                 lines(nn),       // row maxima, then 1 / z
                                 lines(nn),       // z, then rowsum(dA .* A)
                                 lines(nn),       // dA^T_b
                                 lines(nn)};      // loss lanes
    const auto buf = scratchPieces<1>(sizes);
    double* const gradLanes = buf[0];
    double* const QT = buf[1];
    double* const KT = buf[2];
    double* const UT = buf[3];
    double* const VT = buf[4];
    double* const FT = buf[5];
    double* const RT = buf[6];
    double* const S = buf[7];
    double* const mx = buf[8];
    double* const z = buf[9];
    double* const t = buf[10];
    double* const lossLanes = buf[11];
    L.zero(lossLanes);
    if (wantGrad)
        for (std::size_t k = 0; k < dw * grads(); ++k)
            L.zero(gradLanes + k * nn);
    const Eigen::MatrixXd& P = *Pq;
    const Eigen::MatrixXd& PK = *Pk;
    const Eigen::MatrixXd& W = *WV;

    for (int i = begin; i < end; ++i) {
        const Eigen::Index s = units.empty() ? i : units[i];
        // Feature k of the sample's tokens at xs + k ldX, output c at ys + c ldY.
        const double* xs = X + s * n;
        const double* ys = Y + s * n;
        // out^T_l = sum_k M_kl x^T_k
        auto project = [&](const Eigen::MatrixXd& M, double* out) {
            for (int l = 0; l < w; ++l) {
                L.scale(M(0, l), xs, out + l * n);
                for (int k = 1; k < d; ++k)
                    L.axpy(M(k, l), xs + k * ldX, out + l * n);
            }
        };
        project(P, QT);
        if (!merged) project(PK, KT);
        const double* Kt = merged ? xs : KT;  // K^T_l at Kt + l ldk
        const Eigen::Index ldk = merged ? ldX : n;

        // Scores S^T_b = sum_l K_bl Q^T_l; softmax over b, elementwise across a.
        for (int b = 0; b < n; ++b) {
            double* sb = S + b * n;
            L.scale(Kt[b], QT, sb);
            for (int l = 1; l < w; ++l)
                L.axpy(Kt[l * ldk + b], QT + l * n, sb);
        }
        L.copy(S, mx);
        for (int b = 1; b < n; ++b)
            L.max(S + b * n, mx);
        L.zero(z);
        for (int b = 0; b < n; ++b) {
            L.expShifted(mx, S + b * n);
            L.add(S + b * n, z);
        }
        L.inverse(z, mx);
        for (int b = 0; b < n; ++b)
            L.mul(mx, S + b * n);

        // V^T = W_V^T X^T; F^T_c = sum_b V_bc A^T_b; R = F - Y.
        for (int c = 0; c < dv; ++c) {
            double* v = VT + c * n;
            L.scale(W(0, c), xs, v);
            for (int k = 1; k < d; ++k)
                L.axpy(W(k, c), xs + k * ldX, v);
            double* f = FT + c * n;
            L.scale(v[0], S, f);
            for (int b = 1; b < n; ++b)
                L.axpy(v[b], S + b * n, f);
            L.diff(f, ys + c * ldY, RT + c * n);
            L.dotLanes(RT + c * n, RT + c * n, lossLanes);
        }
        if (!wantGrad) continue;

        // G = R / |D|; rs = rowsum(dA .* A) = (G .* F) 1; dS^T_b = A^T_b .* (dA^T_b - rs) in
        // place, dA^T_b = sum_c V_bc G^T_c.
        double* const rs = z;
        for (int c = 0; c < dv; ++c)
            L.scale(norm, RT + c * n, RT + c * n);
        L.zero(rs);
        for (int c = 0; c < dv; ++c)
            L.dotLanes(RT + c * n, FT + c * n, rs);
        for (int b = 0; b < n; ++b) {
            L.scale(VT[b], RT, t);
            for (int c = 1; c < dv; ++c)
                L.axpy(VT[c * n + b], RT + c * n, t);
            L.mulDiff(t, rs, S + b * n);
        }

        // (dS K)^T_l = sum_b K_bl dS^T_b; dL/dP_q(k, l) += x^T_k . (dS K)^T_l (lanes).
        for (int l = 0; l < w; ++l) {
            double* u = UT + l * n;
            const double* k = Kt + l * ldk;
            L.scale(k[0], S, u);
            for (int b = 1; b < n; ++b)
                L.axpy(k[b], S + b * n, u);
        }
        for (int l = 0; l < w; ++l)
            for (int k = 0; k < d; ++k)
                L.dotLanes(xs + k * ldX, UT + l * n, gradLanes + (k + l * d) * nn);
        if (merged) continue;
        // Factored: (dS^T Q)_bl = dS^T_b . Q^T_l; dL/dP_k(k, l) += x^T_k . (dS^T Q)^T_l.
        for (int l = 0; l < w; ++l)
            for (int b = 0; b < n; ++b)
                UT[l * n + b] = L.dot(S + b * n, QT + l * n);
        for (int l = 0; l < w; ++l)
            for (int k = 0; k < d; ++k)
                L.dotLanes(xs + k * ldX, UT + l * n, gradLanes + (dw + k + l * d) * nn);
    }
    part[0] = 0.5 * norm * L.sum(lossLanes);
    if (wantGrad)
        for (std::size_t k = 0; k < dw * grads(); ++k)
            part[1 + k] = L.sum(gradLanes + k * nn);
}

// SingleHeadAttention::loss of a head with value matrix WV whose scores are scaled by
// 1 / sqrt(headDk).
double headLoss(const Eigen::MatrixXd& WV, int headDk, const Eigen::MatrixXd& WQ,
                const Eigen::MatrixXd& WK, const TokenSamples& data, std::span<const int> units,
                Eigen::MatrixXd* gQ, Eigen::MatrixXd* gK, WorkerPool* pool) {
    const int count = units.empty() ? data.samples : static_cast<int>(units.size());
    const int N = data.tokens;
    const int d = static_cast<int>(data.X.cols());
    const int dk = static_cast<int>(WQ.cols());
    const double invScale = 1.0 / std::sqrt(static_cast<double>(headDk));
    const bool wantGrad = gQ || gK;
    // Merged (S = X M X^T with M = W_Q W_K^T / sqrt(d_k), width d) or factored (S = Q K^T,
    // width d_k), whichever needs fewer flops per sample (2N^2 d + 2N d^2 against
    // 3N^2 d_k + 4N d d_k); the choice depends on the sizes only.
    const bool merged = 2.0 * N * d + 2.0 * d * d <= 3.0 * N * dk + 4.0 * d * dk;
    AttentionChunk job;
    job.X = data.X.data();
    job.ldX = data.X.rows();
    job.Y = data.Y.data();
    job.ldY = data.Y.rows();
    job.units = units;
    job.N = N;
    job.d = d;
    job.dv = static_cast<int>(WV.cols());
    job.w = merged ? d : dk;
    job.merged = merged;
    job.wantGrad = wantGrad;
    const Eigen::MatrixXd Pq =
        merged ? Eigen::MatrixXd(invScale * (WQ * WK.transpose())) : Eigen::MatrixXd(invScale * WQ);
    job.Pq = &Pq;
    job.Pk = &WK;
    job.WV = &WV;
    job.norm = 1.0 / count;

    const int chunks = chunkCount(count, kChunk);
    const std::size_t stride = job.partSize();
    ThreadScratch<0> parts(static_cast<std::size_t>(chunks) * stride);
    double* partData = parts.data();
    const AttentionChunk* jp = &job;
    // The pool only when the work pays for waking its threads: b-synthetic's 256 samples (about
    // 60 us per call) ran slower on two threads than on one. The chunks and their order are the
    // same either way, so the results are.
    const double work = static_cast<double>(count) * N * (N + d) * (job.w + job.dv);
    forEachChunk(work >= kPoolWork ? pool : nullptr, count, kChunk,
                 [jp, partData, stride](int c, int begin, int end) {
                     jp->run(begin, end, partData + static_cast<std::size_t>(c) * stride);
                 });
    // Partial sums in chunk order: bit-identical for any thread count.
    double total = 0.0;
    Eigen::MatrixXd G, GK;
    if (wantGrad) {
        G.setZero(d, job.w);
        if (!merged) GK.setZero(d, job.w);
    }
    for (int c = 0; c < chunks; ++c) {
        const double* part = partData + static_cast<std::size_t>(c) * stride;
        total += part[0];
        if (!wantGrad) continue;
        G += Eigen::Map<const Eigen::MatrixXd>(part + 1, d, job.w);
        if (!merged) GK += Eigen::Map<const Eigen::MatrixXd>(part + 1 + d * job.w, d, job.w);
    }
    if (!wantGrad || chunks == 0) return total;
    if (merged) {
        // dL/dM = G; M = W_Q W_K^T / sqrt(d_k).
        if (gQ) gQ->noalias() += invScale * G * WK;
        if (gK) gK->noalias() += invScale * G.transpose() * WQ;
    } else {
        // G = dL/d(W_Q / sqrt(d_k)), GK = dL/dW_K.
        if (gQ) gQ->noalias() += invScale * G;
        if (gK) *gK += GK;
    }
    return total;
}

}  // namespace

}  // namespace ade

namespace ade::kernels::head {
const HeadKernels* ADE_KERNEL_LEVEL() {
    static const HeadKernels table{&headLoss};
    return &table;
}
}  // namespace ade::kernels::head
