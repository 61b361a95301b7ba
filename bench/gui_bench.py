#!/usr/bin/env python3
"""GUI against CLI on the same work (issue 7, GUI bars).

Runs `attention-explorer --preset P --set ... --autorun --quit-when-done --stats FILE`
offscreen, and the CLI on the same runs the same way, then compares:

- solver rate: each run's iterations per second in the GUI (the trainer's own rate, measured in
  its worker thread) divided by the same run's rate in the CLI (bar: >= 0.95);
- frame times: one frame = moving new data into the chart series + the paints that follow
  (wall median <= 16 ms, max <= 50 ms; the GUI thread's CPU median <= 4 ms, p99 <= 10 ms);
- logged points: records x metrics, and the longest series (bar: 100 000 points per series).

Like for like: the GUI runs all runs of a preset at once, one worker thread each, and so does
the CLI side (`attention-explorer-cli run --jobs N`, N the number of runs with their seeds), so
that the same solver threads compete for the same cores in both; the only difference left is
the GUI's own work.

Default case: preset a-spectral-vs-random with 100 000 iterations recorded every iteration
(`log_every=1`) on a small problem (n = 64, 8 training and 8 test sequences), i.e. 100 001
records per run and series, streamed at several thousand records per second per run.

Usage:
    bench/gui_bench.py --build-dir build [--preset P] [--set KEY=VALUE]... [--reps N] [--out DIR]

Exit status 1 when a bar is missed. `measure_gui(build_dir, ...)` returns the same numbers as a
dict (for bench/run_bench.py).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT_PRESET = "a-spectral-vs-random"
DEFAULT_SETS = ["iterations=100000", "log_every=1", "data.n=64", "data.prompts=8",
                "data.test_prompts=8"]
DEFAULT_SEEDS = 3          # the case: the preset's three runs with three seeds each
RATE_BAR = 0.95
FRAME_MEDIAN_BAR_MS = 16.0
FRAME_MAX_BAR_MS = 50.0
CPU_MEDIAN_BAR_MS = 4.0
CPU_P99_BAR_MS = 10.0
POINTS_BAR = 100000

HERE = os.path.dirname(os.path.abspath(__file__))


def _exe(build_dir, name):
    for p in (os.path.join(build_dir, "app", name), os.path.join(build_dir, name)):
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def find_preset_file(name, build_dir=None):
    """The preset file the executables load: $ADE_RESOURCES/presets, then the source tree."""
    dirs = []
    if os.environ.get("ADE_RESOURCES"):
        dirs.append(os.path.join(os.environ["ADE_RESOURCES"], "presets"))
    if build_dir:
        dirs.append(os.path.join(build_dir, "share", "attention-explorer", "presets"))
    dirs.append(os.path.join(HERE, os.pardir, "resources", "presets"))
    for d in dirs:
        f = os.path.join(d, name + ".json")
        if os.path.isfile(f):
            return os.path.abspath(f)
    return None


def _load_avg():
    try:
        return list(os.getloadavg())
    except OSError:
        return None


def _set_args(sets):
    out = []
    for s in sets:
        out += ["--set", s]
    return out


def _seed_args(seeds):
    return ["--seeds", str(seeds)] if seeds else []


def run_gui(gui, preset, sets, stats_file, timeout=3600, seeds=None):
    """One GUI run; returns (stats dict or None, wall seconds, exit code, command)."""
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    cmd = [gui, "--no-settings", "--preset", preset] + _seed_args(seeds) + _set_args(sets) + [
        "--autorun", "--quit-when-done", "--stats", stats_file]
    if os.path.exists(stats_file):
        os.remove(stats_file)
    t = time.monotonic()
    p = subprocess.run(cmd, env=env, timeout=timeout, capture_output=True, text=True)
    wall = time.monotonic() - t
    stats = None
    if os.path.isfile(stats_file):
        with open(stats_file) as fh:
            stats = json.load(fh)
    return stats, wall, p.returncode, cmd, p.stderr


def _summary_rate(folder):
    """The run's iterations per second; its other outputs (100 000-row CSVs) are deleted."""
    f = os.path.join(folder, "summary.json")
    if not os.path.isfile(f):
        return None
    with open(f) as fh:
        rate = json.load(fh).get("iterations_per_second")
    for name in os.listdir(folder):
        if name != "summary.json" and os.path.isfile(os.path.join(folder, name)):
            os.remove(os.path.join(folder, name))
    return rate


