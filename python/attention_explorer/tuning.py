"""Optuna objectives over the explorer's keys (issue 32; docs/python.md, "Tuning with Optuna").

    import optuna
    from attention_explorer import tuning

    objective = tuning.Objective(preset="a-same-start", run="alg1",
                                 space={"lr": (0.05, 2.0), "lambda": (1e-3, 1.0)},
                                 set={"iterations": 900})
    study = optuna.create_study(direction=objective.direction,
                                sampler=optuna.samplers.TPESampler(seed=1),
                                pruner=objective.hyperband())
    study.optimize(objective, n_trials=30)
    study.best_params        # {'lr': ..., 'lambda': ...}: give them to run(set=...)

Each trial runs the trainer through ``attention_explorer.run(..., on_record=..., every=N)``,
reports the target metric of every N-th record to the trial (``trial.report(value,
step=iteration)``) and, when ``trial.should_prune()`` says so, stops the trainer at its next
iteration and raises ``optuna.TrialPruned``. A trial that runs to the end returns the value the
explorer's own sweep ranks by (``attention_explorer.sweep``, core/sweep): the metric's ``final``,
``best`` or ``floor`` (default; the mean of the last tenth of the records) from the run's
``summary.json``, the mean over the seeds. The module is named ``tuning``, not ``optuna``, so
that ``import optuna`` inside a user's code still finds Optuna itself.
"""
from __future__ import annotations

import json
import math

try:
    import optuna
except ImportError as e:  # the rest of attention_explorer works without Optuna
    raise ImportError("attention_explorer.tuning needs Optuna "
                      "(Debian: apt-get install python3-optuna)") from e

import numpy as np

import attention_explorer as _ae

__all__ = ["Objective", "objective", "objective_value"]


def objective_value(run, metric: str, stat: str = "floor",
                    higher_is_better: bool = False) -> float:
    """What the explorer's sweep ranks one run by (core/sweep's ``objectiveValue``): the run's
    ``summary.json`` ``metrics[stat][metric]`` (NaN when absent or not finite), except that
    ``best`` of a higher-is-better metric is its largest finite value."""
    if stat == "best" and higher_is_better:
        values = run.metrics.get(metric)
        finite = values[np.isfinite(values)] if values is not None else []
        return float(np.max(finite)) if len(finite) else math.nan
    value = run.summary.get("metrics", {}).get(stat, {}).get(metric)
    return float(value) if value is not None else math.nan


def _plan_document(preset: str, run: str | None) -> tuple[dict, str]:
    """A preset as a config document with one of its runs (the one to tune), and its name."""
    found = [p for p in _ae.presets() if p["name"] == preset]
    if not found:
        names = ", ".join(p["name"] for p in _ae.presets())
        raise ValueError(f"unknown preset '{preset}' (presets: {names})")
    with open(found[0]["file"], encoding="utf-8") as f:
        doc = json.load(f)
    if "sweep" in doc:
        raise ValueError(f"{preset} is a sweep (a scaling law): tune a preset of runs, or a config")
    runs = doc.get("runs") or [{"name": "run", "config": {}}]
    labels = [r.get("name", "") for r in runs]
    if run is None:
        if len(runs) > 1:
            raise ValueError(f"{preset} has {len(runs)} runs ({', '.join(labels)}): "
                             "say which to tune with run=NAME")
        chosen = runs[0]
    else:
        if run not in labels:
            raise ValueError(f"{preset} has no run '{run}' (its runs: {', '.join(labels)})")
        chosen = runs[labels.index(run)]
    return {"config": doc.get("config", {}), "runs": [chosen]}, chosen.get("name", "run")


