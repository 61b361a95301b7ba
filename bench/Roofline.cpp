#include "Roofline.h"

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <random>
#include <thread>

#include "models/BlockProducts.h"
#include "models/SoftmaxAttentionRegression.h"
#include "models/VectorExp.h"

#if defined(ADE_BENCH_SLEEF) && defined(EIGEN_VECTORIZE_AVX512)
#include <sleef.h>
#endif

// glibc's vector math library (libmvec): the AVX-512 exp GCC calls when it vectorises std::exp.
#if defined(EIGEN_VECTORIZE_AVX512)
extern "C" __m512d _ZGVeN8v_exp(__m512d);
extern "C" __m512 _ZGVeN16v_expf(__m512);
#endif

namespace adebench {

namespace {

using Clock = std::chrono::steady_clock;
using Eigen::Index;
namespace ei = Eigen::internal;
using ade::vexp::kLanesOf;
using ade::vexp::PacketOf;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// work(rounds) does `rounds` rounds and returns the units of work done; the rate is units per
// second of one call of at least minTime (after calibrating the rounds).
double rateOf(const std::function<double(long)>& work, double minTime) {
    work(1);  // warm-up
    long rounds = 1;
    for (;;) {
        const auto t0 = Clock::now();
        const double units = work(rounds);
        const double s = seconds(t0, Clock::now());
        if (s >= 0.25 * minTime || rounds >= (1L << 40)) {
            if (s >= minTime) return units / s;
            rounds = std::max(rounds + 1, static_cast<long>(rounds * minTime / std::max(s, 1e-9)));
            const auto t1 = Clock::now();
            const double u = work(rounds);
            return u / seconds(t1, Clock::now());
        }
        rounds *= 4;
    }
}

// The same micro-benchmark on `threads` threads at once, each with its own state (make() is
// called in the thread): the machine's rate is the sum. The best of three such measurements:
// these are ceilings, what the machine can do, and a neighbour's burst on a shared host only
// ever lowers a sample (one of 2026-12-02 read an FMA rate of 59 GFlop/s against 104-106 in
// every other run).
double concurrentRate(int threads, double minTime,
                      const std::function<std::function<double(long)>()>& make) {
    double best = 0.0;
    for (int rep = 0; rep < 3; ++rep) {
        std::vector<double> rates(threads, 0.0);
        std::vector<std::thread> ts;
        auto one = [&](int t) { rates[t] = rateOf(make(), minTime); };
        for (int t = 1; t < threads; ++t)
            ts.emplace_back(one, t);
        one(0);
        for (auto& t : ts)
            t.join();
        double sum = 0;
        for (double r : rates)
            sum += r;
        best = std::max(best, sum);
    }
    return best;
}

template <typename T>
void keep(const T* p) {
    asm volatile("" : : "g"(p) : "memory");
}

// Independent packet FMAs (12 chains in registers, more than latency x ports): flops per
// second. The empty asm keeps each chain in its register and alive.
template <typename T>
std::function<double(long)> fmaWork() {
    return [](long rounds) {
        using P = PacketOf<T>;
        const P m = ei::pset1<P>(T(0.9999999)), c = ei::pset1<P>(T(1e-7));
        P a0 = ei::pset1<P>(T(0.1)), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,
          a7 = a0, a8 = a0, a9 = a0, a10 = a0, a11 = a0;
        for (long r = 0; r < rounds; ++r) {
            a0 = ei::pmadd(a0, m, c);
            a1 = ei::pmadd(a1, m, c);
            a2 = ei::pmadd(a2, m, c);
            a3 = ei::pmadd(a3, m, c);
            a4 = ei::pmadd(a4, m, c);
            a5 = ei::pmadd(a5, m, c);
            a6 = ei::pmadd(a6, m, c);
            a7 = ei::pmadd(a7, m, c);
            a8 = ei::pmadd(a8, m, c);
            a9 = ei::pmadd(a9, m, c);
            a10 = ei::pmadd(a10, m, c);
            a11 = ei::pmadd(a11, m, c);
            asm volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5),
                         "+v"(a6), "+v"(a7), "+v"(a8), "+v"(a9), "+v"(a10), "+v"(a11));
        }
        alignas(64) T out[kLanesOf<T>];
        ei::pstore(out, ei::padd(ei::padd(ei::padd(a0, a1), ei::padd(a2, a3)),
                                 ei::padd(ei::padd(a4, a5), ei::padd(a6, a7))));
        keep(out);
        ei::pstore(out, ei::padd(ei::padd(a8, a9), ei::padd(a10, a11)));
        keep(out);
        return 2.0 * kLanesOf<T> * 12 * static_cast<double>(rounds);
    };
}

