#include "experiments/darcy/ExperimentDarcy.h"

#include "util/RunControl.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "config/ParamSpec.h"
#include "experiments/ExperimentRegistry.h"
#include "experiments/FactorPairProblem.h"
#include "io/Files.h"
#include "models/FactorOrbit.h"
#include "training/Trainer.h"
#include "util/Rng.h"
#include "util/WorkerPool.h"

namespace ade {

void registerExperimentDarcyParams(ParamRegistry& r) {
    auto d = keysFor(r, {"darcy"});
    d(makeInt("darcy.resolution", "data", "Resolution s", 32, 16, 64,
              "Interior grid nodes per side of the Darcy problem (s x s images, h = 1/(s+1)); "
              "must be a multiple of darcy.patch."));
    d(makeInt("darcy.train", "data", "Training samples", 1000, 1, 100000,
              "Training pairs (a, u); generated data are cached on disk per (resolution, count, "
              "seed)."));
    d(makeInt("darcy.test", "data", "Test samples", 200, 1, 100000,
              "Held-out pairs for the test loss, RMSE and relative L2 error."));
    d(makeReal("darcy.a_high", "data", "a where g >= 0", 12.0, 0, 1e6,
               "Coefficient a = psi(g) where the Gaussian random field g is >= 0.", false, true));
    d(makeReal("darcy.a_low", "data", "a where g < 0", 3.0, 0, 1e6,
               "Coefficient a where g < 0 (3 in the FNO benchmark; some generators use 4).", false,
               true));
    d(makeInt("darcy.patch", "model", "Patch p", 4, 1, 64,
              "Patch side p: the s x s coefficient image becomes (s/p)^2 tokens of p^2 pixels "
              "plus the 2-D patch position."));
    d(makeInt("darcy.width", "model", "Embedding width e", 32, 1, 1024,
              "Embedding width e of the tokens; W_Q, W_K, W_V are e x e."));
    d(makeInt("stage1.epochs", "optimizer", "Stage-1 epochs", 60, 0, 100000,
              "Epochs of stage 1 (Adam on every weight). Stage 1 runs once per setting and is "
              "cached; stage 2 (the run itself) trains only W_Q and W_K from its weights."));
    d(makeReal("stage1.lr", "optimizer", "Stage-1 Adam step", 3e-3, 0, 10,
               "Adam step size of stage 1.", true, true));
    d(makeInt("stage1.batch", "optimizer", "Stage-1 batch", 32, 1, 100000,
              "Minibatch size of stage 1."));
}

namespace {

using Clock = std::chrono::steady_clock;

DarcySpec darcySpecFrom(const Config& c) {
    DarcySpec s;
    s.resolution = static_cast<int>(c.getInt("darcy.resolution"));
    s.aHigh = c.getReal("darcy.a_high");
    s.aLow = c.getReal("darcy.a_low");
    return s;
}

void validateDarcy(const Config& c, std::vector<ConfigError>& errors) {
    validatePaperBCommon(c, errors);
    const auto s = c.getInt("darcy.resolution"), p = c.getInt("darcy.patch");
    if (s % p != 0)
        errors.push_back({"darcy.patch", std::to_string(p),
                          "invalid value '" + std::to_string(p) +
                              "' for key 'darcy.patch': the patch side must divide "
                              "darcy.resolution = " +
                              std::to_string(s)});
    // Memory: the raw sets (a, u), the tokens (X: P + 2, Y: P per token) and stage 2's frozen
    // parts (H: e, VO, base and a copy of Y: 3 P per token).
    const double samples = static_cast<double>(c.getInt("darcy.train") + c.getInt("darcy.test"));
    const double P = static_cast<double>(p * p), e = static_cast<double>(c.getInt("darcy.width"));
    const double tokens = static_cast<double>(s * s) / P;
    const double bytes = 8.0 * samples * (2.0 * s * s + tokens * (5.0 * P + 2.0 + e));
    if (bytes > 8.0 * 1024 * 1024 * 1024)
        errors.push_back({"darcy.train", std::to_string(c.getInt("darcy.train")),
                          "configuration needs more than 8 GiB of memory: lower darcy.train, "
                          "darcy.test or darcy.width"});
}

std::string briefDarcy(const Config& c) {
    std::ostringstream s;
    s << c.getInt("darcy.resolution") << "x" << c.getInt("darcy.resolution")
      << " n=" << c.getInt("darcy.train");
    briefOptimizerAndRegularizer(s, c);
    return s.str();
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::uint64_t fnv1a(const std::string& s) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char ch : s) {
        h ^= ch;
        h *= 1099511628211ull;
    }
    return h;
}

constexpr std::uint64_t kTrainStreams = static_cast<std::uint64_t>(Rng::Data) << 40;
constexpr std::uint64_t kTestStreams = static_cast<std::uint64_t>(Rng::TestData) << 40;

std::mutex gMemoMutex;
std::map<std::string, std::weak_ptr<const DarcyTask>> gTasks;
std::map<std::string, ParamSet> gStage1;

std::string taskKey(const Config& c) {
    const DarcySpec s = darcySpecFrom(c);
    return "v1 r" + std::to_string(s.resolution) + " train" +
           std::to_string(c.getInt("darcy.train")) + " test" +
           std::to_string(c.getInt("darcy.test")) + " seed" + std::to_string(c.getInt("seed")) +
           " psi" + num(s.aLow) + "," + num(s.aHigh) + " p" +
           std::to_string(c.getInt("darcy.patch"));
}

std::string stage1Key(const Config& c) {
    return taskKey(c) + " e" + std::to_string(c.getInt("darcy.width")) + " epochs" +
           std::to_string(c.getInt("stage1.epochs")) + " lr" + num(c.getReal("stage1.lr")) +
           " batch" + std::to_string(c.getInt("stage1.batch")) + " adam" +
           num(c.getReal("adam.beta1")) + "," + num(c.getReal("adam.beta2")) + "," +
           num(c.getReal("adam.eps"));
}

// Per-pixel mean and std over samples (std 1 where the pixel never varies).
void pixelMoments(const std::vector<double>& v, int count, std::size_t n, Eigen::VectorXd& mean,
                  Eigen::VectorXd& sd) {
    const Eigen::Map<const Eigen::MatrixXd> M(v.data(), static_cast<Eigen::Index>(n), count);
    mean = M.rowwise().mean();
    sd = ((M.colwise() - mean).array().square().rowwise().sum() / count).sqrt().matrix();
    for (Eigen::Index i = 0; i < sd.size(); ++i)
        if (!(sd(i) > 1e-12)) sd(i) = 1.0;
}

PatchTokens toTokens(const DarcySet& set, int patch, const Eigen::VectorXd& aMean,
                     const Eigen::VectorXd& aSd, const Eigen::VectorXd& uMean,
                     const Eigen::VectorXd& uSd) {
    const int s = set.resolution, np = s / patch, T = np * np, P = patch * patch;
    const std::size_t n = static_cast<std::size_t>(s) * s;
    PatchTokens t;
    t.samples = set.count;
    t.tokens = T;
    t.X.resize(static_cast<Eigen::Index>(set.count) * T, P + 2);
    t.Y.resize(static_cast<Eigen::Index>(set.count) * T, P);
    for (int i = 0; i < set.count; ++i)
        for (int pr = 0; pr < np; ++pr)
            for (int pc = 0; pc < np; ++pc) {
                const Eigen::Index row = static_cast<Eigen::Index>(i) * T + pr * np + pc;
                for (int dr = 0; dr < patch; ++dr)
                    for (int dc = 0; dc < patch; ++dc) {
                        const std::size_t pix = (pr * patch + dr) * s + (pc * patch + dc);
                        t.X(row, dr * patch + dc) = (set.a[i * n + pix] - aMean(pix)) / aSd(pix);
                        t.Y(row, dr * patch + dc) = (set.u[i * n + pix] - uMean(pix)) / uSd(pix);
                    }
                t.X(row, P) = (pr + 0.5) / np;
                t.X(row, P + 1) = (pc + 0.5) / np;
            }
    return t;
}

Eigen::VectorXd sampleNorms(const DarcySet& set) {
    const std::size_t n = static_cast<std::size_t>(set.resolution) * set.resolution;
    Eigen::VectorXd out(set.count);
    for (int i = 0; i < set.count; ++i)
        out(i) =
            Eigen::Map<const Eigen::VectorXd>(set.u.data() + i * n, static_cast<Eigen::Index>(n))
                .norm();
    return out;
}

bool loadStage1(const std::filesystem::path& file, const std::string& key, ParamSet& out) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return false;
    std::stringstream ss;
    ss << in.rdbuf();
    const nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("key", "") != key) return false;
    try {
        ParamSet p;
        for (const auto& m : j.at("mats")) {
            const auto rows = m.at("rows").get<Eigen::Index>(),
                       cols = m.at("cols").get<Eigen::Index>();
            const auto data = m.at("data").get<std::vector<double>>();
            if (rows <= 0 || cols <= 0 || static_cast<Eigen::Index>(data.size()) != rows * cols)
                return false;
            p.names.push_back(m.at("name").get<std::string>());
            p.mats.push_back(Eigen::Map<const Eigen::MatrixXd>(data.data(), rows, cols));
        }
        if (!p.allFinite()) return false;
        out = std::move(p);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

void saveStage1(const std::filesystem::path& file, const std::string& key, const ParamSet& p) {
    nlohmann::json j;
    j["key"] = key;
    j["mats"] = nlohmann::json::array();
    for (std::size_t i = 0; i < p.size(); ++i)
        j["mats"].push_back(
            {{"name", p.names[i]},
             {"rows", p[i].rows()},
             {"cols", p[i].cols()},
             {"data", std::vector<double>(p[i].data(), p[i].data() + p[i].size())}});
    std::string err;
    writeFileAtomic(file, j.dump() + "\n", &err);  // failure only costs time next run
}

bool stage1ShapesMatch(const ParamSet& p, const DarcyTask& task, int width) {
    const int P = task.patch * task.patch;
    const int rows[7] = {P + 2, 1, width, width, width, width, 1};
    const int cols[7] = {width, width, width, width, width, P, P};
    if (p.size() != 7) return false;
    for (int i = 0; i < 7; ++i)
        if (p[i].rows() != rows[i] || p[i].cols() != cols[i]) return false;
    return true;
}

}  // namespace

