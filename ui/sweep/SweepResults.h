#pragma once
// What the sweep views and the results table show: the aggregated configs of a sweep
// (core's ConfigResult, one per config, mean ± sd of the objective over seeds), the varied keys,
// the objective's direction and whether the design asks for a power-law fit. Shared by the
// one-key plot, the heatmap, parallel coordinates and the table, so they agree on "best".
#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sweep/Sweep.h"

namespace ade::ui {

struct SweepResults {
    std::vector<std::string> keys;           // varied keys, in the design's axis order
    std::vector<ade::ConfigResult> configs;  // one per config (any order)
    QString metric;                          // the metric's column ("excess_risk")
    QString metricLabel;                     // axis text: "excess risk R − R* (floor)"
    QString stat = QStringLiteral("floor");  // final | best | floor
    bool lowerIsBetter = true;
    bool fit = false;  // the design asks for a power-law fit (a scaling-law preset's fitX)
    bool halving = false;
    // An Optuna study (core/sweep/OptunaStudy.h): each config one trial (its number in Trial,
    // its value, its state), the trials still running or waiting among the configs (no value);
    // run name ("trial_3") -> Optuna's state (COMPLETE, PRUNED, FAIL, RUNNING, WAITING).
    bool optuna = false;
    std::map<std::string, std::string> trialStates;
    std::vector<std::string> trialNames;  // per config: its trial's run name (a failed one too)
    // Per config: the trial's own value (Optuna's), whatever the trials are ranked by (NaN:
    // none, a failed, running or waiting trial).
    std::vector<double> trialValues;

    // The best config as core ranks them (ade::configRanksBefore: a finite mean, the largest
    // budget, no failed seed, then lowest or highest by lowerIsBetter); -1 when none. Of an
    // Optuna study, the best COMPLETE trial: a pruned trial's value is an intermediate one, at
    // whatever step its pruner stopped it, so it never ranks first (even at the same step).
    int best() const;
    // An Optuna trial's state as the table says it: "complete", "pruned at iteration N",
    // "failed", "running", "waiting" ("" for a sweep's config).
    QString trialState(int index) const;
    // The trial's number ("trial_3" -> 3; -1 when not an Optuna trial).
    int trialNumber(int index) const;
    // Order of the states when sorting by value: complete 0, pruned 1, failed 2, running or
    // waiting 3 (0 for every config of a sweep).
    int stateRank(int index) const;
    // Optuna's own word for the trial's state (COMPLETE, PRUNED, FAIL, RUNNING, WAITING).
    QString optunaState(int index) const;
    // Value of `key` in config `index` as a number (nullopt when absent or not a number).
    std::optional<double> number(int index, const std::string& key) const;
    QString text(int index, const std::string& key) const;  // as given ("" when absent)
    // The distinct values of a key over the configs, sorted (numerically when all are numbers).
    QStringList distinct(const std::string& key) const;
    bool numeric(const std::string& key) const;  // every config's value is a number
    QString shortMetricLabel() const;  // "excess_risk (floor)", where the label does not fit
};

// A key as the views name it: "Step size η (lr)" from the ParamSpec's label, or the key itself.
QString keyLabel(const std::string& key);
QString keyHelp(const std::string& key);  // the ParamSpec's help ("" when unknown)

// How an axis of values is drawn. Log only when every value is positive and they span >= 10x;
// otherwise linear, so a value <= 0 (λ = 0) is never dropped.
struct AxisChoice {
    bool log = false;
    QString note;  // why linear when log was not possible ("linear x: λ = 0 has no logarithm")
};
AxisChoice chooseAxis(const std::vector<double>& values, const QString& name);

// The results table as CSV: one row per config (the keys' values, mean, sd, seeds done and
// failed, rung, run names), header first. Of an Optuna study, the study's columns: trial, value
// (the trial's own), state (Optuna's word), its params, and the ranked metric's statistic when
// the trials are ranked by another metric than their value ("objective_best").
QString resultsCsv(const SweepResults& r);
// "0.0123 ± 0.0004" (or just the mean when there is one seed, "—" when none finished).
QString meanSdText(const ade::ConfigResult& c);

}  // namespace ade::ui