def run_cli_like_gui(cli, preset, preset_file, sets, out_dir, timeout=3600, seeds=None):
    """The preset's runs in the CLI, all at once, as the GUI runs them: one process, one thread
    per run (`run --jobs` with the number of runs, seeds included).

    Returns ({run name: iterations per second}, mode, commands)."""
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    with open(preset_file) as fh:
        doc = json.load(fh)
    runs = len(doc.get("runs") or [None]) * max(1, int(seeds or doc.get("seeds", 1)))
    cmd = [cli, "run", "--preset", preset, "--jobs", str(runs)] + _seed_args(seeds) + \
        _set_args(sets) + [
        "--out", out_dir, "--quiet"]
    subprocess.run(cmd, timeout=timeout, capture_output=True)
    rates = {}
    for name in sorted(os.listdir(out_dir)):
        if os.path.isdir(os.path.join(out_dir, name)):
            r = _summary_rate(os.path.join(out_dir, name))
            if r is not None:
                rates[name] = r
    if os.path.isfile(os.path.join(out_dir, "session.json")):
        os.remove(os.path.join(out_dir, "session.json"))
    return rates, "one process, its %d runs at once (--jobs %d, as the GUI)" % (runs, runs), [cmd]


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def measure_gui(build_dir, preset=DEFAULT_PRESET, sets=None, out=None, reps=1, log=None,
                timeout=3600, seeds=DEFAULT_SEEDS):
    """GUI against CLI on `preset` with `sets` overrides, `reps` interleaved rounds.

    Returns a dict: rate_ratio {run: median GUI/CLI}, gui_rate / cli_rate {run: median it/s},
    frame_ms {median, p99, max: medians over rounds}, frame_ms_worst (largest over rounds),
    logged_points, max_points_per_series, bars {...}, failures [...], rounds [...], commands,
    load_average (before, after). {"missing": why} when an executable is missing."""
    sets = list(DEFAULT_SETS if sets is None else sets)
    log = log or (lambda m: None)
    gui, cli = _exe(build_dir, "attention-explorer"), _exe(build_dir, "attention-explorer-cli")
    if not gui or not cli:
        return {"missing": "no attention-explorer%s in %s/app" % ("" if not gui else "-cli",
                                                                   build_dir)}
    preset_file = find_preset_file(preset, build_dir)
    if not preset_file:
        return {"missing": "no preset file %s.json" % preset}
    tmp = None
    if not out:
        tmp = out = tempfile.mkdtemp(prefix="gui-bench-")
    os.makedirs(out, exist_ok=True)
    result = {"preset": preset, "sets": sets, "seeds": seeds, "reps": reps,
              "load_average": {"before": _load_avg()}}
    rounds = []
    try:
        for k in range(reps):
            log("round %d/%d: GUI ..." % (k + 1, reps))
            stats, wall, code, gcmd, gerr = run_gui(gui, preset, sets,
                                                    os.path.join(out, "gui-stats-%d.json" % k),
                                                    timeout, seeds)
            log("round %d/%d: CLI ..." % (k + 1, reps))
            t = time.monotonic()
            rates, mode, ccmds = run_cli_like_gui(cli, preset, preset_file, sets,
                                                  os.path.join(out, "cli-%d" % k), timeout,
                                                  seeds)
            cwall = time.monotonic() - t
            rnd = {"gui_exit": code, "gui_wall_s": wall, "cli_wall_s": cwall, "cli_rate": rates,
                   "load_average": _load_avg()}
            if stats is None:
                rnd["gui_error"] = (gerr or "")[-500:]
            else:
                rnd["gui_rate"] = {r["name"]: r.get("iterations_per_second")
                                   for r in stats.get("runs", [])}
                rnd["rate_ratio"] = {n: v / rates[n] for n, v in rnd["gui_rate"].items()
                                     if v and rates.get(n)}
                rnd["frame_ms"] = stats.get("frame_ms", {})
                rnd["frame_cpu_ms"] = stats.get("frame_cpu_ms") or {}
                rnd["gui_thread"] = stats.get("gui_thread") or {}
                rnd["refresh_ms"] = stats.get("refresh_ms", {})
                rnd["paint_ms"] = stats.get("paint_ms", {})
                rnd["logged_points"] = stats.get("logged_points")
                rnd["max_points_per_series"] = stats.get("max_points_per_series")
                rnd["memory"] = stats.get("memory") or {}
            rounds.append(rnd)
            log("  %s" % _round_line(rnd))
        result["gui_command"] = gcmd
        result["cli_commands"] = ccmds
        result["cli_mode"] = mode
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    result["load_average"]["after"] = _load_avg()
    result["rounds"] = rounds
    ok = [r for r in rounds if "frame_ms" in r]
    failures = []
    if not ok:
        result["missing"] = "the GUI wrote no stats file: %s" % (rounds[-1].get("gui_error", "")
                                                                 if rounds else "")
        failures.append(result["missing"])
        result["failures"] = failures
        return result
    names = sorted({n for r in ok for n in r["rate_ratio"]})
    result["rate_ratio"] = {n: _median([r["rate_ratio"].get(n) for r in ok]) for n in names}
    result["gui_rate"] = {n: _median([r["gui_rate"].get(n) for r in ok]) for n in names}
    result["cli_rate"] = {n: _median([r["cli_rate"].get(n) for r in ok]) for n in names}
    result["frame_ms"] = {q: _median([r["frame_ms"].get(q) for r in ok])
                          for q in ("count", "median", "p99", "max")}
    result["frame_ms_worst"] = {q: max((r["frame_ms"].get(q) or 0) for r in ok)
                                for q in ("median", "p99", "max")}
    result["frame_cpu_ms"] = {q: _median([r["frame_cpu_ms"].get(q) for r in ok])
                              for q in ("median", "p99", "max")}
    result["gui_thread_core_share"] = _median([r["gui_thread"].get("core_share") for r in ok])
    result["refresh_ms"] = {q: _median([r["refresh_ms"].get(q) for r in ok])
                            for q in ("median", "p99", "max")}
    result["paint_ms"] = {q: _median([r["paint_ms"].get(q) for r in ok])
                          for q in ("median", "p99", "max")}
    result["logged_points"] = min(r["logged_points"] or 0 for r in ok)
    result["max_points_per_series"] = min(r["max_points_per_series"] or 0 for r in ok)
    result["bytes_per_logged_point"] = _median([r["memory"].get("bytes_per_logged_point")
                                                for r in ok])
    result["peak_resident_mib"] = max((r["memory"].get("peak_resident_mib") or 0) for r in ok)
    fm = result["frame_ms"]
    bars = {
        "rate": bool(result["rate_ratio"]) and min(result["rate_ratio"].values()) >= RATE_BAR,
        "frame_median": (fm["median"] or 0) <= FRAME_MEDIAN_BAR_MS,
        "frame_max": (fm["max"] or 0) <= FRAME_MAX_BAR_MS,
        "cpu_median": (result["frame_cpu_ms"]["median"] or 0) <= CPU_MEDIAN_BAR_MS,
        "cpu_p99": (result["frame_cpu_ms"]["p99"] or 0) <= CPU_P99_BAR_MS,
        "points": result["max_points_per_series"] >= POINTS_BAR,
    }
    result["bars"] = bars
    if not bars["rate"]:
        failures.append("GUI solver rate below %d%% of the CLI's: %s" % (
            RATE_BAR * 100, {k: round(v, 3) for k, v in result["rate_ratio"].items()}))
    if not (bars["frame_median"] and bars["frame_max"]):
        failures.append("GUI frame times over budget (median <= %g ms, max <= %g ms): %s" % (
            FRAME_MEDIAN_BAR_MS, FRAME_MAX_BAR_MS, {k: round(v or 0, 1) for k, v in fm.items()}))
    if not (bars["cpu_median"] and bars["cpu_p99"]):
        failures.append("GUI thread CPU per frame over budget (median <= %g ms, p99 <= %g ms): %s"
                        % (CPU_MEDIAN_BAR_MS, CPU_P99_BAR_MS,
                           {k: round(v or 0, 1) for k, v in result["frame_cpu_ms"].items()}))
    if not bars["points"]:
        failures.append("fewer than %d points per series (%d): not the bar's case" % (
            POINTS_BAR, result["max_points_per_series"]))
    result["failures"] = failures
    return result