std::shared_ptr<const DarcyTask> darcyTask(const Config& c, std::string* /*error*/) {
    const std::string key = taskKey(c);
    std::lock_guard lock(gMemoMutex);
    if (auto t = gTasks[key].lock()) return t;
    const auto t0 = Clock::now();
    auto task = std::make_shared<DarcyTask>();
    task->spec = darcySpecFrom(c);
    task->patch = static_cast<int>(c.getInt("darcy.patch"));
    const int np = task->spec.resolution / task->patch;
    task->tokens = np * np;
    const auto seed = static_cast<std::uint64_t>(c.getInt("seed"));
    const int threads = static_cast<int>(c.getInt("threads"));
    std::unique_ptr<WorkerPool> pool;
    if (threads > 1) pool = std::make_unique<WorkerPool>(threads);
    bool genTrain = false, genTest = false;
    const DarcySet train =
        loadOrGenerateDarcy(task->spec, static_cast<int>(c.getInt("darcy.train")), seed,
                            kTrainStreams, pool.get(), &genTrain);
    const DarcySet test = loadOrGenerateDarcy(task->spec, static_cast<int>(c.getInt("darcy.test")),
                                              seed, kTestStreams, pool.get(), &genTest);
    const std::size_t n = static_cast<std::size_t>(train.resolution) * train.resolution;
    Eigen::VectorXd aMean, aSd, uMean, uSd;
    pixelMoments(train.a, train.count, n, aMean, aSd);
    pixelMoments(train.u, train.count, n, uMean, uSd);
    task->train = toTokens(train, task->patch, aMean, aSd, uMean, uSd);
    task->test = toTokens(test, task->patch, aMean, aSd, uMean, uSd);
    // Per-pixel std in token layout: the same for every sample, so tokenise it once.
    DarcySet sdSet;
    sdSet.resolution = train.resolution;
    sdSet.count = 1;
    sdSet.a.assign(uSd.data(), uSd.data() + n);
    sdSet.u = sdSet.a;
    task->uStd = toTokens(sdSet, task->patch, Eigen::VectorXd::Zero(n), Eigen::VectorXd::Ones(n),
                          Eigen::VectorXd::Zero(n), Eigen::VectorXd::Ones(n))
                     .Y;
    task->trainNorm = sampleNorms(train);
    task->testNorm = sampleNorms(test);
    if (genTrain || genTest) {
        task->seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        std::fprintf(stderr, "darcy: generated %d + %d samples at %dx%d in %.2f s (cached in %s)\n",
                     train.count, test.count, train.resolution, train.resolution, task->seconds,
                     cacheDirectory().string().c_str());
    }
    gTasks[key] = task;
    return task;
}

