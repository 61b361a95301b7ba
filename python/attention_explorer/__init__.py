"""attention_explorer: the Attention Dynamics Explorer's experiments from Python.

The same core as the explorer and ``attention-explorer-cli``, with the CLI's vocabulary: presets,
configuration keys, ``--set KEY=VALUE``, seeds, sweeps. Same seed, same numbers as the CLI, bit
for bit. See docs/python.md.

    import attention_explorer as ae
    runs = ae.run(preset="a-same-start", set={"iterations": 200})
    runs[0].metrics["excess_risk"]      # a NumPy array, one value per record
    runs.claims                         # the preset's claims: measured number and verdict
"""
from __future__ import annotations

import json
import os
import shlex
import warnings
from pathlib import Path

from . import _core
from ._runs import Run, RunList, Table, claims_of

__version__ = _core.__version__
__all__ = ["presets", "keys", "describe", "experiments", "run", "sweep", "load", "Run",
           "RunList", "Table", "cpu_level"]


def _preset_dirs() -> list[str]:
    """Where the presets are: $ADE_RESOURCES/presets, then share/attention-explorer/presets
    above the package (the build tree's staged copy, or the installed one: /usr/share/...)."""
    dirs = []
    if os.environ.get("ADE_RESOURCES"):
        dirs.append(os.path.join(os.environ["ADE_RESOURCES"], "presets"))
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "share" / "attention-explorer" / "presets"
        if candidate.is_dir():
            dirs.append(str(candidate))
            break
    return dirs


def _text(value) -> str:
    """A Python value as the CLI's --set takes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _sets(set_) -> list[str]:
    if set_ is None:
        return []
    if isinstance(set_, dict):
        return [f"{k}={_text(v)}" for k, v in set_.items()]
    if isinstance(set_, str):
        return [set_]
    return [str(s) for s in set_]


def _source(preset, config):
    """(preset, config_json, config_file) for the core: exactly one of them is given."""
    if (preset is None) == (config is None):
        raise ValueError("give exactly one of preset=NAME or config={...} (or a config file)")
    if preset is not None:
        return str(preset), "", ""
    if isinstance(config, dict):
        return "", json.dumps(config), ""
    return "", "", os.fspath(config)


def _command(verb, preset, config, sets, extra) -> str:
    """The CLI command that runs the same (recorded in summary.json), or the Python call."""
    if isinstance(config, dict):
        return f"attention_explorer.{verb}(config={config!r}, set={sets!r})"
    args = ["attention-explorer-cli", verb]
    args += ["--preset", str(preset)] if preset is not None else ["--config", os.fspath(config)]
    for s in sets:
        args += ["--set", s]
    return shlex.join(args + extra)


def experiments() -> list[str]:
    """The experiments' names (the values of the key ``experiment``)."""
    return list(_core.experiments())


def cpu_level() -> str:
    """The instruction-set level the kernels run at (``summary.json``'s ``cpu_level``)."""
    return _core.cpu_level()


def presets() -> list[dict]:
    """Every preset: ``name``, ``description`` and ``file`` (the CLI's ``presets``)."""
    return json.loads(_core.presets_json(_preset_dirs()))


def keys(experiment: str | None = None) -> list[dict]:
    """The parameter registry (the CLI's ``keys``): per key its type, default, allowed values
    (``allowed``, ``min``, ``max``, ``choices``), the experiments it applies to and its help.
    With ``experiment``, only the keys that apply to it."""
    return json.loads(_core.keys_json(experiment or ""))


def describe(experiment: str) -> dict:
    """An experiment's title, headline metric, About text, metrics (column, label with its
    symbol, units, chart, meaning), charts and laws."""
    return json.loads(_core.describe_json(experiment))