def _round_line(r):
    if "frame_ms" not in r:
        return "GUI failed (exit %s)" % r.get("gui_exit")
    fm = r["frame_ms"]
    ratios = ", ".join("%s %.0f/%.0f = %.2f" % (n, r["gui_rate"][n], r["cli_rate"][n], v)
                       for n, v in sorted(r["rate_ratio"].items()))
    la = r.get("load_average")
    cpu = r.get("frame_cpu_ms") or {}
    return ("frames %d: median %.1f ms, p99 %.1f, max %.1f (CPU median %s, max %s); rate GUI/CLI "
            "%s; %s points/series; load %s" % (
                fm.get("count") or 0, fm.get("median") or 0, fm.get("p99") or 0,
                fm.get("max") or 0, _f(cpu.get("median")), _f(cpu.get("max")), ratios,
                r.get("max_points_per_series"), "%.2f" % la[0] if la else "?"))


def _f(x):
    return "?" if x is None else "%.1f" % x


def report(res):
    """Human-readable lines for a measure_gui() result."""
    if "missing" in res and "rate_ratio" not in res:
        return ["GUI: %s" % res["missing"]]
    fm, fw = res["frame_ms"], res["frame_ms_worst"]
    lines = [
        "GUI (preset %s, %s): median of %d round(s)" % (res["preset"], " ".join(
            "--set " + s for s in res["sets"]), len(res["rounds"])),
        "  frame time: median %.1f ms, p99 %.1f ms, max %.1f ms (%d frames; worst round: "
        "median %.1f, max %.1f)" % (fm["median"], fm["p99"], fm["max"], fm["count"] or 0,
                                    fw["median"], fw["max"]),
        "  frame CPU time of the GUI thread: median %s ms, p99 %s, max %s; GUI thread busy %s of "
        "a core" % (_f(res["frame_cpu_ms"]["median"]), _f(res["frame_cpu_ms"]["p99"]),
                    _f(res["frame_cpu_ms"]["max"]),
                    "%.1f%%" % (100 * res["gui_thread_core_share"])
                    if res["gui_thread_core_share"] is not None else "?"),
        "  chart refresh: median %.1f ms, max %.1f; paint (per chart): median %.2f ms, max %.1f"
        % (res["refresh_ms"]["median"], res["refresh_ms"]["max"], res["paint_ms"]["median"],
           res["paint_ms"]["max"]),
        "  solver rate GUI/CLI (median of the rounds' ratios): " + ", ".join(
            "%s %.2f (GUI %.0f it/s, CLI %.0f)" % (n, v, res["gui_rate"][n], res["cli_rate"][n])
            for n, v in sorted(res["rate_ratio"].items())),
        "  CLI: %s" % res.get("cli_mode", ""),
        "  logged points %d, longest series %d records" % (res["logged_points"],
                                                           res["max_points_per_series"]),
        "  memory: %s bytes per logged point (peak resident %.0f MiB over the resident before "
        "the runs)" % (_f(res.get("bytes_per_logged_point")), res.get("peak_resident_mib") or 0),
        "  load average before %s, after %s" % (
            "/".join("%.2f" % x for x in res["load_average"]["before"] or []),
            "/".join("%.2f" % x for x in res["load_average"]["after"] or [])),
    ]
    for f in res.get("failures", []):
        lines.append("  BAR MISSED: " + f)
    if not res.get("failures"):
        lines.append("  bars met: rate >= %.0f%%, frame median <= %g ms, max <= %g ms, GUI CPU per "
                     "frame median <= %g ms, p99 <= %g ms, >= %d points per series" % (
                         RATE_BAR * 100, FRAME_MEDIAN_BAR_MS, FRAME_MAX_BAR_MS,
                         CPU_MEDIAN_BAR_MS, CPU_P99_BAR_MS, POINTS_BAR))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True, help="build tree with app/attention-explorer")
    ap.add_argument("--preset", default=DEFAULT_PRESET)
    ap.add_argument("--set", action="append", dest="sets", metavar="KEY=VALUE",
                    help="override for every run (default: %s)" % " ".join(DEFAULT_SETS))
    ap.add_argument("--reps", type=int, default=1, help="rounds (GUI, then CLI); medians")
    ap.add_argument("--seeds", type=int, default=DEFAULT_SEEDS,
                    help="seeds per run of the preset, in both (default %d: the issue's nine "
                    "runs; 0 keeps the preset's)" % DEFAULT_SEEDS)
    ap.add_argument("--out", default="", help="keep stats and CLI outputs here")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    a = ap.parse_args(argv)
    res = measure_gui(a.build_dir, a.preset, a.sets, a.out or None, a.reps,
                      log=lambda m: print(m, file=sys.stderr, flush=True), seeds=a.seeds or None)
    if a.out:
        with open(os.path.join(a.out, "gui-bench.json"), "w") as fh:
            json.dump(res, fh, indent=2)
    if a.json:
        print(json.dumps(res, indent=2))
    else:
        print("\n".join(report(res)))
    return 1 if res.get("failures") or "rate_ratio" not in res else 0


if __name__ == "__main__":
    sys.exit(main())
