#include "form/TimeEstimator.h"

#include <cmath>

#include "config/ParamSpec.h"
#include "form/ParamForm.h"
#include "form/RateProbe.h"
#include "runs/RunStore.h"

namespace ade::ui {

QString durationText(double s) {
    if (!std::isfinite(s) || s < 0) return QObject::tr("unknown");
    if (s < 1) return QObject::tr("under a second");
    const auto t = static_cast<long long>(std::llround(s));
    if (t < 60) return QObject::tr("%1 s").arg(t);
    if (t < 3600) return QObject::tr("%1 min %2 s").arg(t / 60).arg(t % 60);
    if (t < 86400) return QObject::tr("%1 h %2 min").arg(t / 3600).arg(t % 3600 / 60);
    return QObject::tr("%1 days").arg(t / 86400);
}

double measuredRate(const RunRecord& r) {
    if (r.iterationsPerSecond > 0) return r.iterationsPerSecond;
    const double t = r.last("time_s");
    const long it = r.lastIteration() - r.iterationOffset;
    return t > 0 && it > 0 ? it / t : 0.0;
}

namespace {
// A run that differs from the form only in keys whose ParamSpec is costNeutral measures the
// form's speed.
bool sameCost(const ade::Config& a, const ade::Config& b) {
    const auto& registry = ade::ParamRegistry::instance();
    const nlohmann::json ja = a.toJson(), jb = b.toJson();
    for (const auto& [key, value] : ja.items()) {
        if (const ade::ParamSpec* spec = registry.find(key); spec && spec->costNeutral) continue;
        if (!jb.contains(key) || jb[key] != value) return false;
    }
    return ja.size() == jb.size();
}
}  // namespace

TimeEstimator::TimeEstimator(const RunStore* store, ParamForm* form, QObject* parent)
    : QObject(parent), store_(store), form_(form), probe_(new RateProbe(this)) {
    connect(form_, &ParamForm::measureRequested, this, &TimeEstimator::measure);
    connect(probe_, &RateProbe::finished, this,
            [this](const ade::Config& c, double rate, const QString& error) {
                if (rate > 0)
                    probedRates_.emplace_back(c, rate);
                else
                    emit measurementFailed(error);
                update();
            });
}

QString TimeEstimator::estimate(QString* basis) const {
    const ade::Config& c = form_->config();
    const auto iterations = static_cast<double>(c.getInt("iterations"));
    const auto& runs = store_->runs();
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        const RunRecord& r = **it;
        const double rate = measuredRate(r);
        if (rate <= 0 || !sameCost(r.config, c)) continue;
        if (basis)
            *basis = tr("%1 it/s measured in %2").arg(rate, 0, 'f', rate < 10 ? 1 : 0).arg(r.name);
        return durationText(iterations / rate);
    }
    for (auto it = probedRates_.rbegin(); it != probedRates_.rend(); ++it)
        if (sameCost(it->first, c)) {
            if (basis)
                *basis = tr("%1 it/s in a one-second measurement").arg(it->second, 0, 'f', 0);
            return durationText(iterations / it->second);
        }
    return {};
}

void TimeEstimator::measure() {
    if (!form_->isValid() || !probe_->start(form_->config())) return;
    update();
}

void TimeEstimator::update() {
    // A refused value: the form's config still holds the last valid one, whose time would be
    // an answer to another question.
    if (!form_->isValid()) {
        form_->setEstimate(tr("Time: cannot estimate while a value is refused"), {},
                           tr("The form's values are checked first: correct the refused value "
                              "(the line above shows it) and the time is estimated again."));
        return;
    }
    QString basis;
    const QString t = estimate(&basis);
    const auto iterations = form_->config().getInt("iterations");
    if (t.isEmpty()) {
        const QString what = probe_->running()
                                 ? tr("measuring…")
                                 : QStringLiteral("<a href='measure'>%1</a>").arg(tr("measure"));
        form_->setEstimate(tr("Time: not measured yet for this size (%1 iterations)").arg(iterations),
                           what,
                           tr("The time a run of these settings takes is shown once a run of the "
                              "same experiment and size has run, or after \"measure\" (about a "
                              "second of training on a worker thread). While a run goes, the "
                              "status bar shows its rate and the time left."));
        return;
    }
    const QString about = t == durationText(0.5) ? t : tr("about %1").arg(t);
    form_->setEstimate(tr("Time: %1 for %2 iterations").arg(about).arg(iterations), {},
                       tr("From %1 (a run of the same experiment and size).").arg(basis));
}

}  // namespace ade::ui
