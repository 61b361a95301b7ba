#!/usr/bin/env python3
"""Writes the Optuna storages the sweep's Optuna reader is tested on (tst_optuna_study,
ui_sweep_optuna), with Debian's python3-optuna, into the folder given:

  study.db       SQLite: study "lr-lambda" (8 trials: 5 complete, 2 pruned, 1 failed; params lr
                 (float, log), lambda (float) and optimizer (categorical gd / adam)) and a second
                 study "second" (2 complete trials of one param x)
                 and "grid2" (4 complete trials of lr x lambda, a 2 x 2 grid: value lr + lambda)
  study.journal  the same "lr-lambda" study in a JournalFileStorage
  late.db        SQLite: study "late-prune" (4 trials of one param x in 1, 2, 3, 4, value x, reported
                 at steps 0, 100, 200, 300): trial 0 (x = 1, the lowest value) is pruned after
                 its report at step 300, its last step, so it ran as far as the complete trials
                 1 and 2; trial 3 fails. The best trial is trial 1 (x = 2), a complete one.

The trials are enqueued (fixed params), the objective deterministic: trial k reports
value(lr, lambda) * (1 + 1/(step+1)) at steps 0, 100, 200, 300 and returns value(lr, lambda);
trials 2 and 5 are pruned after the report at step 100, trial 6 fails (ValueError). Each trial
has the helper's user attributes (iterations, runs, pruned_at, config)."""
import os
import sys

import optuna

TRIALS = [
    {"lr": 0.1, "lambda": 0.0, "optimizer": "gd"},
    {"lr": 0.3, "lambda": 0.01, "optimizer": "adam"},
    {"lr": 0.5, "lambda": 0.1, "optimizer": "gd"},   # pruned
    {"lr": 0.1, "lambda": 0.1, "optimizer": "adam"},
    {"lr": 0.3, "lambda": 0.0, "optimizer": "gd"},
    {"lr": 0.5, "lambda": 0.01, "optimizer": "adam"},  # pruned
    {"lr": 0.2, "lambda": 0.05, "optimizer": "gd"},   # failed
    {"lr": 0.5, "lambda": 0.0, "optimizer": "gd"},
]
PRUNED = {2, 5}
FAILED = {6}


def value(p):
    return round(p["lr"] * 10 + p["lambda"] * 100 + (0.5 if p["optimizer"] == "adam" else 0), 6)


def objective(trial):
    p = {
        "lr": trial.suggest_float("lr", 0.01, 1.0, log=True),
        "lambda": trial.suggest_float("lambda", 0.0, 1.0),
        "optimizer": trial.suggest_categorical("optimizer", ["gd", "adam"]),
    }
    k = trial.number
    trial.set_user_attr("runs", [f"trial{k}_seed1"])
    trial.set_user_attr("config", {"iterations": "300", "lr": str(p["lr"]),
                                   "lambda": str(p["lambda"]), "optimizer": p["optimizer"]})
    if k in FAILED:
        raise ValueError("diverged on purpose")
    for step in (0, 100, 200, 300):
        trial.report(value(p) * (1 + 1 / (step + 1)), step)
        if k in PRUNED and step == 100:
            trial.set_user_attr("iterations", 100)
            trial.set_user_attr("pruned_at", 100)
            raise optuna.TrialPruned()
    trial.set_user_attr("iterations", 300)
    trial.set_user_attr("pruned_at", None)
    return value(p)


def fill(storage, name, trials, fn):
    study = optuna.create_study(study_name=name, storage=storage, direction="minimize")
    for t in trials:
        study.enqueue_trial(t)
    study.optimize(fn, n_trials=len(trials), catch=(ValueError,))


def second(trial):
    return trial.suggest_float("x", -1.0, 1.0) ** 2


def late(trial):
    x = trial.suggest_int("x", 1, 4)
    if x == 4:
        raise ValueError("failed on purpose")
    for step in (0, 100, 200, 300):
        trial.report(float(x), step)
    if x == 1:
        raise optuna.TrialPruned()
    return float(x)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name in ("study.db", "study.journal", "late.db"):  # Optuna would add to an existing storage
        if os.path.exists(os.path.join(out, name)):
            os.remove(os.path.join(out, name))
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    fill(f"sqlite:///{out}/study.db", "lr-lambda", TRIALS, objective)
    fill(f"sqlite:///{out}/study.db", "second", [{"x": 0.5}, {"x": -0.25}], second)
    grid = [{"lr": a, "lambda": b} for a in (0.1, 0.2) for b in (0.0, 0.5)]
    fill(f"sqlite:///{out}/study.db", "grid2", grid,
         lambda t: t.suggest_float("lr", 0.1, 0.2) + t.suggest_float("lambda", 0.0, 0.5))
    journal = optuna.storages.JournalStorage(optuna.storages.JournalFileStorage(f"{out}/study.journal"))
    fill(journal, "lr-lambda", TRIALS, objective)
    fill(f"sqlite:///{out}/late.db", "late-prune", [{"x": x} for x in (1, 2, 3, 4)], late)


if __name__ == "__main__":
    main()
