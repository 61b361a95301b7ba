"""The results attention_explorer returns: runs with NumPy arrays, and ranked tables."""
from __future__ import annotations

import json

import numpy as np


def _pandas():
    try:
        import pandas
    except ImportError as e:  # the module works without pandas; only the DataFrames need it
        raise ImportError("this needs pandas (Debian: apt-get install python3-pandas)") from e
    return pandas


class Run:
    """One training run: what the CLI writes to its run folder, as Python values.

    name         the name of the run's folder in the CLI's output (``alg1_seed3``)
    label        the preset's name of the run (the same for every seed of it)
    metrics      column -> float64 array, one value per record (``metrics.csv``)
    params       parameter name -> float64 array of the final parameters (``params/*.npy``)
    snapshots    iteration -> {parameter name -> array}, the parameters at a few iterations
    summary      ``summary.json`` as a dict
    config       key -> value as the CLI's ``--set`` takes it (text)
    claims       the preset's claims about this run: text, measured number, verdict
    """

    def __init__(self, d: dict, claims: list | None = None):
        self.name = d["name"]
        self.label = d["label"]
        self.seed = d["seed"]
        self.seed_index = d["seed_index"]
        self.experiment = d["experiment"]
        self.status = d["status"]
        self.message = d["message"]
        self.iterations_done = d["iterations_done"]
        self.seconds = d["seconds"]
        self.iterations_per_second = d["iterations_per_second"]
        self.stop = d["stop"]
        self.columns = list(d["columns"])
        data = d["data"]
        self.metrics = {c: np.ascontiguousarray(data[:, j]) for j, c in enumerate(self.columns)}
        self.params = dict(d["params"])
        self.initial_params = dict(d["initial_params"])
        self.snapshots = {int(it): dict(p) for it, p in d["snapshots"]}
        self.summary = json.loads(d["summary"])
        self.config = dict(d["config"])
        self.claims = list(claims or [])

    @property
    def records(self) -> int:
        """The number of metric records (rows of ``metrics.csv``)."""
        return len(next(iter(self.metrics.values()))) if self.metrics else 0

    def dataframe(self):
        """The metrics as a pandas.DataFrame, one row per record (needs pandas)."""
        return _pandas().DataFrame({c: self.metrics[c] for c in self.columns})

    @property
    def metrics_df(self):
        """The metrics as a pandas.DataFrame (needs pandas): ``dataframe()``."""
        return self.dataframe()

    def __repr__(self) -> str:
        return (f"Run({self.name!r}, status={self.status!r}, iterations_done="
                f"{self.iterations_done}, records={self.records})")


class RunList(list):
    """The runs of one call, in the plan's order; ``claims`` has every claim of the preset."""

    def __init__(self, runs=(), claims=None, plan: str = "", interrupted: bool = False):
        super().__init__(runs)
        self.claims = list(claims or [])
        self.plan = plan
        self.interrupted = interrupted

    def __getitem__(self, key):
        """A run by position, or by its name or label (the first run of that label)."""
        if isinstance(key, str):
            for r in self:
                if key in (r.name, r.label):
                    return r
            raise KeyError(key)
        return super().__getitem__(key)


class Table(list):
    """A sweep's ranked table: one dict per config, best first (the CLI's results table)."""

    def __init__(self, rows=(), **info):
        super().__init__(rows)
        self.plan = info.get("plan", "")
        self.metric = info.get("metric", "")
        self.stat = info.get("stat", "")
        self.lower_is_better = info.get("lower_is_better", True)
        self.rungs = info.get("rungs", [])
        self.fits = info.get("fits", [])
        self.claims = info.get("claims", [])
        self.interrupted = info.get("interrupted", False)

    def dataframe(self):
        """The table as a pandas.DataFrame: a column per varied key beside the objective."""
        rows = [{"rank": r["rank"], "run": r["run"], **r["values"],
                 "objective": r["objective"], "sd": r["sd"], "seeds": r["seeds"],
                 "failed": r["failed"], "iterations": r["iterations"]} for r in self]
        return _pandas().DataFrame(rows)


def claims_of(label: str, claims: list) -> list:
    """The claims that name a run of this label (as ``run`` or ``other``)."""
    return [c for c in claims if label in (c["run"], c["other"])]
