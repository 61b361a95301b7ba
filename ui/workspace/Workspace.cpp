#include "workspace/Workspace.h"

#include <algorithm>
#include <map>

#include <QRegularExpression>

#include "output/RunOutput.h"
#include "runs/ClaimsMonitor.h"
#include "runs/RunController.h"
#include "runs/RunStore.h"
#include "runs/TimeCursor.h"

namespace ade::ui {

namespace {
constexpr int kMaxSeeds = 32;  // the Seeds box's range (the CLI's --seeds goes further)
}

Workspace::Workspace(const std::string& argv0, QObject* parent)
    : QObject(parent),
      presets_(std::make_unique<ade::PresetLibrary>(
          ade::PresetLibrary::defaultDirectories(argv0))) {
    store_ = new RunStore(this);
    timeCursor_ = new TimeCursor(this);
    controller_ = new RunController(store_, this);
    claims_ = new ClaimsMonitor(store_, this);
}

Workspace::~Workspace() {
    // The worker threads end before the store they write into.
    controller_->stopAndWait();
}

std::optional<ade::Plan> Workspace::loadPreset(const QString& name,
                                               const std::vector<std::string>& overrides,
                                               QString* error) const {
    ade::PlanError err;
    auto plan = presets_->load(name.toStdString(), overrides, &err);
    if (plan && !plan->runs.empty()) return plan;
    if (error) *error = QString::fromStdString(err.message);
    return std::nullopt;
}

void Workspace::setPlan(const ade::Plan& plan, const QString& name, const std::string& formJson) {
    presetForm_ = formJson;
    // One seed each here: Start adds the Seeds count (which the preset's "seeds" sets).
    setSeeds(plan.seeds);
    ade::Plan oneSeed = plan;
    oneSeed.seeds = 1;
    presetRuns_ = plan.sweep ? std::vector<ade::PlannedRun>{} : ade::plainRuns(oneSeed);
    claims_->setClaims(plan.claims);
    presetName_ = name;
    presetDescription_ = QString::fromStdString(plan.description);
    presetAbout_ = QString::fromStdString(plan.about);
    emit planChanged();
}

void Workspace::clearPlan() {
    presetName_.clear();
    presetDescription_.clear();
    presetAbout_.clear();
    presetRuns_.clear();
    presetForm_.clear();
    batch_.clear();
    batchPlan_.clear();
    // The claims were the preset's: an opened session has none of its own.
    claims_->setClaims({});
    emit planChanged();
    emit batchChanged();
}

bool Workspace::isPresetForm(const ade::Config& form) const {
    return !presetForm_.empty() && form.toJson().dump() == presetForm_;
}

bool Workspace::alreadyRan(const ade::Config& config) const {
    const nlohmann::json j = config.toJson();
    return std::any_of(store_->runs().begin(), store_->runs().end(),
                       [&](const auto& r) { return r->config.toJson() == j; });
}

void Workspace::setSeeds(int k) {
    k = std::clamp(k, 1, kMaxSeeds);
    if (k == seeds_) return;
    seeds_ = k;
    emit seedsChanged(k);
}

bool Workspace::startComparison(QString* error) {
    if (presetRuns_.empty()) {
        if (error) *error = tr("No preset comparison is loaded");
        return false;
    }
    // A new comparison: older runs stay in the list, hidden from the charts.
    for (const auto& r : store_->runs())
        store_->setVisible(r->id, false);
    if (!startBatch(ade::withSeeds(presetRuns_, seeds_), false, error)) return false;
    watchClaims();
    return true;
}

namespace {
// A value as --set takes it: "512", "0.02", "spectral".
QString valueText(const ade::Config& c, const std::string& key) {
    const nlohmann::json& v = c.get(key);
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float()) return QString::fromStdString(ade::formatNumber(v.get<double>()));
    return QString::fromStdString(v.dump());
}

// "data.n" -> "n": a key as a legend has room for (the run list's config says the rest).
QString shortKey(const std::string& key) {
    return QString::fromStdString(key.substr(key.rfind('.') == std::string::npos ? 0 : key.rfind('.') + 1));
}

// "spectral (2)" -> "spectral": the name a run was made unique from.
QString baseName(QString name) {
    static const QRegularExpression suffix(QStringLiteral(" \\(\\d+\\)$"));
    return name.remove(suffix);
}
}  // namespace

QString Workspace::nameForConfig(const ade::Config& config) const {
    const RunRecord* closest = nullptr;
    std::vector<std::string> changed;
    for (const auto& r : store_->runs()) {
        if (r->config.experiment() != config.experiment()) continue;
        std::vector<std::string> d = ade::differingKeys(r->config, config);
        if (!closest || d.size() <= changed.size()) {
            closest = r.get();
            changed = std::move(d);
        }
    }
    if (!closest) return tr("run %1").arg(store_->runs().size() + 1);
    const QString base = baseName(closest->group.isEmpty() ? closest->name : closest->group);
    if (changed.empty()) return base;
    QStringList parts;
    for (std::size_t i = 0; i < changed.size() && i < 2; ++i)
        parts << QStringLiteral("%1 = %2").arg(shortKey(changed[i]), valueText(config, changed[i]));
    QString changes = parts.join(QStringLiteral(", "));
    if (changed.size() > 2) changes += tr(", +%1 more").arg(changed.size() - 2);
    const QString named = QStringLiteral("%1 · %2").arg(base, changes);
    return named.size() <= 36 ? named : changes;
}