std::optional<ParamSet> darcyStage1(const Config& c, const std::shared_ptr<const DarcyTask>& task,
                                    std::string* error, double* seconds) {
    if (seconds) *seconds = 0.0;
    const std::string key = stage1Key(c);
    const int width = static_cast<int>(c.getInt("darcy.width"));
    std::lock_guard lock(gMemoMutex);
    if (auto it = gStage1.find(key); it != gStage1.end()) return it->second;
    const std::filesystem::path dir = cacheDirectory();
    const std::filesystem::path file =
        dir.empty() ? std::filesystem::path()
                    : dir / ("darcy-stage1-" + std::to_string(fnv1a(key)) + ".json");
    ParamSet p;
    if (!file.empty() && loadStage1(file, key, p) && stage1ShapesMatch(p, *task, width)) {
        gStage1[key] = p;
        return p;
    }

    // Train: the generic Trainer with Adam on minibatches, every weight trainable.
    Config s1 = c;
    const auto batch = c.getInt("stage1.batch");
    const auto steps = c.getInt("stage1.epochs") * ((c.getInt("darcy.train") + batch - 1) / batch);
    for (const auto& [k, v] : std::vector<std::pair<std::string, nlohmann::json>>{
             {"optimizer", "adam"},
             {"lr", c.getReal("stage1.lr")},
             {"batch", batch},
             {"iterations", steps},
             {"log_every", std::max<std::int64_t>(1, steps)},
             {"step_rule", "fixed"},
             {"regularizer", "none"},
             {"init", "random"}})
        if (auto e = s1.setJson(k, v)) {
            if (error) *error = "stage 1: " + e->message;
            return std::nullopt;
        }
    const auto t0 = Clock::now();
    Trainer trainer(
        s1, std::make_unique<DarcyRegression>(task, width, false, ParamSet{},
                                              static_cast<int>(c.getInt("threads")), "none", 0.0));
    // Stop and Pause of the run being built reach stage 1 too (it can take a while).
    RunResult r = trainer.run(nullptr, RunControl::ambient());
    if (r.status == RunStatus::Cancelled) {
        if (error) *error = "stopped during stage 1 (Adam on all weights); nothing was cached";
        return std::nullopt;
    }
    if (r.status != RunStatus::Completed) {
        if (error)
            *error = "stage 1 (Adam on all weights) " + std::string(toString(r.status)) + ": " +
                     r.message + " (try a smaller stage1.lr)";
        return std::nullopt;
    }
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    if (seconds) *seconds = secs;
    const int relCol = r.history.column("rel_l2");
    std::fprintf(stderr,
                 "darcy: stage 1 (Adam, %lld epochs, %lld steps) in %.2f s, test rel L2 %.4f%s\n",
                 static_cast<long long>(c.getInt("stage1.epochs")), static_cast<long long>(steps),
                 secs, relCol >= 0 ? r.history.rows.back()[relCol] : NAN,
                 file.empty() ? "" : (" (cached in " + file.string() + ")").c_str());
    if (!file.empty()) saveStage1(file, key, r.finalParams);
    gStage1[key] = r.finalParams;
    return r.finalParams;
}

