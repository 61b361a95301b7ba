"""attention_explorer.tuning: Optuna objectives over the explorer's keys. A pruner that prunes
stops the trainer early (the run's last iteration below its budget); the values reported to the
trial are the run's metrics; a finished trial's value is what the explorer's sweep ranks by."""
from __future__ import annotations

import math
import os
import signal
import unittest

import numpy as np
import optuna

import attention_explorer as ae
from attention_explorer import tuning

optuna.logging.set_verbosity(optuna.logging.WARNING)

CONFIG = {"experiment": "a", "seed": 2, "iterations": 120,
          "data": {"d": 4, "k": 4, "n": 32, "prompts": 8, "noise": 0.1},
          "init": "random", "init_scale": 0.3, "regularizer": "balancing", "lambda": 0.01,
          "preconditioner": "none", "optimizer": "gd", "step_rule": "fixed", "lr": 0.3,
          "log_every": 2}
SPACE = {"lr": (0.05, 1.0), "lambda": (1e-4, 1.0)}


class PruneFrom(optuna.pruners.BasePruner):
    """Prunes every trial once it has reported a step >= `step`."""

    def __init__(self, step: int):
        self.step = step

    def prune(self, study, trial) -> bool:
        return trial.last_step is not None and trial.last_step >= self.step


def study_of(pruner, sampler=None):
    return optuna.create_study(direction="minimize", pruner=pruner,
                               sampler=sampler or optuna.samplers.RandomSampler(seed=3))


class PrunedTrialsStopTheTrainer(unittest.TestCase):
    def test_a_pruned_trial_stops_its_run_early(self):
        objective = tuning.Objective(config=CONFIG, space=SPACE, every=3, keep_runs=True)
        self.assertEqual(objective.iterations, 120)
        study = study_of(PruneFrom(30))
        study.optimize(objective, n_trials=3)
        self.assertEqual(len(study.trials), 3)
        for trial in study.trials:
            self.assertEqual(trial.state, optuna.trial.TrialState.PRUNED)
            run = objective.runs[trial.number][0]
            # every 3rd record of one every 2 iterations: steps 0, 6, 12, ...; the first >= 30
            self.assertEqual(trial.user_attrs["pruned_at"], 30)
            self.assertEqual(trial.last_step, 30)
            self.assertEqual(run.status, "cancelled")
            self.assertLess(run.metrics["iteration"][-1], 120)
            self.assertLess(run.iterations_done, 40)
            self.assertEqual(trial.user_attrs["iterations"], run.iterations_done)
            self.assertEqual(trial.user_attrs["config"]["lr"], repr(trial.params["lr"]))
            # the run is the trial's: its configuration has the trial's values
            self.assertEqual(float(run.config["lr"]), trial.params["lr"])
            self.assertEqual(float(run.config["lambda"]), trial.params["lambda"])

    def test_reported_values_are_the_runs_metrics(self):
        objective = tuning.Objective(config=CONFIG, space=SPACE, every=3, keep_runs=True)
        study = study_of(PruneFrom(60))
        study.optimize(objective, n_trials=2)
        for trial in study.trials:
            run = objective.runs[trial.number][0]
            iterations = run.metrics["iteration"]
            every_third = {int(it): v for it, v in
                           zip(iterations[::3], run.metrics["excess_risk"][::3])}
            self.assertEqual(sorted(trial.intermediate_values), list(range(0, 61, 6)))
            self.assertEqual(trial.intermediate_values,
                             {s: every_third[s] for s in trial.intermediate_values})


class InterruptAt(optuna.pruners.BasePruner):
    """Sends this process SIGINT (Ctrl-C) once a trial has reported a step >= `step`."""

    def __init__(self, step: int):
        self.step = step

    def prune(self, study, trial) -> bool:
        if trial.last_step is not None and trial.last_step >= self.step:
            os.kill(os.getpid(), signal.SIGINT)
        return False


