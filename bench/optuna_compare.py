#!/usr/bin/python3
"""Optuna (TPE + Hyperband, TPE + median pruner) against the explorer's own tuners (random
search + successive halving, the full grid) on one search space (issue 32, item 2;
docs/python.md, "Tuning with Optuna").

    PYTHONPATH=build/python /usr/bin/python3 bench/optuna_compare.py [--quick] [--json OUT]

The problem: Experiment A (d 4, n 128, P 32) trained by GD with a fixed step from a random start
with the balancing regulariser, 2700 iterations, one seed (the setting docs/sweeps.md measured
successive halving on); tuned: the step size lr in [0.02, 1] and lambda in [1e-4, 1], both
log-uniform (log-scale keys of the registry). The objective of every method is the one the
explorer's sweep ranks by: the floor (mean of the last tenth of the records) of the excess risk,
lower is better; each method's best is a run of the full 2700 iterations.

  grid      attention_explorer.sweep over lr=log:0.02:1:6 x lambda=log:1e-4:1:6 (36 configs)
  rs+sh     attention_explorer.sweep, 27 random samples (rand:, sample seed 1), successive
            halving eta 3 (rungs 100 / 300 / 900 / 2700 iterations)
  tpe+hb    Optuna's TPESampler(seed) + HyperbandPruner(100, 2700, 3), 27 trials
  tpe+med   Optuna's TPESampler(seed) + MedianPruner(5 startup trials, 100 warm-up
            iterations), 27 trials
  tpe       Optuna's TPESampler(seed), no pruning, 27 trials (what pruning saves)

Everything runs one run at a time (jobs 1, n_jobs 1), so the wall times compare.
"""
import argparse
import json
import math
import sys
import time

import optuna

import attention_explorer as ae
from attention_explorer import tuning

CONFIG = {"experiment": "a", "seed": 2, "iterations": 2700,
          "data": {"d": 4, "k": 4, "n": 128, "prompts": 32, "noise": 0.1},
          "init": "random", "init_scale": 0.3, "regularizer": "balancing", "lambda": 0.01,
          "preconditioner": "none", "optimizer": "gd", "step_rule": "fixed", "lr": 0.3}
SPACE = {"lr": (0.02, 1.0), "lambda": (1e-4, 1.0)}


def sweep_row(name, table, seconds, iterations_total):
    best = table[0]
    return {"method": name, "best": best["objective"],
            "best_config": {k: float(v) for k, v in best["values"].items()},
            "configs": len(table), "iterations": iterations_total, "seconds": seconds}


def grid(config, points):
    t = time.perf_counter()
    table = ae.sweep(config=config, vary={"lr": f"log:0.02:1:{points}",
                                          "lambda": f"log:1e-4:1:{points}"},
                     seeds=1, metric="excess_risk", stat="floor", jobs=1)
    seconds = time.perf_counter() - t
    total = sum(r["iterations"] for r in table)
    return sweep_row(f"grid {points}x{points}", table, seconds, total)


def random_halving(config, samples):
    t = time.perf_counter()
    table = ae.sweep(config=config, vary={"lr": "rand:0.02:1", "lambda": "rand:1e-4:1"},
                     samples=samples, sample_seed=1, seeds=1, metric="excess_risk",
                     stat="floor", halving=True, eta=3, jobs=1)
    seconds = time.perf_counter() - t
    total = sum(r["iterations"] * r["configs"] for r in table.rungs)
    row = sweep_row("random + successive halving", table, seconds, total)
    row["rungs"] = table.rungs
    return row


def optuna_study(config, name, pruner_of, trials, seed):
    objective = tuning.Objective(config=config, space=SPACE, metric="excess_risk", stat="floor")
    study = optuna.create_study(direction=objective.direction,
                                sampler=optuna.samplers.TPESampler(seed=seed),
                                pruner=pruner_of(objective))
    t = time.perf_counter()
    study.optimize(objective, n_trials=trials)
    seconds = time.perf_counter() - t
    states = [tr.state.name for tr in study.trials]
    return {"method": name, "best": study.best_value, "best_config": study.best_params,
            "configs": len(study.trials), "iterations":
                sum(tr.user_attrs.get("iterations", 0) for tr in study.trials),
            "seconds": seconds, "pruned": states.count("PRUNED"),
            "complete": states.count("COMPLETE"), "failed": states.count("FAIL")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="900 iterations, fewer configs")
    ap.add_argument("--seeds", default="1", help="TPE sampler seeds, comma-separated")
    ap.add_argument("--json", help="write the rows to this file")
    args = ap.parse_args()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    config = dict(CONFIG)
    trials, points = 27, 6
    if args.quick:
        config["iterations"], trials, points = 900, 9, 3
    rows = [grid(config, points), random_halving(config, trials)]
    for seed in (int(s) for s in args.seeds.split(",")):
        rows.append(optuna_study(config, f"TPE + Hyperband (seed {seed})",
                                 lambda o: o.hyperband(min_resource=100), trials, seed))
        rows.append(optuna_study(config, f"TPE + median pruner (seed {seed})",
                                 lambda o: optuna.pruners.MedianPruner(
                                     n_startup_trials=5, n_warmup_steps=100), trials, seed))
        rows.append(optuna_study(config, f"TPE, no pruning (seed {seed})",
                                 lambda o: optuna.pruners.NopPruner(), trials, seed))
    print("| method | best floor of excess risk | its lr, lambda | configs | "
          "iterations trained | wall time |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        cfg = ", ".join(f"{v:.3g}" for v in r["best_config"].values())
        extra = f" ({r['pruned']} pruned)" if r.get("pruned") is not None else ""
        print(f"| {r['method']} | {r['best']:.5g} | {cfg} | {r['configs']}{extra} | "
              f"{r['iterations']} | {r['seconds']:.1f} s |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1, default=str)
    return 0 if all(math.isfinite(r["best"]) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
