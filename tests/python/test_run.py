"""attention_explorer.run(): the CLI's numbers bit for bit, the CLI's messages, on_record and
Ctrl-C stopping a run with its records kept."""
from __future__ import annotations

import os
import signal
import tempfile
import threading
import unittest
import warnings
from pathlib import Path

import attention_explorer as ae
from cli import cli, cli_error, read_csv, same_bits, without_column

PRESET = "a-same-start"  # two runs, the second from the first's start (init = same)
SETS = {"iterations": 40}


class SameNumbersAsTheCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.cli_out = Path(cls.tmp.name) / "cli"
        cls.py_out = Path(cls.tmp.name) / "py"
        p = cli("run", "--preset", PRESET, "--set", "iterations=40", "--seeds", "2",
                "--out", str(cls.cli_out), "--quiet")
        assert p.returncode == 0, p.stderr
        cls.runs = ae.run(preset=PRESET, set=SETS, seeds=2, out=cls.py_out)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_run_names_are_the_cli_folders(self):
        folders = sorted(p.name for p in self.cli_out.iterdir() if p.is_dir())
        self.assertEqual(sorted(r.name for r in self.runs), folders)
        self.assertEqual(len(folders), 4)  # two runs x two seeds

    def test_metrics_csv_identical_but_wall_time(self):
        for r in self.runs:
            a = (self.cli_out / r.name / "metrics.csv").read_bytes()
            b = (self.py_out / r.name / "metrics.csv").read_bytes()
            self.assertEqual(a.split(b"\n")[0], b.split(b"\n")[0])
            self.assertIn(b"time_s", a.split(b"\n")[0])
            self.assertEqual(without_column(a, "time_s"), without_column(b, "time_s"), r.name)

    def test_arrays_are_the_cli_csv_bit_for_bit(self):
        for r in self.runs:
            csv = read_csv(self.cli_out / r.name / "metrics.csv")
            self.assertEqual(list(csv), r.columns)
            self.assertEqual(r.records, 41)
            for column, values in csv.items():
                if column != "time_s":
                    self.assertTrue(same_bits(values, r.metrics[column]), (r.name, column))

    def test_params_are_the_cli_npy_bit_for_bit(self):
        import numpy as np
        for r in self.runs:
            self.assertTrue(r.params)
            for name, value in r.params.items():
                npy = np.load(self.cli_out / r.name / "params" / f"{name}.npy")
                self.assertTrue(same_bits(npy, value), (r.name, name))

    def test_summary_config_and_claims(self):
        r = self.runs["alg1"]
        self.assertEqual(r.status, "completed")
        self.assertEqual(r.summary["name"], r.name)
        self.assertEqual(r.summary["iterations_done"], 40)
        self.assertEqual(r.config["iterations"], "40")
        self.assertEqual(r.config["optimizer"], "gd")
        self.assertEqual(r.label, "alg1")
        self.assertIn(0, r.snapshots)
        self.assertTrue(self.runs.claims)
        for c in self.runs.claims:
            self.assertIn(c["status"], ("holds", "does not hold", "unavailable"))
            self.assertTrue(c["text"])
            self.assertTrue(c["measured"])
        # Each run carries the claims that name it; the CLI printed the same verdicts.
        self.assertTrue(all(r.label in (c["run"], c["other"]) for c in r.claims))
        self.assertTrue((self.py_out / "session.json").is_file())

    def test_without_pandas_arrays_only(self):
        import sys
        from unittest import mock
        with mock.patch.dict(sys.modules, {"pandas": None}):  # `import pandas` fails
            runs = ae.run(preset=PRESET, set={"iterations": 3}, seeds=1)
            self.assertEqual(runs[0].records, 4)
            with self.assertRaises(ImportError):
                runs[0].dataframe()

    def test_dataframe_when_pandas_is_there(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            with self.assertRaises(ImportError):
                self.runs[0].dataframe()
            return
        df = self.runs[0].dataframe()
        self.assertEqual(list(df.columns), self.runs[0].columns)
        self.assertTrue(same_bits(df["train_loss"].to_numpy(), self.runs[0].metrics["train_loss"]))


class ErrorsAreTheClis(unittest.TestCase):
    def check(self, sets: dict, cli_sets: list[str]):
        with tempfile.TemporaryDirectory() as tmp:
            args = ["run", "--preset", PRESET, "--out", tmp]
            for s in cli_sets:
                args += ["--set", s]
            message = cli_error(*args)
        with self.assertRaises(ValueError) as caught:
            ae.run(preset=PRESET, set=sets)
        self.assertEqual(str(caught.exception), message)
        return message

    def test_bad_key(self):
        self.assertIn("unknown key 'no_such.key'", self.check({"no_such.key": 1},
                                                              ["no_such.key=1"]))

    def test_bad_value(self):
        self.check({"iterations": -5}, ["iterations=-5"])
        self.check({"optimizer": "lbfgs"}, ["optimizer=lbfgs"])

    def test_bad_preset(self):
        message = cli_error("run", "--preset", "no-such-preset", "--out", "unused")
        with self.assertRaises(ValueError) as caught:
            ae.run(preset="no-such-preset")
        self.assertEqual(str(caught.exception), message)

    def test_bad_experiment_for_keys(self):
        with self.assertRaises(ValueError):
            ae.keys("no-such-experiment")


class OnRecordStopsTheRun(unittest.TestCase):
    def test_false_stops_and_keeps_the_records(self):
        seen = []

        def on_record(row):
            seen.append(row)
            return len(seen) < 5

        runs = ae.run(config={"experiment": "a", "iterations": 100000, "log_every": 1},
                      on_record=on_record)
        self.assertEqual(len(seen), 5)
        r = runs[0]
        self.assertEqual(r.status, "cancelled")
        self.assertLess(r.iterations_done, 100000)
        # The records handed over are the run's first records, and the run kept them.
        self.assertGreaterEqual(r.records, 5)
        for i, row in enumerate(seen):
            self.assertEqual(row["run"], r.name)
            for column, value in row.items():
                if column != "run":
                    self.assertTrue(same_bits(r.metrics[column][i], value), column)

    def test_every_nth_record(self):
        seen = []
        ae.run(config={"experiment": "a", "iterations": 30, "log_every": 1},
               on_record=lambda row: seen.append(row["iteration"]), every=10)
        self.assertEqual(seen, [0.0, 10.0, 20.0, 30.0])

    def test_an_exception_stops_the_run_and_carries_it(self):
        def on_record(row):
            raise LookupError("from the callback")

        with self.assertRaises(LookupError) as caught:
            ae.run(config={"experiment": "a", "iterations": 100000}, on_record=on_record)
        runs = caught.exception.runs
        self.assertEqual(runs[0].status, "cancelled")
        self.assertGreaterEqual(runs[0].records, 1)


class CtrlCStopsTheRun(unittest.TestCase):
    def setUp(self):
        # Python's own handler (KeyboardInterrupt), also when ctest was started with SIGINT
        # ignored (a background job of a shell script), which Python would then keep.
        self.previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def tearDown(self):
        signal.signal(signal.SIGINT, self.previous)

    def test_sigint_returns_the_records_so_far(self):
        # The thread that sends the signal runs Python code while run() trains: it would never
        # run (and the run of 10^9 iterations never end) if the GIL were held while training.
        started = threading.Event()

        def interrupt():
            started.wait()
            os.kill(os.getpid(), signal.SIGINT)

        killer = threading.Thread(target=interrupt)
        killer.start()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # on_record only marks the start (every: one call per run); the signal then arrives
            # while the trainer runs and the calling thread waits with the GIL released.
            runs = ae.run(config={"experiment": "a", "iterations": 10 ** 9},
                          on_record=lambda row: started.set(), every=10 ** 9)
        killer.join()
        self.assertTrue(runs.interrupted)
        self.assertEqual(runs[0].status, "cancelled")
        self.assertGreaterEqual(runs[0].records, 1)
        self.assertTrue(any(issubclass(w.category, RuntimeWarning) for w in caught))


if __name__ == "__main__":
    unittest.main()
