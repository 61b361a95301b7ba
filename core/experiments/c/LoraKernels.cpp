// Experiment C's LoRA-network loss and gradients (LoraNetwork::loss), compiled once per
// instruction-set level (util/KernelDispatch.h).
#include "experiments/c/LoraKernels.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>

#include "models/VectorExp.h"
#include "util/ChunkedParallel.h"
#include "util/ThreadScratch.h"
#include "util/WorkerPool.h"

namespace ade {

namespace {

constexpr int kLoraChunk = 256;  // samples per work item
// Work (samples x h x (d + o)) from which a loss call uses the worker pool.
constexpr double kLoraPoolWork = 1 << 20;

namespace ei = Eigen::internal;
#if defined(EIGEN_VECTORIZE_AVX512)
// 256-bit packets even so: on the 2-core test machine (Intel Xeon, AVX-512) the tanh loop below
// runs 1.45x faster on them than on 512-bit ones (c-lora: 18000 -> 26000 it per CPU-second).
using LoraPacket = ei::packet_traits<double>::half;
#else
using LoraPacket = ei::packet_traits<double>::type;
#endif
constexpr int kLoraPacket = sizeof(LoraPacket) / sizeof(double);

using vexp::exponentBits;  // 2^n from the exponent bits, any packet width (models/VectorExp.h)

// tanh(z) for a packet (Eigen's tanh for double is scalar std::tanh):
//   tanh|z| = -q / (2 + q),  q = expm1(-2|z|) in (-1, 0],
// with expm1 by Cody-Waite reduction -2|z| = n ln2 + r, |r| <= ln2/2, expm1(r) from its Taylor
// polynomial to degree 13 (truncation below 2e-17 relative) and expm1 = 2^n expm1(r) + (2^n - 1);
// |z| is capped at 22 (tanh 22 rounds to 1), the sign put back last. Within 3 ulp of std::tanh
// (measured on 4e6 random arguments, uniform on [-25, 25] and log-uniform from 1e-40 to 100);
// tanh(+-0) = +-0, tanh(+-inf) = +-1, NaN propagates.
template <typename Packet>
inline Packet tanhPacket(const Packet& z) {
    const Packet signMask = ei::pset1<Packet>(-0.0);
    Packet u = ei::pabs(z);
    const Packet cap = ei::pset1<Packet>(22.0);
    u = ei::pselect(ei::pcmp_le(cap, u), cap, u);  // NaN stays NaN
    const Packet x = ei::pmul(u, ei::pset1<Packet>(-2.0));
    const Packet shifter = ei::pset1<Packet>(6755399441055744.0 + 1023.0);  // 1.5 * 2^52 + 1023
    const Packet t = ei::pmadd(x, ei::pset1<Packet>(1.4426950408889634074), shifter);
    const Packet n = ei::psub(t, shifter);
    Packet r = ei::pmadd(n, ei::pset1<Packet>(-0.693145751953125), x);
    r = ei::pmadd(n, ei::pset1<Packet>(-1.42860682030941723212e-6), r);
    // expm1(r) = r + r^2 sum_{k=0}^{11} r^k / (k+2)!, the sum by Estrin's scheme (a short chain
    // of dependent operations: the loop is bound by their latency, not by their number).
    auto c = [](double v) { return ei::pset1<Packet>(v); };
    const Packet r2 = ei::pmul(r, r), r4 = ei::pmul(r2, r2);
    const Packet a01 = ei::pmadd(c(1.0 / 6.0), r, c(0.5));
    const Packet a23 = ei::pmadd(c(1.0 / 120.0), r, c(1.0 / 24.0));
    const Packet a45 = ei::pmadd(c(1.0 / 5040.0), r, c(1.0 / 720.0));
    const Packet a67 = ei::pmadd(c(1.0 / 362880.0), r, c(1.0 / 40320.0));
    const Packet a89 = ei::pmadd(c(1.0 / 39916800.0), r, c(1.0 / 3628800.0));
    const Packet a1011 = ei::pmadd(c(1.0 / 6227020800.0), r, c(1.0 / 479001600.0));
    const Packet b0 = ei::pmadd(a23, r2, a01);
    const Packet b1 = ei::pmadd(a67, r2, a45);
    const Packet b2 = ei::pmadd(a1011, r2, a89);
    const Packet p = ei::pmadd(r2, ei::pmadd(ei::pmadd(b2, r4, b1), r4, b0), r);
    const Packet scale = exponentBits(t);
    const Packet q = ei::pmadd(scale, p, ei::psub(scale, ei::pset1<Packet>(1.0)));
    const Packet th = ei::pabs(ei::pdiv(q, ei::padd(q, ei::pset1<Packet>(2.0))));
    return ei::por(th, ei::pand(z, signMask));
}

// a = sigma(z) in place and, when ds is given, ds = sigma'(z), for len contiguous values.
void activate(Activation act, double* a, double* ds, Eigen::Index len) {
    if (act == Activation::Tanh) {
        Eigen::Index i = 0;
        for (; i + kLoraPacket <= len; i += kLoraPacket)
            ei::pstoreu(a + i, tanhPacket(ei::ploadu<LoraPacket>(a + i)));
        for (; i < len; ++i)
            a[i] = ei::pfirst(tanhPacket(ei::pset1<LoraPacket>(a[i])));
        if (ds)
            for (Eigen::Index j = 0; j < len; ++j)
                ds[j] = 1.0 - a[j] * a[j];
        return;
    }
    // softplus(z) = max(z, 0) + log1p(exp(-|z|)), sigma' = 1 / (1 + exp(-z)).
    for (Eigen::Index j = 0; j < len; ++j) {
        const double z = a[j];
        if (ds) ds[j] = 1.0 / (1.0 + std::exp(-z));
        a[j] = std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z)));
    }
}