constexpr int kExpTile = 512;  // as the small-d kernel's tile (L1-resident)

template <typename T>
std::vector<T> expArguments(int count, T lo, unsigned seed) {
    std::mt19937_64 g(seed);
    std::uniform_real_distribution<double> u(lo, 0.0);
    std::vector<T> v(count);
    for (auto& x : v)
        x = static_cast<T>(u(g));
    return v;
}

// out[j] = f(in[j]) over a tile of arguments in [-30, 0] (softmax arguments): exps per second.
template <typename T, typename F>
std::function<std::function<double(long)>()> expWork(F f) {
    return [f] {
        auto in = std::make_shared<std::vector<T>>(expArguments<T>(kExpTile, T(-30), 3));
        auto out = std::make_shared<std::vector<T>>(kExpTile);
        return std::function<double(long)>([f, in, out](long rounds) {
            using P = PacketOf<T>;
            const T* a = in->data();
            T* b = out->data();
            for (long r = 0; r < rounds; ++r) {
                for (int j = 0; j < kExpTile; j += kLanesOf<T>)
                    ei::pstoreu(b + j, f(ei::ploadu<P>(a + j)));
                keep(b);
            }
            return static_cast<double>(kExpTile) * static_cast<double>(rounds);
        });
    };
}

// Largest relative error against expl over arguments uniform in [lo, 0].
template <typename T, typename F>
double expError(F f, T lo) {
    using P = PacketOf<T>;
    constexpr int L = kLanesOf<T>;
    const std::vector<T> x = expArguments<T>(200000 / L * L, lo, 5);
    double worst = 0;
    alignas(64) T y[L];
    for (std::size_t j = 0; j < x.size(); j += L) {
        ei::pstore(y, f(ei::ploadu<P>(x.data() + j)));
        for (int l = 0; l < L; ++l) {
            const long double ref = std::exp(static_cast<long double>(x[j + l]));
            const long double err = std::fabs((static_cast<long double>(y[l]) - ref) / ref);
            worst = std::max(worst, static_cast<double>(err));
        }
    }
    return worst;
}

struct ExpFunction {
    std::string name, precision, note;
    std::function<std::function<double(long)>()> work;
    double error = 0;
};