bool Workspace::startConfig(const ade::Config& config, bool paused, QString* error) {
    ade::PlannedRun run;
    run.label = store_->uniqueName(nameForConfig(config), config.experiment()).toStdString();
    run.name = run.label;
    run.config = config;
    return startBatch(ade::withSeeds({run}, seeds_), paused, error);
}

bool Workspace::resolveInitial(const std::vector<ade::PlannedRun>& runs,
                               std::vector<std::optional<ade::ParamSet>>& initial,
                               QString* error) const {
    initial.assign(runs.size(), std::nullopt);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].config.getString("init") != "same") continue;
        std::string why;
        initial[i] = ade::resolveSameStart(runs, runs[i], &why);
        if (!initial[i]) {
            // Not a run of this batch: a run of the store by that name, by its recorded initial
            // weights or, while it runs, rebuilt from its config (initialisation is seeded).
            const QString from = QString::fromStdString(runs[i].config.getString("init_from"));
            for (const auto& r : store_->runs()) {
                if (r->name != from) continue;
                if (r->initialParams) {
                    initial[i] = r->initialParams;
                } else {
                    ade::PlannedRun ref;
                    ref.name = ref.label = from.toStdString();
                    ref.config = r->config;
                    ade::PlannedRun self = runs[i];
                    std::string err;
                    initial[i] = ade::resolveSameStart({ref, self}, self, &err);
                    if (!initial[i]) why = err;
                }
            }
        }
        if (!initial[i]) {
            if (error) *error = QString::fromStdString(why);
            return false;
        }
    }
    return true;
}

bool Workspace::startBatch(const std::vector<ade::PlannedRun>& runs, bool paused,
                           QString* error) {
    std::vector<std::optional<ade::ParamSet>> initial;
    if (!resolveInitial(runs, initial, error)) return false;
    batch_.clear();
    batchPlan_ = runs;
    // Each label of the batch is one group (its seeds: the runs with that label, in order),
    // named so that no earlier run's group or name has it; a seed's name follows its group's.
    std::map<std::string, QString> groups;
    std::map<std::string, int> seedsOf;
    for (const auto& r : runs)
        ++seedsOf[r.label];
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const ade::PlannedRun& r = runs[i];
        auto [it, fresh] = groups.emplace(r.label, QString());
        if (fresh)
            it->second = store_->uniqueGroup(QString::fromStdString(r.label), r.config.experiment());
        QString name = it->second;
        if (seedsOf[r.label] > 1)
            name += QString::fromStdString(
                r.name.rfind(r.label, 0) == 0 ? r.name.substr(r.label.size())
                                              : "_seed" + std::to_string(r.config.getInt("seed")));
        batch_.push_back(controller_->start(name, r.config, initial[i], paused, it->second,
                                            r.seedIndex));
    }
    emit batchChanged();
    return true;
}

bool Workspace::resetBatch(QString* error) {
    if (batch_.empty()) return false;
    // Same configs and seeds: the trainer rebuilds the same data and initial weights.
    std::vector<std::optional<ade::ParamSet>> initial;
    for (int id : batch_)
        controller_->stopAndForget(id);
    if (!resolveInitial(batchPlan_, initial, error)) return false;
    for (std::size_t i = 0; i < batch_.size(); ++i) {
        const int old = batch_[i];
        batch_[i] = store_->replaceRun(batch_[i], batchPlan_[i].config);
        claims_->replaceRun(old, batch_[i]);
        if (batch_[i]) controller_->startRecord(batch_[i], initial[i]);
    }
    claims_->evaluate(true);  // the claims are pending again at once
    emit batchChanged();
    return true;
}

bool Workspace::reseedBatch(long long seed, QString* error) {
    if (batchPlan_.empty()) return false;
    auto runs = batchPlan_;
    // New names (the old runs stay), and "same start as" follows its run to the new seed. The
    // seeds of a group stay a group: seed, seed + 1, ...
    std::map<std::string, std::string> labels;  // old label -> new
    std::map<std::string, int> seedsOf;
    for (const auto& r : runs)
        ++seedsOf[r.label];
    for (auto& r : runs) {
        auto [it, fresh] = labels.emplace(r.label, std::string());
        if (fresh) {
            const QString base =
                QStringLiteral("%1 · seed %2")
                    .arg(QString::fromStdString(r.label).section(QStringLiteral(" · seed "), 0, 0))
                    .arg(seed);
            it->second = store_->uniqueGroup(base, r.config.experiment()).toStdString();
        }
        const long long s = seed + r.seedIndex;
        const std::string name =
            seedsOf[r.label] > 1 ? it->second + "_seed" + std::to_string(s) : it->second;
        r.config.setJson("seed", s);
        r.label = it->second;
        r.name = name;
    }
    for (auto& r : runs)
        if (r.config.getString("init") == "same")
            if (auto it = labels.find(r.config.getString("init_from")); it != labels.end())
                r.config.setJson("init_from", it->second);
    return startBatch(runs, false, error);
}

void Workspace::deleteRun(int id) {
    controller_->stopAndForget(id);
    store_->removeRun(id);
    for (std::size_t i = 0; i < batch_.size(); ++i)
        if (batch_[i] == id) {
            batch_.erase(batch_.begin() + static_cast<std::ptrdiff_t>(i));
            batchPlan_.erase(batchPlan_.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
    emit batchChanged();
}

void Workspace::watchClaims() {
    std::vector<std::pair<int, std::string>> runs;
    for (std::size_t i = 0; i < batch_.size() && i < batchPlan_.size(); ++i)
        runs.emplace_back(batch_[i], batchPlan_[i].label);
    claims_->setRuns(std::move(runs));
}

}  // namespace ade::ui
