#pragma once
// The vectorised exp of the attention kernels (core/models/SoftmaxAttentionRegression.cpp):
// exp(x) for x <= 0 on an Eigen packet, in double or float. Kept in a header so that
// bench/ade-bench times the very function the kernels call (its roofline micro-benchmark,
// docs/performance.md), beside Eigen's pexp, glibc's libmvec and SLEEF.
#include <Eigen/Core>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ade::vexp {

namespace ei = Eigen::internal;
template <typename T>
using PacketOf = typename ei::packet_traits<T>::type;
template <typename T>
constexpr int kLanesOf = static_cast<int>(sizeof(PacketOf<T>) / sizeof(T));

// 2^n for a double packet of any width t = x log2(e) + (1.5 * 2^52 + 1023) whose low mantissa
// bits hold n + 1023 (also Experiment C's 256-bit tanh on AVX-512 machines).
#if defined(EIGEN_VECTORIZE_AVX512)
inline __m512d exponentBits(__m512d t) {
    return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_castpd_si512(t), 52));
}
#endif
#if defined(EIGEN_VECTORIZE_AVX2)
inline __m256d exponentBits(__m256d t) {
    return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(t), 52));
}
#elif defined(EIGEN_VECTORIZE_AVX)
inline __m256d exponentBits(__m256d t) {
    // AVX without AVX2 has no 256-bit integer shift: do the two halves.
    const __m128i lo = _mm_slli_epi64(_mm_castpd_si128(_mm256_castpd256_pd128(t)), 52);
    const __m128i hi = _mm_slli_epi64(_mm_castpd_si128(_mm256_extractf128_pd(t, 1)), 52);
    return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_castsi128_pd(lo)),
                                _mm_castsi128_pd(hi), 1);
}
#endif
#if defined(EIGEN_VECTORIZE_SSE2)
inline __m128d exponentBits(__m128d t) {
    return _mm_castsi128_pd(_mm_slli_epi64(_mm_castpd_si128(t), 52));
}
#endif
inline double exponentBits(double t) {
    std::uint64_t bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits <<= 52;
    double r;
    std::memcpy(&r, &bits, sizeof r);
    return r;
}

// 2^n for a packet t = x log2(e) + (1.5 * 2^52 + 1023) whose low mantissa bits hold n + 1023
// (double), or t = x log2(e) + (1.5 * 2^23 + 127) holding n + 127 (float).
template <typename T>
inline PacketOf<T> exponentOf(const PacketOf<T>& t) {
    if constexpr (std::is_same_v<T, double>) {
        return exponentBits(t);
    } else {
#if defined(EIGEN_VECTORIZE_AVX512)
        return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_castps_si512(t), 23));
#elif defined(EIGEN_VECTORIZE_AVX2)
        return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(t), 23));
#elif defined(EIGEN_VECTORIZE_AVX)
        const __m128i lo = _mm_slli_epi32(_mm_castps_si128(_mm256_castps256_ps128(t)), 23);
        const __m128i hi = _mm_slli_epi32(_mm_castps_si128(_mm256_extractf128_ps(t, 1)), 23);
        return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_castsi128_ps(lo)),
                                    _mm_castsi128_ps(hi), 1);
#elif defined(EIGEN_VECTORIZE_SSE2)
        return _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(t), 23));
#else
        std::uint32_t bits;
        std::memcpy(&bits, &t, sizeof bits);
        bits <<= 23;
        float r;
        std::memcpy(&r, &bits, sizeof r);
        return r;
#endif
    }
}

#if defined(EIGEN_VECTORIZE_AVX512)
// 2^(j/16), j = 0..15, correctly rounded: the table of expNonPositiveTable, two registers.
alignas(64) inline constexpr double kExp2Sixteenths[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};