def run(preset: str | None = None, config=None, set=None, seeds: int | None = None,
        on_record=None, every: int = 1, out=None, jobs: int = 1,
        save_data: bool = False) -> RunList:
    """Runs a preset's runs (or a config's), as ``attention-explorer-cli run`` does.

    preset     a preset's name (``presets()``), or
    config     a config as a dict (``{"experiment": "a", "iterations": 100}``, or a document
               with "config" and "runs") or the path of a config file
    set        {key: value} (or ["key=value", ...]): the CLI's --set, applied to every run
    seeds      seeds per run (the CLI's --seeds); default: the preset's
    on_record  called with each ``every``-th record of each run as {"run": name, column:
               value}, on the calling thread; returning False stops the training (raising
               stops it too, and the exception is raised with the runs as its ``runs``)
    out        a folder to write the run folders and session.json to, as the CLI does
    jobs       runs at a time (the results do not depend on it)

    The training runs with the GIL released. Ctrl-C stops it and returns what was computed
    (with a RuntimeWarning; ``interrupted`` of the result is then True). Bad keys or values
    raise ValueError with the CLI's message.
    """
    if every < 1:
        raise ValueError("every must be 1 or more")
    sets = _sets(set)
    p, cj, cf = _source(preset, config)
    extra = (["--seeds", str(seeds)] if seeds else []) + (["--out", os.fspath(out)] if out else [])
    res = _core.run(_preset_dirs(), p, cj, cf, sets, int(seeds or 0), int(jobs),
                    os.fspath(out) if out else "", bool(save_data),
                    _command("run", preset, config, sets, extra), on_record, int(every))
    claims = res["claims"]
    runs = RunList((Run(d, claims_of(d["label"], claims)) for d in res["runs"]), claims,
                   res["plan"], res["interrupted"])
    if res["callback_error"] is not None:
        error = res["callback_error"]
        error.runs = runs
        raise error
    if res["interrupted"]:
        warnings.warn("interrupted: the runs keep what was computed until Ctrl-C",
                      RuntimeWarning, stacklevel=2)
    return runs


def _vary(vary) -> list[str]:
    if vary is None:
        return []
    if isinstance(vary, dict):
        out = []
        for k, v in vary.items():
            if isinstance(v, (list, tuple)):
                v = ",".join(_text(x) for x in v)
            out.append(f"{k}={_text(v)}")
        return out
    return [vary] if isinstance(vary, str) else list(vary)


def sweep(preset: str | None = None, config=None, set=None, vary=None, seeds: int | None = None,
          samples: int = 0, sample_seed: int | None = None, metric: str | None = None,
          stat: str | None = None, higher_is_better: bool = False, halving: bool = False,
          eta: int | None = None, min_iterations: int | None = None, jobs: int = 1,
          out=None) -> Table:
    """A sweep, as ``attention-explorer-cli sweep`` runs it locally; returns its ranked table.

    vary   {key: values}: a list ``[0.01, 0.1]`` or the CLI's forms ``"lin:0:1:5"``,
           ``"log:1e-3:1e-1:5"``, ``"rand:1e-4:1e-1"`` (with ``samples``); or
           ["KEY=VALUES", ...]. Without it, the preset's own sweep.
    metric, stat, higher_is_better   the objective (default: the headline metric's floor)
    halving, eta, min_iterations     successive halving
    out    the sweep folder (resumed when it holds this sweep)
    """
    sets = _sets(set)
    o = _core.SweepAsk()
    o.vary = _vary(vary)
    o.seeds = int(seeds or 0)
    o.samples = int(samples)
    o.sample_seed = -1 if sample_seed is None else int(sample_seed)
    o.metric = metric or ""
    o.stat = stat or ""
    o.higher_is_better = bool(higher_is_better)
    o.halving = bool(halving)
    o.eta = int(eta or 0)
    o.min_iterations = int(min_iterations or 0)
    folder = os.fspath(out) if out else ""
    extra = [w for v in o.vary for w in ("--vary", v)] + (["--out", folder] if folder else [])
    res = _core.sweep(_preset_dirs(), *_source(preset, config), sets, o, int(jobs), folder,
                      _command("sweep", preset, config, sets, extra))
    if res["interrupted"]:
        warnings.warn("interrupted: the table holds the runs computed until Ctrl-C",
                      RuntimeWarning, stacklevel=2)
    return Table(res.pop("table"), **res)


def load(path) -> RunList | Table:
    """What the CLI or the explorer wrote: a run folder (metrics.csv, summary.json, params/),
    a session file (or a folder with session.json: the CLI's --out) -> runs; a sweep folder
    (sweep.json) -> its ranked table."""
    p = Path(path)
    if p.is_dir():
        if (p / "sweep.json").is_file():
            res = _core.load_sweep(str(p))
            return Table(res.pop("table"), **res)
        if (p / "summary.json").is_file():
            d = _core.load_run(str(p))
            return RunList([Run(d)], plan=json.loads(d["summary"]).get("plan", ""))
        if (p / "session.json").is_file():
            p = p / "session.json"
        else:
            raise ValueError(f"{p}: not a run folder (summary.json), a sweep folder (sweep.json) "
                             "or a folder with a session.json")
    if not p.is_file():
        raise FileNotFoundError(f"{p}: no such file or folder")
    res = _core.load_session(str(p))
    return RunList((Run(d) for d in res["runs"]), plan=res["preset"])