void describeExperimentDarcy(ExperimentInfo& info);  // DescribeDarcy.cpp: About, metrics, charts

ExperimentInfo experimentDarcyInfo() {
    ExperimentInfo info;
    info.registerParams = registerExperimentDarcyParams;
    describeExperimentDarcy(info);
    info.name = "darcy";
    info.title = "Darcy flow: ViT-style attention regressor, stage 2 on W_Q, W_K (Paper B)";
    info.make = [](const Config& c, std::string* error) -> std::unique_ptr<Problem> {
        auto task = darcyTask(c, error);
        if (!task) return nullptr;
        auto start = darcyStage1(c, task, error);
        if (!start) return nullptr;
        return std::make_unique<DarcyRegression>(
            task, static_cast<int>(c.getInt("darcy.width")), true, std::move(*start),
            static_cast<int>(c.getInt("threads")), c.getString("regularizer"), c.getReal("lambda"));
    };
    info.validate = validateDarcy;
    info.brief = briefDarcy;
    return info;
}

DarcyRegression::DarcyRegression(std::shared_ptr<const DarcyTask> task, int width, bool stage2,
                                 ParamSet start, int threads, std::string regularizer,
                                 double lambda)
    : task_(std::move(task)),
      model_(task_->patch * task_->patch + 2, task_->patch * task_->patch, width),
      stage2_(stage2),
      start_(std::move(start)),
      regularizer_(std::move(regularizer)),
      lambda_(lambda) {
    if (threads > 1) pool_ = std::make_unique<WorkerPool>(threads);
}

