#include "experiments/b/ExperimentB.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <span>
#include <sstream>
#include <vector>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "models/VectorExp.h"
#include "training/AttentionWeights.h"
#include "util/ChunkedParallel.h"
#include "util/Rng.h"
#include "util/ThreadScratch.h"
#include "util/WorkerPool.h"

namespace ade {

void registerExperimentBParams(ParamRegistry& r) {
    for (const char* e : {"b", "c"}) {
        r.extend("data.d", e);
        r.extend("data.n", e);
        r.extend("data.noise", e);
    }
    r.extend("experiment", "b",
             "b = stochastic training of single-head attention with weak regularisers (Paper B); "
             "c = LoRA on a depth-2 network (Paper B); darcy = ViT-style attention regressor on "
             "Darcy flow, stage 2 training only W_Q, W_K (Paper B).");
    r.extend("data.d", "b", "Experiment c: input dimension d of x.");
    r.extend("data.n", "b",
             "Experiments b and c: number of training samples |D| (full-batch gd and sde use all "
             "of them, sgd and adam draw minibatches of `batch`).");
    r.extend("data.noise", "b", "Experiments b and c: targets are teacher outputs + sigma eps.");
    auto bc = keysFor(r, {"b", "c"});
    bc(makeInt("data.test_n", "data", "Test samples", 256, 1, 1 << 22,
               "Held-out samples from the same teacher for the test loss and the "
               "generalisation gap."));
    bc(makeInt("villani.probes", "regularizer", "Villani probes", 4, 0, 1024,
               "Hutchinson probes for the Villani quantity -Lap V + ||grad V||^2 / s (column "
               "'villani', V = loss + regulariser, s = temperature); 0 = not computed."));
    auto b = keysFor(r, {"b"});
    b(makeInt("b.tokens", "data", "Tokens N", 8, 1, 4096,
              "Tokens per sample N: X is N x d with N(0, I) rows."));
    b(makeInt("b.dk", "model", "Key dim d_k", 4, 1, 1024,
              "Width d_k of W_Q and W_K (d x d_k); the score is x_i^T W_Q W_K^T x_j / sqrt(d_k)."));
    b(makeInt("b.dv", "model", "Value dim d_v", 4, 1, 1024,
              "Width d_v of the fixed value matrix W_V (d x d_v, shared with the teacher)."));
    b(makeReal("b.tau", "data", "Teacher sharpness tau", 6.0, 0, 1e4,
               "Teacher W_Q* = sqrt(tau) Q1, W_K* = sqrt(tau) Q2 with orthonormal columns, so the "
               "teacher's scores have standard deviation about tau. A sharp teacher makes the "
               "unregularised student keep sharpening its attention (growing norms)."));
}

namespace {

void validateB(const Config& c, std::vector<ConfigError>& errors) {
    validatePaperBCommon(c, errors);
    const double values = static_cast<double>(c.getInt("data.n") + c.getInt("data.test_n")) *
                          static_cast<double>(c.getInt("b.tokens")) *
                          static_cast<double>(c.getInt("data.d") + c.getInt("b.dv"));
    if (values * 8.0 > 8.0 * 1024 * 1024 * 1024)
        errors.push_back({"data.n", std::to_string(c.getInt("data.n")),
                          "configuration needs more than 8 GiB for the data: lower data.n, "
                          "data.test_n or b.tokens"});
}

std::string briefB(const Config& c) {
    std::ostringstream s;
    s << "n=" << c.getInt("data.n") << " N=" << c.getInt("b.tokens");
    briefOptimizerAndRegularizer(s, c);
    return s.str();
}

// Orthonormal columns (d x k) when k <= d, Gaussian columns of norm about 1 otherwise.
Eigen::MatrixXd teacherFactor(int d, int k, Rng& rng) {
    if (k <= d) return randomOrthogonal(d, rng).leftCols(k);
    return rng.normalMatrix(d, k, 1.0 / std::sqrt(static_cast<double>(d)));
}

TokenSamples sampleTokens(int samples, int tokens, int d, const SingleHeadAttention& teacher,
                          const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK, double noise,
                          Rng& rng) {
    TokenSamples s;
    s.samples = samples;
    s.tokens = tokens;
    s.X = rng.normalMatrix(static_cast<Eigen::Index>(samples) * tokens, d);
    s.Y.resize(s.X.rows(), teacher.WV().cols());
    for (int i = 0; i < samples; ++i) {
        const auto rows = Eigen::seqN(static_cast<Eigen::Index>(i) * tokens, tokens);
        s.Y(rows, Eigen::all) = teacher.predict(WQ, WK, s.X(rows, Eigen::all));
    }
    if (noise > 0) s.Y += rng.normalMatrix(s.Y.rows(), s.Y.cols(), noise);
    return s;
}

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
inline Packet expNonPositive(Packet x) { return vexp::expNonPositive<double>(x); }

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
    const std::size_t sizes[] = {
        wantGrad ? lines(nn * dw * grads()) : 0,  // gradient lanes
        lines(nn * w),                            // Q^T (w x N)
        merged ? 0 : lines(nn * w),               // K^T (factored)
        wantGrad ? lines(nn * w) : 0,             // (dS K)^T, then (dS^T Q)^T
        lines(nn * dv),                           // V^T
        lines(nn * dv),                           // F^T
        lines(nn * dv),                           // R^T
        lines(nn * nn),                           // S^T, then A^T, then dS^T: column b at b N
        lines(nn),                                // row maxima, then 1 / z
        lines(nn),                                // z, then rowsum(dA .* A)
        lines(nn),                                // dA^T_b
        lines(nn)};                               // loss lanes
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

}  // namespace

Eigen::MatrixXd SingleHeadAttention::attention(const Eigen::MatrixXd& WQ,
                                               const Eigen::MatrixXd& WK,
                                               const Eigen::MatrixXd& X) const {
    return rowSoftmax((X * WQ) * (X * WK).transpose() / std::sqrt(static_cast<double>(dk_)));
}

Eigen::MatrixXd SingleHeadAttention::predict(const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK,
                                             const Eigen::MatrixXd& X) const {
    return attention(WQ, WK, X) * (X * WV_);
}

double SingleHeadAttention::loss(const Eigen::MatrixXd& WQ, const Eigen::MatrixXd& WK,
                                 const TokenSamples& data, std::span<const int> units,
                                 Eigen::MatrixXd* gQ, Eigen::MatrixXd* gK, WorkerPool* pool) const {
    const int count = units.empty() ? data.samples : static_cast<int>(units.size());
    const int N = data.tokens;
    const int d = static_cast<int>(data.X.cols());
    const int dk = static_cast<int>(WQ.cols());
    const double invScale = 1.0 / std::sqrt(static_cast<double>(dk_));
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
    job.dv = static_cast<int>(WV_.cols());
    job.w = merged ? d : dk;
    job.merged = merged;
    job.wantGrad = wantGrad;
    const Eigen::MatrixXd Pq = merged ? Eigen::MatrixXd(invScale * (WQ * WK.transpose()))
                                      : Eigen::MatrixXd(invScale * WQ);
    job.Pq = &Pq;
    job.Pk = &WK;
    job.WV = &WV_;
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

void describeExperimentB(ExperimentInfo& info);  // DescribeB.cpp: About, metrics, charts

ExperimentInfo experimentBInfo() {
    ExperimentInfo info;
    info.registerParams = registerExperimentBParams;
    describeExperimentB(info);
    info.name = "b";
    info.title = "Stochastic training of single-head attention with weak regularisers (Paper B)";
    info.make = [](const Config& c, std::string*) -> std::unique_ptr<Problem> {
        return std::make_unique<ExperimentB>(c);
    };
    info.validate = validateB;
    info.brief = briefB;
    return info;
}

ExperimentB::ExperimentB(const Config& c)
    : FactorPairProblem(c, FactorPair{}),
      d_(static_cast<int>(c.getInt("data.d"))),
      dk_(static_cast<int>(c.getInt("b.dk"))),
      dv_(static_cast<int>(c.getInt("b.dv"))),
      tokens_(static_cast<int>(c.getInt("b.tokens"))) {
    const auto seed = static_cast<std::uint64_t>(c.getInt("seed"));
    Rng teacherRng(seed, Rng::Teacher);
    const double tau = c.getReal("b.tau");
    WQstar_ = std::sqrt(tau) * teacherFactor(d_, dk_, teacherRng);
    WKstar_ = std::sqrt(tau) * teacherFactor(d_, dk_, teacherRng);
    model_ = SingleHeadAttention(
        teacherRng.normalMatrix(d_, dv_, 1.0 / std::sqrt(static_cast<double>(d_))), dk_);
    const double noise = c.getReal("data.noise");
    Rng dataRng(seed, Rng::Data), testRng(seed, Rng::TestData);
    train_ = sampleTokens(static_cast<int>(c.getInt("data.n")), tokens_, d_, model_, WQstar_,
                          WKstar_, noise, dataRng);
    test_ = sampleTokens(static_cast<int>(c.getInt("data.test_n")), tokens_, d_, model_, WQstar_,
                         WKstar_, noise, testRng);
    setTeacherProduct(WQstar_ * WKstar_.transpose(), dk_);
    setTeacherTestLoss(model_.loss(WQstar_, WKstar_, test_, {}, nullptr, nullptr, pool_.get()));
    setFactorPlane({"‖W_Q‖_F", "‖W_K‖_F", "norm_WQ", "norm_WK"});
}

ExperimentB::~ExperimentB() = default;

ParamSet ExperimentB::initialParams(Rng& rng) {
    return initialFactors(rng, "W_Q", d_, dk_, "W_K", d_, dk_);
}

double ExperimentB::loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) {
    return model_.loss(p[0], p[1], train_, units, grad ? &(*grad)[0] : nullptr,
                       grad ? &(*grad)[1] : nullptr, pool_.get());
}

std::vector<std::string> ExperimentB::metricNames() const {
    std::vector<std::string> names = {
        "train_loss", "test_loss", "gen_gap",   "excess_test_loss",  "norm_WQ",
        "norm_WK",    "norm_sq",   "imbalance", "manifold_distance", "manifold_distance_rel"};
    if (villaniProbes_ > 0) names.push_back("villani");
    return names;
}

void ExperimentB::evaluate(const ParamSet& p, double trainLoss,
                           std::map<std::string, double>& out) {
    const double testLoss = model_.loss(p[0], p[1], test_, {}, nullptr, nullptr, pool_.get());
    evaluateFactors(p, trainLoss, testLoss, "norm_WQ", "norm_WK", out);
    out["norm_sq"] = p[0].squaredNorm() + p[1].squaredNorm();
}

std::vector<NamedArray> ExperimentB::dataArrays() const {
    auto stacked = [&](const std::string& name, const Eigen::MatrixXd& m, int samples) {
        NamedArray a = toNamedArray(name, m);
        a.shape = {static_cast<std::size_t>(samples), static_cast<std::size_t>(tokens_),
                   static_cast<std::size_t>(m.cols())};
        return a;
    };
    return {stacked("X_train", train_.X, train_.samples),
            stacked("Y_train", train_.Y, train_.samples),
            stacked("X_test", test_.X, test_.samples),
            stacked("Y_test", test_.Y, test_.samples),
            toNamedArray("W_Q_star", WQstar_),
            toNamedArray("W_K_star", WKstar_),
            toNamedArray("W_V", model_.WV())};
}

}  // namespace ade