class CtrlCStopsTheStudy(unittest.TestCase):
    def test_ctrl_c_stops_the_study_and_its_trainer(self):
        objective = tuning.Objective(config=dict(CONFIG, iterations=100000), space=SPACE)
        study = study_of(InterruptAt(20))
        with self.assertRaises(KeyboardInterrupt) as e:
            study.optimize(objective, n_trials=5)
        self.assertEqual(len(study.trials), 1)
        self.assertEqual(study.trials[0].state, optuna.trial.TrialState.FAIL)
        runs = getattr(e.exception, "runs", None) or objective.last_runs
        self.assertEqual(runs[0].status, "cancelled")
        self.assertLess(runs[0].iterations_done, 1000)


class FinishedTrialsAreValuedAsTheSweepRanks(unittest.TestCase):
    def test_value_is_the_sweeps_objective(self):
        objective = tuning.Objective(config=CONFIG, space=SPACE, keep_runs=True)
        study = study_of(optuna.pruners.NopPruner())
        study.enqueue_trial({"lr": 0.3, "lambda": 0.01})
        study.optimize(objective, n_trials=1)
        trial = study.trials[0]
        self.assertEqual(trial.state, optuna.trial.TrialState.COMPLETE)
        run = objective.runs[0][0]
        self.assertEqual(run.status, "completed")
        self.assertEqual(run.metrics["iteration"][-1], 120)
        # the floor: the mean of the last tenth of the records
        tail = run.metrics["excess_risk"][-max(1, run.records // 10):]
        self.assertAlmostEqual(trial.value, float(np.mean(tail)), delta=1e-15 * abs(trial.value))
        table = ae.sweep(config=CONFIG, vary={"lr": [0.3], "lambda": [0.01]},
                         metric="excess_risk", stat="floor")
        self.assertEqual(trial.value, table[0]["objective"])
        # every record was reported, at its iteration
        self.assertEqual(sorted(trial.intermediate_values), [int(i) for i in run.metrics["iteration"]])
        self.assertTrue(all(trial.intermediate_values[int(i)] == v for i, v in
                            zip(run.metrics["iteration"], run.metrics["excess_risk"])))

    def test_two_seeds_report_and_return_means(self):
        objective = tuning.Objective(config=CONFIG, space=SPACE, seeds=2, stat="final",
                                     metric="train_loss", keep_runs=True)
        study = study_of(optuna.pruners.NopPruner())
        study.enqueue_trial({"lr": 0.2, "lambda": 0.001})
        study.optimize(objective, n_trials=1)
        trial = study.trials[0]
        runs = objective.runs[0]
        self.assertEqual([r.seed for r in runs], [2, 3])
        a, b = (r.metrics["train_loss"] for r in runs)
        self.assertEqual(trial.value, (a[-1] + b[-1]) / 2)
        self.assertEqual(trial.intermediate_values[60], (a[30] + b[30]) / 2)
        self.assertEqual(trial.user_attrs["iterations"], 240)
        table = ae.sweep(config=CONFIG, vary={"lr": [0.2], "lambda": [0.001]}, seeds=2,
                         metric="train_loss", stat="final")
        self.assertAlmostEqual(trial.value, table[0]["objective"], delta=1e-15)


class StudiesWithOptunasPruners(unittest.TestCase):
    def check(self, study, objective):
        states = [t.state for t in study.trials]
        self.assertIn(optuna.trial.TrialState.COMPLETE, states)
        for t in study.trials:
            run = objective.runs[t.number][0]
            if t.state == optuna.trial.TrialState.PRUNED:
                self.assertLess(run.iterations_done, objective.iterations)
                self.assertEqual(t.user_attrs["pruned_at"], t.last_step)
            else:
                self.assertEqual(t.state, optuna.trial.TrialState.COMPLETE)
                self.assertEqual(run.iterations_done, objective.iterations)
                self.assertTrue(math.isfinite(t.value))

    def test_tpe_with_hyperband(self):
        objective = tuning.Objective(config=CONFIG, space=SPACE, keep_runs=True)
        pruner = objective.hyperband(min_resource=10)
        self.assertEqual(pruner._max_resource, 120)
        study = study_of(pruner, optuna.samplers.TPESampler(seed=1, n_startup_trials=3))
        study.optimize(objective, n_trials=8)
        self.check(study, objective)

    def test_tpe_with_the_median_pruner(self):
        objective = tuning.Objective(config=CONFIG, space=SPACE, keep_runs=True)
        study = study_of(optuna.pruners.MedianPruner(n_startup_trials=2, n_warmup_steps=10),
                         optuna.samplers.TPESampler(seed=1, n_startup_trials=3))
        study.optimize(objective, n_trials=8)
        self.check(study, objective)
        self.assertIn(optuna.trial.TrialState.PRUNED, [t.state for t in study.trials])


class TheSpaceAndTheProblem(unittest.TestCase):
    def test_log_scale_as_the_sweeps_rand(self):
        o = tuning.Objective(config=CONFIG, space={
            "lr": (0.05, 0.5),                          # a log-scale key of the registry
            "data.noise": (0.001, 0.5),                 # two decades and more
            "init_scale": {"low": 0.1, "high": 1.0, "log": False},
            "optimizer": ["gd", "adam"], "iterations": (50, 100)})
        self.assertEqual([a.log for a in o.axes], [True, True, False, False, False])

    def test_another_experiments_flat_config(self):
        o = tuning.Objective(config={"experiment": "b", "iterations": 50},
                             space={"temperature": (1e-4, 1e-2), "regularizer": ["none", "power"]})
        self.assertEqual((o.experiment, o.metric, o.iterations), ("b", "test_loss", 50))
        self.assertEqual([a.log for a in o.axes], [True, False])
        with self.assertRaises(ValueError) as e:  # a key of Experiment A only
            tuning.Objective(config={"experiment": "b"}, space={"data.kappa_sigma": (1, 10)})
        self.assertIn("unknown key 'data.kappa_sigma'", str(e.exception))

    def test_a_presets_run(self):
        o = tuning.Objective(preset="a-same-start", run="alg1", space={"lambda": (0.01, 1.0)},
                             set={"iterations": 30})
        self.assertEqual((o.label, o.iterations, o.metric), ("alg1", 30, "excess_risk"))
        study = study_of(optuna.pruners.NopPruner())
        study.optimize(o, n_trials=1)
        self.assertEqual(o.last_runs[0].name, "alg1")  # one seed: the CLI's folder name
        self.assertTrue(math.isfinite(study.best_value))

    def test_mistakes_say_what_is_wrong(self):
        cases = [
            (dict(preset="a-same-start", space=SPACE), "has 2 runs (alg1, gd)"),
            (dict(preset="a-same-start", run="sgd", space=SPACE), "has no run 'sgd'"),
            (dict(preset="a-scaling-n", space=SPACE), "is a sweep"),
            (dict(config=CONFIG, space={"learning_rate": (0.1, 1)}), "unknown key 'learning_rate'"),
            (dict(config=CONFIG, space={"lr": (1.0, 0.1)}), "low < high"),
            (dict(config=CONFIG, space={"lr": (-1.0, 0.1)}), "out of range"),
            (dict(config=CONFIG, space={"optimizer": ("gd", "adam")}), "give a list"),
            (dict(config=CONFIG, space=SPACE, metric="accuracy"), "not recorded"),
            (dict(config=CONFIG, space=SPACE, set={"iterations": -5}), "out of range"),
        ]
        for kwargs, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(ValueError) as e:
                    tuning.Objective(**kwargs)
                self.assertIn(message, str(e.exception))


if __name__ == "__main__":
    unittest.main()