DarcyRegression::~DarcyRegression() = default;

ParamSet DarcyRegression::initialParams(Rng& rng) {
    return stage2_ ? start_ : model_.initialParams(rng);
}

std::vector<int> DarcyRegression::trainable(const ParamSet& p) const {
    if (stage2_) return {VitRegressor::WQ, VitRegressor::WK};
    return Problem::trainable(p);
}

const VitRegressor::FrozenParts* DarcyRegression::frozenFor(const ParamSet& p, bool test) {
    if (!stage2_) return nullptr;
    VitRegressor::FrozenParts& f = test ? testFrozen_ : trainFrozen_;
    if (!VitRegressor::matches(f, p))
        f = model_.freeze(p, test ? task_->test : task_->train, pool_.get());
    return &f;
}

double DarcyRegression::loss(const ParamSet& p, ParamSet* grad, std::span<const int> units) {
    if (const auto* f = frozenFor(p, false))
        return model_.lossQK(p, task_->train, *f, units, grad, pool_.get());
    return model_.loss(p, task_->train, units, grad, stage2_, pool_.get());
}

double DarcyRegression::structuralRegularizer(const ParamSet& p, ParamSet* grad) {
    if (!stage2_) return 0.0;
    return factorPairBalancing({VitRegressor::WQ, VitRegressor::WK}, regularizer_, lambda_, p,
                               grad);
}

std::vector<std::string> DarcyRegression::metricNames() const {
    return {"train_loss", "test_loss", "gen_gap", "rmse",
            "rel_l2",     "norm_WQ",   "norm_WK", "imbalance"};
}

DarcyRegression::Errors DarcyRegression::testErrors(const ParamSet& p) {
    Eigen::MatrixXd pred;
    Errors e;
    const PatchTokens& t = task_->test;
    if (const auto* f = frozenFor(p, true))
        e.loss = model_.lossQK(p, t, *f, {}, nullptr, pool_.get(), &pred);
    else
        e.loss = model_.loss(p, t, {}, nullptr, false, pool_.get(), &pred);
    const int T = t.tokens;
    double sq = 0.0, rel = 0.0;
    for (int i = 0; i < t.samples; ++i) {
        const double si =
            ((pred.middleRows(i * T, T) - t.Y.middleRows(i * T, T)).array() * task_->uStd.array())
                .square()
                .sum();
        sq += si;
        rel += std::sqrt(si) / std::max(task_->testNorm(i), 1e-300);
    }
    e.rmse = std::sqrt(sq / (static_cast<double>(t.samples) * t.Y.size() / t.samples));
    e.relL2 = rel / t.samples;
    return e;
}

void DarcyRegression::evaluate(const ParamSet& p, double trainLoss,
                               std::map<std::string, double>& out) {
    const Errors e = testErrors(p);
    out["train_loss"] = trainLoss;
    out["test_loss"] = e.loss;
    out["gen_gap"] = e.loss - trainLoss;
    out["rmse"] = e.rmse;
    out["rel_l2"] = e.relL2;
    out["norm_WQ"] = p[VitRegressor::WQ].norm();
    out["norm_WK"] = p[VitRegressor::WK].norm();
    out["imbalance"] = factorImbalance(p[VitRegressor::WQ], p[VitRegressor::WK]);
}

}  // namespace ade