class _Axis:
    """One key of the search space, as Optuna suggests it."""

    def __init__(self, key: str, spec, registry: dict):
        self.key = key
        info = registry.get(key)
        if info is None:
            raise ValueError(f"unknown key '{key}' for this experiment "
                             "(attention_explorer.keys(experiment) lists them)")
        self.type = info["type"]
        self.choices = None
        self.step = None
        self.log = False
        if isinstance(spec, (list, tuple)) and not (isinstance(spec, tuple) and len(spec) == 2):
            self.choices = list(spec)
            if not self.choices:
                raise ValueError(f"{key}: no values to choose from")
            return
        if isinstance(spec, dict):
            lo, hi = spec.get("low"), spec.get("high")
            log = spec.get("log")
            self.step = spec.get("step")
        elif isinstance(spec, tuple):
            (lo, hi), log = spec, None
        else:
            raise ValueError(f"{key}: give (low, high), {{'low': ..., 'high': ..., 'log': ...}} "
                             f"or a list of values, not {spec!r}")
        if self.type not in ("int", "real"):
            raise ValueError(f"{key} is a {self.type} key: give a list of its values")
        if lo is None or hi is None or not lo < hi:
            raise ValueError(f"{key}: a range needs low < high, not {lo!r}, {hi!r}")
        for v in (lo, hi):
            if not info["min"] <= v <= info["max"]:
                raise ValueError(f"{key}: {v!r} is out of range: expected {info['allowed']}")
        self.lo, self.hi = lo, hi
        # As the explorer's rand: axes draw (core/sweep axisIsLogUniform): log-uniform for a key
        # the registry marks as log-scale, or a range over two decades or more (low > 0);
        # "log" in a dict spec overrides that.
        self.log = bool(log) if log is not None else (
            lo > 0 and (info["log_scale"] or hi / lo >= 100))
        if self.log and lo <= 0:
            raise ValueError(f"{key}: a log-scale range needs low > 0")

    def suggest(self, trial):
        if self.choices is not None:
            return trial.suggest_categorical(self.key, self.choices)
        if self.type == "int":
            return trial.suggest_int(self.key, int(self.lo), int(self.hi),
                                     step=int(self.step or 1), log=self.log)
        return trial.suggest_float(self.key, float(self.lo), float(self.hi),
                                   step=self.step, log=self.log)