std::vector<ExpFunction> expFunctions() {
    using Pd = PacketOf<double>;
    using Pf = PacketOf<float>;
    std::vector<ExpFunction> fs;
    auto add = [&]<typename T>(const std::string& name, const std::string& note, auto f, T lo) {
        fs.push_back({name, sizeof(T) == 8 ? "float64" : "float32", note, expWork<T>(f),
                      expError<T>(f, lo)});
    };
    add.template operator()<double>(
        "ade", "the kernels' own (core/models/VectorExp.h), x <= 0, inlined",
        [](Pd x) { return ade::vexp::expNonPositive<double>(x); }, -700.0);
    add.template operator()<double>("eigen", "Eigen 3.4 pexp, inlined",
                                    [](Pd x) { return ei::pexp(x); }, -700.0);
#if defined(EIGEN_VECTORIZE_AVX512)
    add.template operator()<double>("libmvec", "glibc _ZGVeN8v_exp, a call",
                                    [](Pd x) { return _ZGVeN8v_exp(x); }, -700.0);
#endif
#if defined(ADE_BENCH_SLEEF) && defined(EIGEN_VECTORIZE_AVX512)
    add.template operator()<double>("sleef-u10", "SLEEF 3.5 Sleef_expd8_u10avx512f (1.0 ulp), a call",
                                    [](Pd x) { return Sleef_expd8_u10avx512f(x); }, -700.0);
#endif
    add.template operator()<float>(
        "ade", "the kernels' own, x <= 0, inlined",
        [](Pf x) { return ade::vexp::expNonPositive<float>(x); }, -87.0f);
    add.template operator()<float>("eigen", "Eigen 3.4 pexp, inlined",
                                   [](Pf x) { return ei::pexp(x); }, -87.0f);
#if defined(EIGEN_VECTORIZE_AVX512)
    add.template operator()<float>("libmvec", "glibc _ZGVeN16v_expf, a call",
                                   [](Pf x) { return _ZGVeN16v_expf(x); }, -87.0f);
#endif
#if defined(ADE_BENCH_SLEEF) && defined(EIGEN_VECTORIZE_AVX512)
    add.template operator()<float>("sleef-u10", "SLEEF 3.5 Sleef_expf16_u10avx512f (1.0 ulp), a call",
                                   [](Pf x) { return Sleef_expf16_u10avx512f(x); }, -87.0f);
#endif
    return fs;
}

// y = a x + y over 2 x 128 KiB (L2-resident): bytes moved per second (two reads, one write).
std::function<double(long)> l2Work() {
    constexpr Index m = 16384;
    auto x = std::make_shared<Eigen::VectorXd>(Eigen::VectorXd::Random(m));
    auto y = std::make_shared<Eigen::VectorXd>(Eigen::VectorXd::Random(m));
    return [x, y](long rounds) {
        for (long r = 0; r < rounds; ++r) {
            y->noalias() += 1e-9 * *x;
            keep(y->data());
        }
        return 3.0 * 8.0 * m * static_cast<double>(rounds);
    };
}

// Seconds per call of f on one thread (minTime in all).
double secondsPerCall(const std::function<void()>& f, double minTime) {
    const double rate = rateOf(
        [&](long rounds) {
            for (long r = 0; r < rounds; ++r)
                f();
            return static_cast<double>(rounds);
        },
        minTime);
    return 1.0 / rate;
}