namespace ade {

std::vector<MatrixView> ExperimentB::matrixViews(const ParamSet& p) {
    const Eigen::MatrixXd prod = product(p);
    const Eigen::MatrixXd teacher = WQstar_ * WKstar_.transpose();
    return {{"W_Q W_Kᵀ", "The product the model sees: score x_iᵀ W_Q W_Kᵀ x_j / √d_k.", 0, prod},
            {"W_Q* W_K*ᵀ", "The teacher's product, which generated the targets.", 0, teacher},
            {"W_Q W_Kᵀ − W_Q* W_K*ᵀ", "How far the student's product is from the teacher's.", 0,
             prod - teacher},
            {"W_Q", "The query factor (d × d_k).", 1, p[0]},
            {"W_K", "The key factor (d × d_k).", 1, p[1]},
            {"W_Q*", "The teacher's query factor: any (W_Q* G, W_K* G⁻ᵀ) has the same product.", 1,
             WQstar_},
            {"W_K*", "The teacher's key factor.", 1, WKstar_}};
}

std::optional<AttentionView> ExperimentB::attentionView(const ParamSet& p, int maxTokens) {
    if (test_.samples == 0) return std::nullopt;
    const int n = std::min(tokens_, std::max(1, maxTokens));
    const Eigen::MatrixXd X = test_.X.topRows(n);
    AttentionView v;
    v.title = "softmax(x_iᵀ W_Q W_Kᵀ x_j / √d_k), held-out sample 1";
    if (n < tokens_) v.title += " (first " + std::to_string(n) + " tokens)";
    v.weights = model_.attention(p[0], p[1], X);
    v.referenceTitle = "teacher: softmax(x_iᵀ W_Q* W_K*ᵀ x_j / √d_k)";
    v.reference = model_.attention(WQstar_, WKstar_, X);
    addTokenFeatures(v, X);
    return v;
}

}  // namespace ade
