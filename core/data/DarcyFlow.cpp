#include "data/DarcyFlow.h"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>

#include "io/Files.h"
#include "io/Npy.h"
#include "util/ChunkedParallel.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

namespace ade {

Eigen::MatrixXd grfScales(int modes, double tau, double alpha) {
    Eigen::MatrixXd c(modes, modes);
    const double pi2 = std::numbers::pi * std::numbers::pi;
    for (int k2 = 0; k2 < modes; ++k2)
        for (int k1 = 0; k1 < modes; ++k1)
            c(k1, k2) = std::pow(tau, alpha - 1.0) *
                        std::pow(pi2 * (k1 * k1 + k2 * k2) + tau * tau, -alpha / 2.0);
    c(0, 0) = 0.0;
    return c;
}

Eigen::MatrixXd sampleGrf(const Eigen::VectorXd& xs, int modes, double tau, double alpha,
                          Rng& rng) {
    const Eigen::MatrixXd coeff =
        grfScales(modes, tau, alpha).cwiseProduct(rng.normalMatrix(modes, modes));
    Eigen::MatrixXd C(xs.size(), modes);
    for (int k = 0; k < modes; ++k)
        C.col(k) = (std::numbers::pi * k * xs).array().cos().matrix();
    return C * coeff * C.transpose();
}

Eigen::MatrixXd solveDarcy(const Eigen::MatrixXd& a, const Eigen::MatrixXd& f) {
    const int s = static_cast<int>(f.rows());
    const double h = 1.0 / (s + 1), invH2 = 1.0 / (h * h);
    auto idx = [s](int i, int j) { return (i - 1) * s + (j - 1); };  // interior node (i, j)
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(static_cast<std::size_t>(5) * s * s);
    Eigen::VectorXd rhs(static_cast<Eigen::Index>(s) * s);
    for (int i = 1; i <= s; ++i)
        for (int j = 1; j <= s; ++j) {
            const int row = idx(i, j);
            const int ni[4] = {i - 1, i + 1, i, i};
            const int nj[4] = {j, j, j - 1, j + 1};
            double diag = 0.0;
            for (int q = 0; q < 4; ++q) {
                const double face = 0.5 * (a(i, j) + a(ni[q], nj[q])) * invH2;
                diag += face;
                const bool interior = ni[q] >= 1 && ni[q] <= s && nj[q] >= 1 && nj[q] <= s;
                if (interior) t.emplace_back(row, idx(ni[q], nj[q]), -face);  // boundary: u = 0
            }
            t.emplace_back(row, row, diag);
            rhs(row) = f(i - 1, j - 1);
        }
    Eigen::SparseMatrix<double> A(rhs.size(), rhs.size());
    A.setFromTriplets(t.begin(), t.end());
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(A);
    const Eigen::VectorXd u = solver.solve(rhs);
    Eigen::MatrixXd out(s, s);
    for (int i = 1; i <= s; ++i)
        for (int j = 1; j <= s; ++j)
            out(i - 1, j - 1) = u(idx(i, j));
    return out;
}

DarcySet generateDarcy(const DarcySpec& spec, int count, std::uint64_t seed,
                       std::uint64_t streamBase, WorkerPool* pool) {
    const int s = spec.resolution, nodes = s + 2;
    const std::size_t n = static_cast<std::size_t>(s) * s;
    DarcySet set;
    set.resolution = s;
    set.count = count;
    set.a.resize(count * n);
    set.u.resize(count * n);
    const Eigen::VectorXd xs = Eigen::VectorXd::LinSpaced(nodes, 0.0, 1.0);
    const Eigen::MatrixXd f = Eigen::MatrixXd::Ones(s, s);
    forEachChunk(pool, count, 4, [&](int, int begin, int end) {
        for (int i = begin; i < end; ++i) {
            Rng rng(seed, streamBase + static_cast<std::uint64_t>(i));
            const Eigen::MatrixXd g = sampleGrf(xs, nodes, spec.tau, spec.alpha, rng);
            const Eigen::MatrixXd a =
                (g.array() >= 0.0)
                    .select(spec.aHigh, Eigen::MatrixXd::Constant(nodes, nodes, spec.aLow));
            const Eigen::MatrixXd u = solveDarcy(a, f);
            // Row-major storage: pixel (r, c) at r * s + c.
            for (int r = 0; r < s; ++r)
                for (int c = 0; c < s; ++c) {
                    set.a[i * n + r * s + c] = a(r + 1, c + 1);
                    set.u[i * n + r * s + c] = u(r, c);
                }
        }
    });
    return set;
}

std::filesystem::path cacheDirectory() {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (const char* d = std::getenv("ADE_CACHE_DIR"); d && *d) candidates.emplace_back(d);
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
        candidates.push_back(fs::path(x) / "attention-explorer");
    if (const char* h = std::getenv("HOME"); h && *h)
        candidates.push_back(fs::path(h) / ".cache" / "attention-explorer");
    for (const auto& c : candidates) {
        std::error_code ec;
        fs::create_directories(c, ec);
        if (!ec && fs::is_directory(c, ec)) return c;
    }
    return {};
}

namespace {
std::string fmtG(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}
}  // namespace

DarcySet loadOrGenerateDarcy(const DarcySpec& spec, int count, std::uint64_t seed,
                             std::uint64_t streamBase, WorkerPool* pool, bool* generated,
                             std::string* cacheFile) {
    const int s = spec.resolution;
    const std::size_t n = static_cast<std::size_t>(s) * s;
    const std::filesystem::path dir = cacheDirectory();
    std::filesystem::path file;
    if (!dir.empty()) {
        file = dir / ("darcy-v1-r" + std::to_string(s) + "-n" + std::to_string(count) + "-seed" +
                      std::to_string(seed) + "-stream" + std::to_string(streamBase) + "-psi" +
                      fmtG(spec.aLow) + "_" + fmtG(spec.aHigh) + "-tau" + fmtG(spec.tau) + "-alpha" +
                      fmtG(spec.alpha) + ".npy");
        if (cacheFile) *cacheFile = file.string();
        std::error_code ec;
        if (std::filesystem::is_regular_file(file, ec)) {
            std::string bytes;
            if (std::FILE* fp = std::fopen(file.c_str(), "rb")) {
                char buf[1 << 16];
                std::size_t got;
                while ((got = std::fread(buf, 1, sizeof buf, fp)) > 0)
                    bytes.append(buf, got);
                std::fclose(fp);
            }
            std::string err;
            const auto arr = decodeNpy(bytes, &err);
            const std::vector<std::size_t> shape = {static_cast<std::size_t>(count), 2,
                                                    static_cast<std::size_t>(s),
                                                    static_cast<std::size_t>(s)};
            bool ok = arr && arr->shape == shape && arr->values.size() == count * 2 * n;
            if (ok) {
                DarcySet set;
                set.resolution = s;
                set.count = count;
                set.a.resize(count * n);
                set.u.resize(count * n);
                for (int i = 0; i < count && ok; ++i) {
                    const double* src = arr->values.data() + i * 2 * n;
                    std::copy(src, src + n, set.a.begin() + i * n);
                    std::copy(src + n, src + 2 * n, set.u.begin() + i * n);
                }
                for (double v : arr->values)
                    if (!std::isfinite(v)) ok = false;
                if (ok) {
                    if (generated) *generated = false;
                    return set;
                }
            }
            // Corrupt or mismatched: fall through and regenerate (the file is overwritten).
        }
    }
    DarcySet set = generateDarcy(spec, count, seed, streamBase, pool);
    if (generated) *generated = true;
    if (!file.empty()) {
        NamedArray arr;
        arr.name = "darcy";
        arr.shape = {static_cast<std::size_t>(count), 2, static_cast<std::size_t>(s),
                     static_cast<std::size_t>(s)};
        arr.values.reserve(count * 2 * n);
        for (int i = 0; i < count; ++i) {
            arr.values.insert(arr.values.end(), set.a.begin() + i * n, set.a.begin() + (i + 1) * n);
            arr.values.insert(arr.values.end(), set.u.begin() + i * n, set.u.begin() + (i + 1) * n);
        }
        std::string err;
        writeFileAtomic(file, encodeNpy(arr), &err);  // failure only costs time next run
    }
    return set;
}

}  // namespace ade