// Experiment A at d > 4: the blocked path's parts (core/models/SoftmaxAttentionRegression.cpp
// rowBlockGeneral, float64, with the same products: models/BlockProducts.h) on one b x n block
// of the case's own sizes, one thread; per step (P sequences of ceil(n / b) blocks on `threads`
// threads) in seconds.
nlohmann::json partsBlockedA(const RooflineCase& c, int threads, double minTime) {
    namespace bp = ade::blockprod;
    const Index n = c.n, d = c.d, k = c.d;
    const Index b = ade::SoftmaxAttentionRegression::blockRows(c.n);
    const double blocks = static_cast<double>(c.prompts) * static_cast<double>((n + b - 1) / b);
    const double perStep = blocks / threads;
    Eigen::MatrixXd X = 0.5 * Eigen::MatrixXd::Random(n, d), Bm = 0.3 * Eigen::MatrixXd::Random(d, d),
                    Am = 0.3 * Eigen::MatrixXd::Random(k, d), Y = Eigen::MatrixXd::Random(n, k);
    const RowMatrix Xr = X;
    Eigen::MatrixXd Q(b, d), GA(b, d), G(b, k);
    // dS goes to T2, not over E as in the kernel: each part reruns on its own output, and dS
    // written over E would compound (E .* E .* ...) into denormals.
    RowMatrix E(b, n), T2(b, n), WX(b, d), dSX(b, d);
    Eigen::VectorXd invZ(b), mx(b);
    Q.noalias() = X.topRows(b) * Bm;
    bp::scores<double>(Q, X, E, {.rowMax = mx.data()});
    G.setRandom();
    GA.noalias() = G * Am;
    struct Part {
        std::string name;
        double flopsPerBlock;
        std::function<void()> f;
    };
    const double bnd = 2.0 * b * n * d;
    std::vector<Part> parts = {
        {"Q = X_blk B", 2.0 * b * d * d, [&] { Q.noalias() = X.topRows(b) * Bm; }},
        {"S = Q X^T, row maxima", bnd, [&] { bp::scores<double>(Q, X, E, {.rowMax = mx.data()}); }},
        {"exp(S - max), row sums", 0.0,
         [&] {
             for (Index i = 0; i < b; ++i) {
                 // A shift above both the scores' maximum and 1 keeps the arguments <= 0 when
                 // the pass reruns on its own output (values in (0, 1]).
                 invZ(i) = 1.0 / ade::vexp::expShiftRow<double>(E.row(i).data(), n,
                                                                 std::max(mx(i), 1.0) + 1.0);
             }
         }},
        {"W X = E X", bnd, [&] { bp::rowsTimes(E, Xr, WX); }},
        {"dS = E .* ((G A) X^T)", bnd,
         [&] { bp::scores<double>(GA, X, T2, {.times = E.data()}); }},
        {"dS X", bnd, [&] { bp::rowsTimes(T2, Xr, dSX); }},
        {"small: F, G, c, dA, dB", 2.0 * b * d * k * 3 + 2.0 * b * d * d, [&] {
             Eigen::MatrixXd F = WX * Am.transpose();
             G = F - Y.topRows(b);
             GA.noalias() = G * Am;
             dSX.noalias() -= WX;
             Eigen::MatrixXd gA = G.transpose() * WX, gB = X.topRows(b).transpose() * dSX;
             keep(gA.data());
             keep(gB.data());
         }}};
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : parts) {
        const double s = secondsPerCall(p.f, minTime);
        out.push_back({{"part", p.name},
                       {"seconds_per_step", s * perStep},
                       {"gflops_one_thread", p.flopsPerBlock > 0 ? p.flopsPerBlock / s * 1e-9 : 0.0}});
    }
    return out;
}