// One work item of LoraNetwork::loss: the samples [begin, end) of the list, as products on the
// chunk's rows (in place for a range of samples, gathered for a listed subset) into the
// calling thread's scratch:
//   Z = X W^T, A = sigma(Z), R = A W2^T - Y, loss = |R|^2 / (2n),
//   dZ = (R W2) .* sigma'(Z) / n, dL/dW = dZ^T X.
struct LoraChunk {
    const Eigen::MatrixXd* X = nullptr;  // samples x d
    const Eigen::MatrixXd* Y = nullptr;  // samples x o
    std::span<const int> units;
    const Eigen::MatrixXd* W = nullptr;   // h x d
    const Eigen::MatrixXd* W2 = nullptr;  // o x h
    Activation act = Activation::Tanh;
    bool wantGrad = false;
    double norm = 1.0;  // 1 / n

    // [loss, dL/dW (h x d, column-major)]
    std::size_t partSize() const {
        return 1 + (wantGrad ? static_cast<std::size_t>(W->size()) : 0);
    }

    void run(int begin, int end, double* part) const {
        using Eigen::Index;
        const Index m = end - begin, d = X->cols(), o = Y->cols(), h = W->rows();
        const bool gather = !units.empty();
        auto lines = [](Index k) { return static_cast<std::size_t>((k + 7) / 8 * 8); };
        const std::size_t sizes[] = {gather ? lines(m * d) : 0, gather ? lines(m * o) : 0,
                                     lines(m * h), wantGrad ? lines(m * h) : 0, lines(m * o)};
        const auto buf = scratchPieces<1>(sizes);
        const double* xp = X->data() + begin;
        const double* yp = Y->data() + begin;
        Index ldx = X->rows(), ldy = Y->rows();
        if (gather) {
            for (Index k = 0; k < d; ++k)
                for (Index i = 0; i < m; ++i)
                    buf[0][k * m + i] = (*X)(units[begin + i], k);
            for (Index c = 0; c < o; ++c)
                for (Index i = 0; i < m; ++i)
                    buf[1][c * m + i] = (*Y)(units[begin + i], c);
            xp = buf[0];
            yp = buf[1];
            ldx = ldy = m;
        }
        using Block = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
        using Mat = Eigen::Map<Eigen::MatrixXd, Eigen::Aligned64>;
        const Block Xc(xp, m, d, Eigen::OuterStride<>(ldx));
        const Block Yc(yp, m, o, Eigen::OuterStride<>(ldy));
        Mat Z(buf[2], m, h);  // Z, then A = sigma(Z), then R W2
        Mat R(buf[4], m, o);
        Z.noalias() = Xc * W->transpose();
        activate(act, buf[2], wantGrad ? buf[3] : nullptr, m * h);
        R.noalias() = Z * W2->transpose();
        R -= Yc;
        part[0] = 0.5 * norm * R.squaredNorm();
        if (!wantGrad) return;
        Mat dZ(buf[3], m, h);
        Z.noalias() = R * (*W2);
        dZ.array() = Z.array() * dZ.array() * norm;
        Eigen::Map<Eigen::MatrixXd>(part + 1, h, d).noalias() = dZ.transpose() * Xc;
    }
};

double loraLoss(const LoraNetwork& net, const Eigen::MatrixXd& U, const Eigen::MatrixXd& V,
                const Eigen::MatrixXd& X, const Eigen::MatrixXd& Y, std::span<const int> units,
                Eigen::MatrixXd* gU, Eigen::MatrixXd* gV, WorkerPool* pool) {
    const int count = units.empty() ? static_cast<int>(X.rows()) : static_cast<int>(units.size());
    const Eigen::MatrixXd W = net.Wpre() + net.alpha() * U * V;  // h x d
    const bool wantGrad = gU || gV;
    LoraChunk job;
    job.X = &X;
    job.Y = &Y;
    job.units = units;
    job.W = &W;
    job.W2 = &net.W2();
    job.act = net.activation();
    job.wantGrad = wantGrad;
    job.norm = 1.0 / count;
    const int chunks = chunkCount(count, kLoraChunk);
    const std::size_t stride = job.partSize();
    ThreadScratch<0> parts(static_cast<std::size_t>(chunks) * stride);
    double* partData = parts.data();
    const LoraChunk* jp = &job;
    // The pool only when the work pays for waking its threads (c-lora-drift's 512 samples run
    // faster on one); the chunks and their order are the same either way, so the results are.
    const double work = static_cast<double>(count) * W.rows() * (W.cols() + net.W2().rows());
    forEachChunk(work >= kLoraPoolWork ? pool : nullptr, count, kLoraChunk,
                 [jp, partData, stride](int c, int begin, int end) {
                     jp->run(begin, end, partData + static_cast<std::size_t>(c) * stride);
                 });
    // Partial sums in chunk order: bit-identical for any thread count.
    double total = 0.0;
    Eigen::MatrixXd dW;
    if (wantGrad) dW.setZero(W.rows(), W.cols());
    for (int c = 0; c < chunks; ++c) {
        const double* part = partData + static_cast<std::size_t>(c) * stride;
        total += part[0];
        if (wantGrad) dW += Eigen::Map<const Eigen::MatrixXd>(part + 1, W.rows(), W.cols());
    }
    if (gU) gU->noalias() += net.alpha() * dW * V.transpose();
    if (gV) gV->noalias() += net.alpha() * U.transpose() * dW;
    return total;
}

}  // namespace

}  // namespace ade

namespace ade::kernels::lora {
const LoraKernels* ADE_KERNEL_LEVEL() {
    static const LoraKernels table{&loraLoss};
    return &table;
}
}  // namespace ade::kernels::lora