class Objective:
    """An Optuna objective: each trial runs a preset's run (or a config) with the trial's values
    of the search space's keys and returns what the explorer's sweep ranks by.

    preset, run  a preset and the label of the run in it to tune (``run`` may be left out when
                 the preset has one run); or
    config       a config as ``run()`` takes it (a flat dict, a document, a file)
    space        {key: spec}: ``(low, high)`` (a real or integer key, log-uniform where the
                 registry marks the key log-scale or the range spans two decades, as the
                 sweep's ``rand:``), ``{"low": .., "high": .., "log": bool, "step": ..}``, or
                 a list of values (categorical: choices, booleans, numbers)
    set          fixed keys, as ``run(set=...)`` (e.g. ``{"iterations": 900}``)
    seeds        seeds per trial (the sweep's ``seeds``): the value and each reported value are
                 the mean over them; ``jobs`` runs them at a time (default: all at once, so that
                 a step is reported as soon as every seed reached it)
    metric, stat, higher_is_better   the objective, as ``sweep()`` takes it (default: the
                 experiment's headline metric, ``floor``, lower is better)
    every        report every N-th record (1: each one; the pruner is asked after each report)
    keep_runs    keep each trial's runs in ``runs[trial.number]`` (``last_runs`` is always
                 the latest trial's)

    Each trial's user attributes: ``iterations`` (iterations trained, over its seeds),
    ``runs`` (the run names), ``pruned_at`` (the iteration at which it was pruned, or None),
    ``config`` (the keys set, as ``run(set=...)`` takes them). A trial whose run diverged or
    failed returns NaN, which Optuna records as a failed trial (the sweep ranks such a config
    last).
    """

    def __init__(self, preset: str | None = None, run: str | None = None, config=None,
                 space: dict | None = None, set=None, seeds: int = 1, jobs: int | None = None,
                 metric: str | None = None, stat: str = "floor", higher_is_better: bool = False,
                 every: int = 1, keep_runs: bool = False):
        if (preset is None) == (config is None):
            raise ValueError("give exactly one of preset=NAME or config={...}")
        if not space:
            raise ValueError("space: give at least one key to tune, e.g. {'lr': (1e-3, 1.0)}")
        if stat not in ("final", "best", "floor"):
            raise ValueError(f"stat must be final, best or floor, not {stat!r}")
        if seeds < 1 or every < 1:
            raise ValueError("seeds and every must be 1 or more")
        if preset is not None:
            self.config, self.label = _plan_document(preset, run)
            self.source = preset
        else:
            if run is not None:
                raise ValueError("run= picks a run of a preset; a config is tuned as it is")
            if not isinstance(config, dict):
                with open(config, encoding="utf-8") as f:
                    config = json.load(f)
            self.config, self.label = config, None
            self.source = "config"
        self.set = {} if set is None else (dict(set) if isinstance(set, dict) else
                                           dict(s.split("=", 1) for s in _ae._sets(set)))
        self.seeds = int(seeds)
        self.jobs = int(jobs) if jobs else self.seeds
        self.stat = stat
        self.higher_is_better = bool(higher_is_better)
        self.every = int(every)
        self.keep_runs = keep_runs
        self.runs: dict = {}
        self.last_runs = None
        # A first run, stopped at its first record: checks the config and the fixed keys (the
        # CLI's messages, raised here rather than in every trial) and gives the experiment (whose
        # registry the space is checked against), the metric columns and the iteration budget.
        probe = _ae.run(config=self.config, set=self.set, seeds=1, on_record=lambda row: False)[0]
        columns = probe.columns
        self.iterations = int(probe.config["iterations"])
        self.experiment = probe.experiment
        registry = {k["key"]: k for k in _ae.keys(self.experiment)}
        self.axes = [_Axis(k, spec, registry) for k, spec in space.items()]
        if metric is None:
            headline = _ae.describe(self.experiment).get("headline_metric", "")
            metric = next((m for m in (headline, "test_loss", "train_loss") if m in columns),
                          headline or "train_loss")
        elif metric not in columns:
            raise ValueError(f"metric '{metric}' is not recorded by experiment "
                             f"{self.experiment} (its columns: {', '.join(columns[1:])})")
        self.metric = metric

    @property
    def direction(self) -> str:
        """``"maximize"`` or ``"minimize"``: give it to ``optuna.create_study``."""
        return "maximize" if self.higher_is_better else "minimize"

    def hyperband(self, min_resource: int | None = None, reduction_factor: int = 3):
        """Optuna's HyperbandPruner over iterations: up to ``iterations``, from
        ``min_resource`` (default: as the sweep's halving, ``iterations / eta^k`` >= 100)."""
        if min_resource is None:
            min_resource = self.iterations
            while min_resource / reduction_factor >= 100:
                min_resource /= reduction_factor
            min_resource = max(1, int(round(min_resource)))
        return optuna.pruners.HyperbandPruner(min_resource=min_resource,
                                              max_resource=self.iterations,
                                              reduction_factor=reduction_factor)

    def suggest(self, trial) -> dict:
        """The trial's values of the search space: {key: value}."""
        return {a.key: a.suggest(trial) for a in self.axes}

    def __call__(self, trial) -> float:
        values = self.suggest(trial)
        sets = {**self.set, **values}
        budget = int(float(sets.get("iterations", self.iterations)))  # "iterations" may be tuned
        pending: dict[int, list[float]] = {}
        pruned_at = []

        def on_record(row):
            step = int(row["iteration"])
            seen = pending.setdefault(step, [])
            seen.append(float(row[self.metric]))
            if len(seen) < self.seeds:
                return True
            del pending[step]
            trial.report(sum(seen) / len(seen), step)
            # Not at the last iteration: the budget is spent, the run is done; a pruner asked
            # there (Hyperband's top rung is the budget itself) would throw a finished run away.
            if step < budget and trial.should_prune():
                pruned_at.append(step)
                return False  # the trainer stops at its next iteration
            return True

        runs = _ae.run(config=self.config, set=sets, seeds=self.seeds, on_record=on_record,
                       every=self.every, jobs=self.jobs)
        self.last_runs = runs
        if self.keep_runs:
            self.runs[trial.number] = runs
        trial.set_user_attr("iterations", int(sum(r.iterations_done for r in runs)))
        trial.set_user_attr("runs", [r.name for r in runs])
        trial.set_user_attr("config", {k: _ae._text(v) for k, v in sets.items()})
        trial.set_user_attr("pruned_at", pruned_at[0] if pruned_at else None)
        if runs.interrupted:  # Ctrl-C (a notebook's Interrupt): stop the study, not only the run
            raise KeyboardInterrupt
        if pruned_at:
            raise optuna.TrialPruned(f"pruned at iteration {pruned_at[0]}")
        per_seed = [objective_value(r, self.metric, self.stat, self.higher_is_better)
                    if r.status == "completed" else math.nan for r in runs]
        if len(runs) < self.seeds or not all(math.isfinite(v) for v in per_seed):
            trial.set_user_attr("status", [r.status for r in runs])
            return math.nan
        return sum(per_seed) / len(per_seed)


def objective(preset: str | None = None, **kwargs) -> Objective:
    """``Objective(preset, ...)``."""
    return Objective(preset, **kwargs)
