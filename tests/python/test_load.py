"""attention_explorer.load() of what the CLI wrote (a run folder, a session, a sweep folder),
sweep(), and the catalogue (presets, keys, describe) against the CLI's listings."""
from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

import numpy as np

import attention_explorer as ae
from cli import cli, cli_error, read_csv, same_bits

PRESET = "a-same-start"


class LoadWhatTheCliWrote(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = Path(cls.tmp.name) / "run"
        p = cli("run", "--preset", PRESET, "--set", "iterations=30", "--seeds", "1",
                "--out", str(cls.out), "--quiet")
        assert p.returncode == 0, p.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_run_folder(self):
        runs = ae.load(self.out / "alg1")
        self.assertEqual(len(runs), 1)
        r = runs[0]
        self.assertEqual(r.name, "alg1")
        self.assertEqual(r.status, "completed")
        self.assertEqual(r.iterations_done, 30)
        csv = read_csv(self.out / "alg1" / "metrics.csv")
        self.assertEqual(list(csv), r.columns)
        for column, values in csv.items():  # time_s too: the same file
            self.assertTrue(same_bits(values, r.metrics[column]), column)
        summary = json.loads((self.out / "alg1" / "summary.json").read_text())
        self.assertEqual(r.summary, summary)
        self.assertEqual(r.config["iterations"], "30")
        self.assertEqual(r.config["regularizer"], summary["config"]["regularizer"])
        self.assertTrue(r.params)
        for name, value in r.params.items():
            npy = np.load(self.out / "alg1" / "params" / f"{name}.npy")
            self.assertTrue(same_bits(npy, value), name)

    def test_session_of_the_output_folder(self):
        for path in (self.out, self.out / "session.json"):
            runs = ae.load(path)
            self.assertEqual(runs.plan, PRESET)
            self.assertEqual(sorted(r.name for r in runs), ["alg1", "gd"])
            for r in runs:
                csv = read_csv(self.out / r.name / "metrics.csv")
                for column, values in csv.items():
                    self.assertTrue(same_bits(values, r.metrics[column]), (r.name, column))
                final = np.load(self.out / r.name / "params" / f"{next(iter(r.params))}.npy")
                self.assertTrue(same_bits(final, next(iter(r.params.values()))))

    def test_what_is_not_a_result(self):
        with self.assertRaises(FileNotFoundError):
            ae.load(self.out / "no-such-run")
        with self.assertRaises(ValueError):
            ae.load(self.out / "alg1" / "params")


class SweepLikeTheCli(unittest.TestCase):
    def test_ranked_table_of_the_cli_folder_and_of_sweep(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "sweep"
            p = cli("sweep", "--preset", PRESET, "--set", "iterations=20", "--vary",
                    "lambda=0.1,0.5", "--seeds", "1", "--jobs", "1", "--out", str(folder),
                    "--quiet")
            self.assertEqual(p.returncode, 0, p.stderr)
            loaded = ae.load(folder)
            ours = ae.sweep(preset=PRESET, set={"iterations": 20},
                            vary={"lambda": [0.1, 0.5]}, seeds=1,
                            out=Path(tmp) / "py-sweep")
        self.assertEqual(len(loaded), 4)  # two values x two runs of the preset
        self.assertEqual(len(ours), 4)
        self.assertEqual(loaded.metric, ours.metric)
        for a, b in zip(loaded, ours):
            self.assertEqual((a["rank"], a["run"], a["values"]), (b["rank"], b["run"], b["values"]))
            self.assertTrue(same_bits(np.array(a["per_seed"]), np.array(b["per_seed"])))
        self.assertEqual(sorted(r["values"]["lambda"] for r in ours), ["0.1", "0.1", "0.5", "0.5"])

    def test_bad_axis_is_the_clis_message(self):
        with tempfile.TemporaryDirectory() as tmp:
            message = cli_error("sweep", "--preset", PRESET, "--vary", "no_such=1,2",
                                "--out", tmp)
        with self.assertRaises(ValueError) as caught:
            ae.sweep(preset=PRESET, vary={"no_such": [1, 2]})
        self.assertEqual(str(caught.exception), message)


    def test_bad_objective_and_halving_are_the_clis_messages(self):
        cases = [(["--vary", "lr=0.5,1", "--metric", "no_such"],
                  dict(vary={"lr": [0.5, 1]}, metric="no_such")),
                 (["--vary", "lr=0.5,1", "--eta", "2"], dict(vary={"lr": [0.5, 1]}, eta=2)),
                 ([], {})]  # a preset without a sweep of its own and nothing varied
        for cli_args, kwargs in cases:
            with tempfile.TemporaryDirectory() as tmp:
                message = cli_error("sweep", "--preset", PRESET, *cli_args, "--out", tmp)
            with self.assertRaises(ValueError) as caught:
                ae.sweep(preset=PRESET, **kwargs)
            self.assertEqual(str(caught.exception), message)


class CatalogueIsTheClis(unittest.TestCase):
    def test_presets(self):
        listed = [line.split()[0] for line in cli("presets").stdout.splitlines() if line.strip()]
        self.assertEqual([p["name"] for p in ae.presets()], listed)
        self.assertTrue(all(p["description"] for p in ae.presets()))

    def test_keys(self):
        listed = [line.split()[0] for line in cli("keys").stdout.splitlines()
                  if line and not line.startswith(" ")]
        keys = ae.keys()
        self.assertEqual([k["key"] for k in keys], listed)
        iterations = next(k for k in keys if k["key"] == "iterations")
        self.assertEqual((iterations["default"], iterations["min"]), (2000, 0))
        self.assertTrue(iterations["help"])
        self.assertTrue(all(k["key"] != "darcy.resolution" for k in ae.keys("a")))

    def test_describe(self):
        a = ae.describe("a")
        columns = [m["column"] for m in a["metrics"]]
        self.assertIn(a["headline_metric"], columns)
        self.assertIn("iteration", columns)
        self.assertTrue(all(m["label"] for m in a["metrics"]))
        self.assertTrue({m["chart"] for m in a["metrics"] if m["chart"]} <=
                        {c["id"] for c in a["charts"]})
        self.assertEqual(sorted(ae.experiments()), sorted(set(ae.experiments())))


if __name__ == "__main__":
    unittest.main()