// Darcy stage 2 (core/models/VitRegressor.cpp lossQK): the parts of one sample's loss and
// gradient at the case's sizes (T = 64 tokens, width e = 32, p^2 = 16 outputs), one thread; per
// epoch (1000 samples on `threads` threads) in seconds.
nlohmann::json partsDarcy(int threads, double minTime) {
    namespace bp = ade::blockprod;
    const Index T = 64, e = 32, o = 16;
    const double perEpoch = 1000.0 / threads;
    RowMatrix H = RowMatrix::Random(2 * T, e), VO = RowMatrix::Random(T, o), M(2 * T, e),
              A(T, T), dS(T, T), AV(T, o);
    const Eigen::MatrixXd Hcol = H, VOc = VO, G = Eigen::MatrixXd::Random(T, o);
    const Eigen::MatrixXd BmT = 0.1 * Eigen::MatrixXd::Random(e, e);
    Eigen::MatrixXd HB(2 * T, e);
    RowMatrix dB(e, e);
    const auto hb = [&] {
        bp::scores<double>(BmT.data(), e, e, Hcol.data(), 2 * T, 2 * T, e, HB.data());
    };
    hb();
    Eigen::VectorXd mx(T);
    const auto scores = [&] {
        bp::scores<double>(HB.data(), 2 * T, T, Hcol.data(), 2 * T, T, e, A.data(),
                           {.rowMax = mx.data()});
    };
    scores();
    const Eigen::VectorXd shift = mx.cwiseMax(1.0).array() + 1.0;
    struct Part {
        std::string name;
        double flops, perSample;  // per call; calls per sample
        std::function<void()> f;
    };
    std::vector<Part> parts = {
        {"H B (per 2 samples)", 2.0 * 2 * T * e * e, 0.5, hb},
        {"S = (H B) H^T, row maxima", 2.0 * T * T * e, 1, scores},
        {"softmax (exp, sum, divide)", 0.0, 1,
         [&] {
             // A shift above both the scores' maximum and 1 keeps the arguments <= 0 when the
             // pass reruns on its own output (values in (0, 1]).
             ade::vexp::softmaxRows<double>(A.data(), A.rows(), A.cols(), shift.data());
         }},
        {"A (V W_O)", 2.0 * T * T * o, 1,
         [&] { bp::rowsTimes<double>(A.data(), T, T, VO.data(), o, AV.data()); }},
        {"dA .* A, dA = G (V W_O)^T", 2.0 * T * T * o, 1,
         [&] {
             bp::scores<double>(G.data(), T, T, VOc.data(), T, T, o, dS.data(),
                                {.times = A.data()});
         }},
        {"dS = dA .* A - A rowsum", 0.0, 1,
         [&] {
             for (Index r = 0; r < T; ++r)
                 dS.row(r) -= dS.row(r).sum() * A.row(r);
         }},
        {"dS H", 2.0 * T * T * e, 1,
         [&] { bp::rowsTimes<double>(dS.data(), T, T, H.data(), e, M.data()); }},
        {"H^T M (per 2 samples)", 2.0 * 2 * T * e * e, 0.5,
         [&] { bp::scores<double>(H.data(), e, e, M.data(), e, e, 2 * T, dB.data()); }}};
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : parts) {
        const double s = secondsPerCall(p.f, minTime);
        out.push_back({{"part", p.name},
                       {"seconds_per_step", s * p.perSample * perEpoch},
                       {"gflops_one_thread", p.flops > 0 ? p.flops / s * 1e-9 : 0.0}});
    }
    return out;
}

}  // namespace

nlohmann::json measureRoofline(const std::vector<RooflineCase>& cases, int threads,
                               double minTime) {
    nlohmann::json j;
    j["threads"] = threads;
    j["fma_gflops"] = {{"float64", concurrentRate(threads, minTime, fmaWork<double>) * 1e-9},
                       {"float32", concurrentRate(threads, minTime, fmaWork<float>) * 1e-9}};
    j["exp"] = nlohmann::json::array();
    for (const auto& f : expFunctions()) {
        const double rate = concurrentRate(threads, minTime, f.work);
        j["exp"].push_back({{"name", f.name},
                            {"precision", f.precision},
                            {"note", f.note},
                            {"gexp_per_s", rate * 1e-9},
                            {"max_rel_error", f.error}});
    }
    j["l2_gbytes_per_s"] = concurrentRate(threads, minTime, l2Work) * 1e-9;
    j["cases"] = nlohmann::json::object();
    for (const auto& c : cases) {
        nlohmann::json cj;
        if (c.experiment == "a") {
            const double pairs = static_cast<double>(c.prompts) * c.n * c.n;
            cj["pairs"] = pairs;
            cj["path"] = c.d <= 4 ? "fused (d <= 4)" : "blocked products (d > 4)";
            // Unavoidable floating-point work besides the exps, per pair: the fused kernel's
            // score (2d), u (2d), second moment (d(d+1)) and z (1); the blocked path's four
            // products (8d) and the two elementwise passes (2).
            cj["other_flops"] = pairs * (c.d <= 4 ? c.d * c.d + 5.0 * c.d + 1 : 8.0 * c.d + 2);
            if (c.d > 4) cj["parts"] = partsBlockedA(c, threads, minTime);
        } else if (c.experiment == "darcy") {
            cj["parts"] = partsDarcy(threads, minTime);
        } else {
            continue;
        }
        j["cases"][c.name] = cj;
    }
    return j;
}

}  // namespace adebench