// exp(x), x <= 0, on AVX-512 (8 doubles): x = (16 k + j) ln2/16 + r with |r| <= ln2/32, so
// exp(x) = 2^k 2^(j/16) e^r. 2^(j/16) comes from the 16-entry table in two registers by one
// vpermt2pd (whose index is the low 4 bits of t, which hold j), 2^k goes into the exponent bits
// of the table value by an integer add, and e^r = 1 + r (1 + r f(r)) with f of degree 4,
// fitted on the Chebyshev nodes of [-ln2/32, ln2/32] (truncation error 3e-17). About 15 vector
// operations against the degree-12 polynomial's 22, and 10 of them on the FMA ports against
// 18: 1.5x the exps per second, max relative error 2.1e-16 against 5e-16 (bench/ade-bench
// --roofline).
inline __m512d expNonPositiveTable(__m512d x) {
    const __m512d shifter = _mm512_set1_pd(6755399441055744.0);  // 1.5 * 2^52
    x = ei::pmax(x, _mm512_set1_pd(-708.0));                     // NaN propagates (Eigen's pmax)
    const __m512d t = _mm512_fmadd_pd(x, _mm512_set1_pd(23.083120654223414), shifter);  // 16/ln2
    const __m512d m = _mm512_sub_pd(t, shifter);  // 16 k + j, an integer
    // r = x - m ln2/16, ln2/16 split so that m * hi is exact.
    __m512d r = _mm512_fnmadd_pd(m, _mm512_set1_pd(0.04332160949707031), x);
    r = _mm512_fnmadd_pd(m, _mm512_set1_pd(8.928792626933858e-08), r);
    const __m512i ti = _mm512_castpd_si512(t);  // low mantissa bits: 2^51 + 16 k + j
    const __m512d tab = _mm512_permutex2var_pd(_mm512_load_pd(kExp2Sixteenths), ti,
                                               _mm512_load_pd(kExp2Sixteenths + 8));
    // 2^k 2^(j/16) by vscalefpd, which scales by 2^floor(m / 16) = 2^k (m / 16 is exact).
    const __m512d s = _mm512_scalef_pd(tab, _mm512_mul_pd(m, _mm512_set1_pd(0.0625)));
    __m512d f = _mm512_set1_pd(0.0013889034348599464);
    f = _mm512_fmadd_pd(f, r, _mm512_set1_pd(0.008333449701253456));
    f = _mm512_fmadd_pd(f, r, _mm512_set1_pd(0.04166666666496045));
    f = _mm512_fmadd_pd(f, r, _mm512_set1_pd(0.1666666666530169));
    f = _mm512_fmadd_pd(f, r, _mm512_set1_pd(0.5));
    const __m512d g = _mm512_fmadd_pd(f, r, _mm512_set1_pd(1.0));
    return _mm512_fmadd_pd(_mm512_mul_pd(s, r), g, s);  // s (1 + r g)
}

// 2^(j/16), j = 0..15, in float: the table of the float expNonPositiveTable, one register.
alignas(64) inline constexpr float kExp2SixteenthsF[16] = {
    0x1.000000p+0f, 0x1.0b5586p+0f, 0x1.172b84p+0f, 0x1.2387a6p+0f, 0x1.306fe0p+0f, 0x1.3dea64p+0f,
    0x1.4bfdaep+0f, 0x1.5ab07ep+0f, 0x1.6a09e6p+0f, 0x1.7a1148p+0f, 0x1.8ace54p+0f, 0x1.9c4918p+0f,
    0x1.ae89fap+0f, 0x1.c199bep+0f, 0x1.d5818ep+0f, 0x1.ea4afap+0f};

// The same for 16 floats: the table in one register (vpermps), e^r = 1 + r (1 + r f(r)) with f
// of degree 1 (fitted: truncation error 5e-9), max relative error about one float ulp. 7 of its
// 13 operations on the FMA ports against 11 of the degree-7 polynomial's 14.
inline __m512 expNonPositiveTable(__m512 x) {
    const __m512 shifter = _mm512_set1_ps(12582912.0f);  // 1.5 * 2^23
    x = ei::pmax(x, _mm512_set1_ps(-87.0f));
    const __m512 t = _mm512_fmadd_ps(x, _mm512_set1_ps(23.083120346069336f), shifter);
    const __m512 m = _mm512_sub_ps(t, shifter);
    __m512 r = _mm512_fnmadd_ps(m, _mm512_set1_ps(0.0433197021484375f), x);  // 12-bit ln2/16
    r = _mm512_fnmadd_ps(m, _mm512_set1_ps(1.9966364561696537e-06f), r);
    const __m512i ti = _mm512_castps_si512(t);  // low mantissa bits: 2^22 + 16 k + j
    const __m512 tab = _mm512_permutexvar_ps(ti, _mm512_load_ps(kExp2SixteenthsF));
    const __m512 s = _mm512_scalef_ps(tab, _mm512_mul_ps(m, _mm512_set1_ps(0.0625f)));
    const __m512 f = _mm512_fmadd_ps(_mm512_set1_ps(0.1666686236858368f), r,
                                     _mm512_set1_ps(0.5000097751617432f));
    const __m512 g = _mm512_fmadd_ps(f, r, _mm512_set1_ps(1.0f));
    return _mm512_fmadd_ps(_mm512_mul_ps(s, r), g, s);
}
#endif

// exp(x) for x <= 0 (double: arguments below -708 give about 1e-308, never 0; float: below
// -87 about 1.6e-38; callers mask excluded entries). On AVX-512: expNonPositiveTable (above).
// Otherwise (AVX2, SSE2, float) Cody-Waite reduction x = n ln2 + r,
// |r| <= ln2/2, a Taylor polynomial (double: degree 12 by Estrin's scheme, relative error
// ~5e-16; float: degree 7 by Horner's, ~1e-7, about one float ulp), scaling by 2^n through the
// exponent bits: no division, unlike Eigen's generic pexp. NaN propagates.
template <typename T>
inline PacketOf<T> expNonPositive(PacketOf<T> x) {
#if defined(EIGEN_VECTORIZE_AVX512)
    return expNonPositiveTable(x);  // Packet8d or Packet16f
#else
    using P = PacketOf<T>;
    if constexpr (std::is_same_v<T, double>) {
        const P shifter = ei::pset1<P>(6755399441055744.0 + 1023.0);  // 1.5 * 2^52 + 1023
        x = ei::pmax(x, ei::pset1<P>(-708.0));
        const P t = ei::pmadd(x, ei::pset1<P>(1.4426950408889634074), shifter);
        const P n = ei::psub(t, shifter);
        P r = ei::pmadd(n, ei::pset1<P>(-0.693145751953125), x);
        r = ei::pmadd(n, ei::pset1<P>(-1.42860682030941723212e-6), r);
        // The degree-12 Taylor polynomial by Estrin's scheme: three more multiplications than
        // Horner's, but a dependency chain of 5 operations instead of 12, so that more exps are
        // in flight at once (bench/ade-bench --roofline: 15% more exps per second on AVX-512).
        auto c = [](double v) { return ei::pset1<P>(v); };
        const P r2 = ei::pmul(r, r), r4 = ei::pmul(r2, r2), r8 = ei::pmul(r4, r4);
        const P q0 = ei::padd(c(1.0), r);
        const P q1 = ei::pmadd(c(1.0 / 6.0), r, c(0.5));
        const P q2 = ei::pmadd(c(1.0 / 120.0), r, c(1.0 / 24.0));
        const P q3 = ei::pmadd(c(1.0 / 5040.0), r, c(1.0 / 720.0));
        const P q4 = ei::pmadd(c(1.0 / 362880.0), r, c(1.0 / 40320.0));
        const P q5 = ei::pmadd(c(1.0 / 39916800.0), r, c(1.0 / 3628800.0));
        const P s0 = ei::pmadd(q1, r2, q0), s1 = ei::pmadd(q3, r2, q2);
        const P s2 = ei::pmadd(q5, r2, q4);
        const P t0 = ei::pmadd(s1, r4, s0), t1 = ei::pmadd(c(1.0 / 479001600.0), r4, s2);
        const P p = ei::pmadd(t1, r8, t0);
        return ei::pmul(p, exponentOf<double>(t));
    } else {
        const P shifter = ei::pset1<P>(12582912.0f + 127.0f);  // 1.5 * 2^23 + 127
        x = ei::pmax(x, ei::pset1<P>(-87.0f));
        const P t = ei::pmadd(x, ei::pset1<P>(1.44269504f), shifter);
        const P n = ei::psub(t, shifter);
        P r = ei::pmadd(n, ei::pset1<P>(-0.693359375f), x);  // ln 2 = 0.693359375 - 2.12194e-4
        r = ei::pmadd(n, ei::pset1<P>(2.12194440e-4f), r);
        P p = ei::pset1<P>(1.0f / 5040.0f);  // 1/7!
        p = ei::pmadd(p, r, ei::pset1<P>(1.0f / 720.0f));
        p = ei::pmadd(p, r, ei::pset1<P>(1.0f / 120.0f));
        p = ei::pmadd(p, r, ei::pset1<P>(1.0f / 24.0f));
        p = ei::pmadd(p, r, ei::pset1<P>(1.0f / 6.0f));
        p = ei::pmadd(p, r, ei::pset1<P>(0.5f));
        p = ei::pmadd(p, r, ei::pset1<P>(1.0f));
        p = ei::pmadd(p, r, ei::pset1<P>(1.0f));
        return ei::pmul(p, exponentOf<float>(t));
    }
#endif
}

template <typename T>
inline T expNonPositiveScalar(T x) {
    return ei::pfirst(expNonPositive<T>(ei::pset1<PacketOf<T>>(x)));
}

// row[j] <- exp(row[j] - mx) for j < n (mx >= every row[j]); returns the sum of the new row:
// packets first (their lanes summed at the end), then the last n % lanes one at a time. The
// softmax pass of the Experiment A kernel's blocked path (and of its roofline benchmark).
template <typename T>
inline T expShiftRow(T* row, Eigen::Index n, T mx) {
    using P = PacketOf<T>;
    constexpr int L = kLanesOf<T>;
    const Eigen::Index nFull = n - n % L;
    const P mxp = ei::pset1<P>(mx);
    P zp = ei::pzero(P{});
    for (Eigen::Index j = 0; j < nFull; j += L) {
        const P e = expNonPositive<T>(ei::psub(ei::ploadu<P>(row + j), mxp));
        ei::pstoreu(row + j, e);
        zp = ei::padd(zp, e);
    }
    T z = ei::predux(zp);
    for (Eigen::Index j = nFull; j < n; ++j) {
        row[j] = expNonPositiveScalar<T>(row[j] - mx);
        z += row[j];
    }
    return z;
}

// The softmax of each row of a row-major rows x n block whose row maxima (or any upper bounds)
// are known: a[r][j] <- exp(a[r][j] - mx[r]) / sum over j of the same. Darcy stage 2's attention
// (models/VitRegressor.cpp) and its roofline part.
template <typename T>
inline void softmaxRows(T* a, Eigen::Index rows, Eigen::Index n, const T* mx) {
    for (Eigen::Index r = 0; r < rows; ++r) {
        T* row = a + r * n;
        const T z = expShiftRow<T>(row, n, mx[r]);
        Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>>(row, n) /= z;
    }
}

}  // namespace ade::vexp
