#!/usr/bin/env python3
"""Benchmark driver (issue 7): runs the core benchmark (ade-bench), checks the PyTorch and NumPy
references against the core's loss and gradients on the same data, times them with the same
thread count, measures the CLI's peak memory at n = 16384 and (when available) the GUI's solver
rate, and prints one table. Run through scripts/bench, which builds everything first.

Exit status: 0 all checks and bars passed, 1 a reference disagreed with the core or a bar was
missed, 2 a tool failed to run.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCE = 1e-9  # relative disagreement allowed between core and references
BAR_TORCH = 3.0
BAR_PEAK = 0.70  # issue 17: Experiment A >= 70% of the dense-matmul peak, or a roofline (reported)
BAR_DARCY_TORCH = 2.0  # Darcy stage 2 epoch: core >= 2x PyTorch (NumPy reported, no bar)
MEMORY_LIMIT_MB = 200.0
BAR_PACKAGE = 0.9  # issue 31: the portable build (the .deb's) >= 0.9x the -march=native build


# OpenBLAS dgemm rate through NumPy (median of argv[1] repetitions of a 1536^3 product).
BLAS_PEAK_SNIPPET = """
import json, sys, time
import numpy as np
n = 1536
a = np.random.default_rng(1).standard_normal((n, n))
b = np.random.default_rng(2).standard_normal((n, n))
a @ b
rates = []
for _ in range(int(sys.argv[1])):
    t = time.perf_counter(); a @ b; rates.append(2.0 * n ** 3 / (time.perf_counter() - t) * 1e-9)
rates.sort()
print(json.dumps({"gflops": rates[len(rates) // 2]}))
"""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def reference_env(threads):
    """Environment for the reference processes: same thread count as the core; this machine's
    OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE (which slow OpenBLAS down) removed for them only."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[k] = str(threads)
    return env


def run_json(cmd, env=None, timeout=1800):
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if res.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s" % (" ".join(cmd), res.returncode, res.stderr[-3000:]))
    return json.loads(res.stdout.strip().splitlines()[-1])


def peak_rss_mb(cmd):
    """Runs cmd and returns (exit code, peak resident set size in MB) from wait4's rusage."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    return proc.returncode, usage.ru_maxrss / 1024.0, err  # ru_maxrss is in KiB on Linux


def exp_rate(roofline, precision="float64", name="ade"):
    for e in roofline.get("exp", []):
        if e["name"] == name and e["precision"] == precision:
            return e["gexp_per_s"] * 1e9
    return None


def roofline_bound(roofline, rc, c, peak):
    """The shortest step of an Experiment A case that its unavoidable work allows on this
    machine (seconds): every exp at the kernel's own exp rate (measured), plus the remaining
    floating-point work at the faster of the measured FMA rate and the dense-matmul peak (the
    fused kernel at d <= 4: score, u, second moment, z; the blocked path: its four products and
    two elementwise passes). Both run on the same FMA units, so the times add."""
    rate = exp_rate(roofline)
    fma = max(roofline["fma_gflops"]["float64"], peak or 0.0) * 1e9
    if not rate or not fma:
        return None
    exp_s = rc["pairs"] / rate
    other_s = rc["other_flops"] / fma
    t = exp_s + other_s
    b = {"exp_s": exp_s, "other_s": other_s, "bound_s": t, "ceiling_it_s": 1.0 / t,
         "ceiling_of_peak": c["flops_per_it"] / t / (peak * 1e9) if peak else None,
         "path": rc.get("path")}
    if rc.get("parts"):
        b["parts_s"] = sum(p["seconds_per_step"] for p in rc["parts"])
        b["parts"] = rc["parts"]
    return b


def fmt(x, digits=1):
    if x is None:
        return "—"
    if x >= 100:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    return "%.*f" % (digits + 1, x)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", required=True, help="build tree with bench/ade-bench and app/")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--reps", type=int, default=5, help="repetitions per measurement (median)")
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds per repetition")
    ap.add_argument("--python", default="/usr/bin/python3", help="interpreter with numpy/torch")
    ap.add_argument("--cases", default="", help="comma-separated subset of the cases")
    ap.add_argument("--out", default="", help="folder for results (default: a temporary one)")
    ap.add_argument("--package-dir", default="",
                    help="the portable build (the .deb's: kernels for every x86-64 level, chosen "
                         "at run time) to time beside --build-dir's, in the same rounds")
    ap.add_argument("--gui", default="", help="GUI executable for the GUI comparison")
    ap.add_argument("--gui-preset", default="a-spectral-vs-random")
    ap.add_argument("--gui-reps", type=int, default=3, help="GUI/CLI rounds (medians)")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--skip-roofline", action="store_true")
    ap.add_argument("--skip-float32", action="store_true", help="no float32 column")
    ap.add_argument("--markdown", default="", help="also write the table as Markdown here")
    args = ap.parse_args()

    bench = os.path.join(args.build_dir, "bench", "ade-bench")
    cli = os.path.join(args.build_dir, "app", "attention-explorer-cli")
    out = args.out or tempfile.mkdtemp(prefix="ade-bench-")
    os.makedirs(out, exist_ok=True)
    cases_dir = os.path.join(out, "cases")
    T = args.threads
    failures = []

    # 1. The machine's dense matmul peak: Eigen GEMM on T threads, and OpenBLAS's dgemm through
    # NumPy on the same threads; the peak is the faster of the two, so that "of peak" and the
    # ceiling below are not flattered by a slow reference GEMM. Measured here, and again in
    # every round of every case (below).
    peak_json = os.path.join(out, "peak.json")

    def measure_peak(reps):
        res = subprocess.run([bench, "--threads", str(T), "--reps", str(reps), "--cases", "none",
                              "--peak", "--json", peak_json], stdout=subprocess.DEVNULL)
        if res.returncode != 0:
            raise RuntimeError("ade-bench --peak failed")
        with open(peak_json) as fh:
            eigen = json.load(fh).get("peak_gflops")
        blas_rate = None
        try:
            blas_rate = run_json([args.python, "-c", BLAS_PEAK_SNIPPET, str(reps)],
                                 env=reference_env(T))["gflops"]
        except Exception as e:
            log("OpenBLAS peak not measured: %s" % e)
        return eigen, blas_rate

    log("dense matmul peak (%d threads) ..." % T)
    try:
        peak_eigen, peak_blas = measure_peak(args.reps)
    except RuntimeError as e:
        log(str(e))
        return 2
    log("dense matmul peak (%d threads): Eigen GEMM %s GFlop/s, OpenBLAS dgemm %s GFlop/s"
        % (T, fmt(peak_eigen), fmt(peak_blas)))
    peak = max(x for x in (peak_eigen, peak_blas) if x) if (peak_eigen or peak_blas) else None

    listed = subprocess.run([bench, "--list"], capture_output=True, text=True).stdout.split()
    wanted = list(listed)
    if args.cases:
        wanted = [c for c in wanted if c in args.cases.split(",")]

    # 1b. The roofline's micro-benchmarks (bench/Roofline.cpp): FMA rate, exp rates, L2 rate,
    # the parts of the blocked and Darcy computations on the cases' own shapes.
    roofline = None
    if not args.skip_roofline:
        log("roofline micro-benchmarks (%d threads) ..." % T)
        roof_json = os.path.join(out, "roofline.json")
        res = subprocess.run([bench, "--threads", str(T), "--min-time", str(args.min_time),
                              "--cases", ",".join(wanted), "--roofline", "--json", roof_json],
                             stdout=sys.stderr)
        if res.returncode != 0:
            log("ade-bench --roofline failed")
            return 2
        with open(roof_json) as fh:
            roofline = json.load(fh)["roofline"]

    # 2. Per case: the core writes its data, parameters, loss and gradients; both references
    # are checked against them; then rounds of core, PyTorch, NumPy, one repetition each, so
    # that the load of a shared machine falls on all three alike. Medians over the rounds.
    env = reference_env(T)
    rows = []
    blas = None
    versions = {}

    package_bench = os.path.join(args.package_dir, "bench", "ade-bench") if args.package_dir else ""
    if package_bench and not os.path.exists(package_bench):
        log("no ade-bench in the package build %s" % args.package_dir)
        return 2

    def core_once(case, write, precision="float64", binary=None):
        binary = binary or bench
        j = os.path.join(out, "%s-%s-%s.json" % ("package" if binary != bench else "core", case,
                                                 precision))
        cmd = [binary, "--threads", str(T), "--reps", "1", "--min-time", str(args.min_time),
               "--cases", case, "--json", j, "--precision", precision]
        if write:
            cmd += ["--out", cases_dir]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("ade-bench failed on %s: %s" % (case, r.stderr[-2000:]))
        with open(j) as fh:
            return json.load(fh)["cases"][0]

    for case in wanted:
        log("case %s ..." % case)
        c = core_once(case, True)
        case_dir = os.path.join(cases_dir, case)
        row = {"case": case, "check": "ok", "experiment": c["experiment"]}
        rates = {"core": [c["it_per_s"]], "torch": [], "numpy": [], "core32": [], "peak": [],
                 "package": []}
        # The float32 path (precision = float32) of Experiment A, in the same rounds.
        with_f32 = c["experiment"] == "a" and not args.skip_float32
        if with_f32:
            c32 = core_once(case, False, "float32")
            rates["core32"].append(c32["it_per_s"])
            row["f32_error"] = c32.get("error_vs_float64")
        scripts = {"torch": "reference_torch.py", "numpy": "reference_numpy.py"}
        broken = set()
        for rnd in range(args.reps):
            # The peak in the same rounds as the rates: a slow phase of a shared machine (this
            # guest's peak read 38 to 75 GFlop/s within a day) lowers both alike.
            if c["flops_per_it"]:
                rates["peak"].append(max(x for x in measure_peak(1) if x))
            if package_bench:
                p = core_once(case, False, binary=package_bench)
                rates["package"].append(p["it_per_s"])
                row["package_level"] = p.get("cpu_level")
            if rnd > 0:
                rates["core"].append(core_once(case, False)["it_per_s"])
                if with_f32:
                    rates["core32"].append(core_once(case, False, "float32")["it_per_s"])
            for impl in ("torch", "numpy"):
                if impl in broken:
                    continue
                cmd = [args.python, os.path.join(HERE, scripts[impl]), case_dir, "--reps", "1",
                       "--min-time", str(args.min_time), "--lr", str(c["lr"])]
                if impl == "torch":
                    cmd += ["--threads", str(T)]
                try:
                    r = run_json(cmd, env=env)
                except Exception as e:  # a reference that cannot run is a failure, not a skip
                    log(str(e))
                    failures.append("%s reference failed on %s" % (impl, case))
                    row["check"] = "FAIL"
                    broken.add(impl)
                    continue
                rates[impl].append(r["it_per_s"])
                if rnd == 0:
                    worst = max(r["check"].values())
                    row[impl + "_err"] = worst
                    if not worst <= TOLERANCE:
                        row["check"] = "FAIL"
                        failures.append("%s disagrees with the core on %s: %s"
                                        % (impl, case, r["check"]))
                    if impl == "numpy":
                        blas = r.get("blas")
                        versions["numpy"] = r.get("numpy_version")
                    else:
                        versions["torch"] = r.get("torch_version")
        for impl in ("core", "torch", "numpy", "core32", "peak", "package"):
            row[impl] = statistics.median(rates[impl]) if rates[impl] else None
            row[impl + "_rates"] = rates[impl]
        row["gflops"] = row["core"] * c["flops_per_it"] * 1e-9 if c["flops_per_it"] else None
        # The bars of issue 7: Experiment A 3x PyTorch and 10x NumPy; Darcy stage 2 2x PyTorch.
        # NumPy is reported, no longer a bar (issue 17: the bar is the fraction of the peak).
        bars = {"a": {"torch": BAR_TORCH},
                "darcy": {"torch": BAR_DARCY_TORCH}}.get(c["experiment"], {})
        for impl in ("torch", "numpy"):
            ratio = row["core"] / row[impl] if row.get(impl) else None
            row[impl + "_ratio"] = ratio
            bar = bars.get(impl)
            if ratio is not None and bar is not None and ratio < bar:
                failures.append("%s: core is %.2fx %s (bar %.0fx)" % (case, ratio, impl, bar))
                row[impl + "_missed"] = True
        row["peak_frac"] = row["gflops"] / row["peak"] if row["peak"] and row["gflops"] else None
        if row.get("package"):
            # The median of the rounds' paired ratios (package and core run back to back in each
            # round), which a shared machine's slow phases affect far less than a ratio of the
            # two medians does.
            pairs = [p / c for p, c in zip(rates["package"], rates["core"]) if c]
            row["package_ratio"] = statistics.median(pairs) if pairs else None
        if row.get("package_ratio"):
            if row["package_ratio"] < BAR_PACKAGE:
                failures.append("%s: the package build runs at %.2fx the native build (bar %.1fx)"
                                % (case, row["package_ratio"], BAR_PACKAGE))
                row["package_missed"] = True
        if roofline and c["experiment"] == "a" and case in roofline.get("cases", {}):
            row["bound"] = roofline_bound(roofline, roofline["cases"][case], c, row["peak"])
        rows.append(row)
        log("  core %.3g it/s, float32 %s, torch %s, numpy %s"
            % (row["core"], row["core32"], row["torch"], row["numpy"]))


    # 4. Peak memory of the CLI at n = 16384, P = 1.
    memory = None
    if not args.skip_memory:
        log("peak memory of the CLI at n = 16384, P = 1 ...")
        mem_out = os.path.join(out, "memory-run")
        shutil.rmtree(mem_out, ignore_errors=True)
        cmd = [cli, "run", "--preset", "a-spectral-vs-random", "--set", "data.n=16384",
               "--set", "data.prompts=1", "--set", "data.test_prompts=1", "--set", "iterations=2",
               "--set", "threads=%d" % T, "--out", mem_out, "--quiet"]
        code, mb, err = peak_rss_mb(cmd)
        memory = {"exit": code, "peak_rss_mb": mb}
        if code != 0:
            failures.append("CLI memory run failed (%d): %s" % (code, err.strip()[-500:]))
        elif mb >= MEMORY_LIMIT_MB:
            failures.append("peak memory %.1f MB >= %.0f MB" % (mb, MEMORY_LIMIT_MB))

    # 5. GUI against CLI on the same runs run the same way (bench/gui_bench.py: 100 000 records
    # per series, frame times, solver rate inside the GUI against the CLI's).
    gui = None
    if args.gui and os.path.exists(args.gui):
        sys.path.insert(0, HERE)
        import gui_bench
        log("GUI against the CLI (preset %s, %d rounds) ..." % (args.gui_preset, args.gui_reps))
        gui = gui_bench.measure_gui(args.build_dir, preset=args.gui_preset,
                                    out=os.path.join(out, "gui"), reps=args.gui_reps, log=log)
        failures.extend(gui.get("failures", []))
    elif args.gui:
        gui = {"missing": "no GUI executable at %s" % args.gui}
    else:
        gui = {"missing": "no GUI executable given (--gui)"}

    # 6. The tables.
    lines = []
    notes = []
    lines.append("| case | core it/s | package it/s | package/core | float32 it/s | float32/float64 | PyTorch it/s | NumPy it/s | core/PyTorch | core/NumPy | core GFlop/s | peak GFlop/s | of peak | check |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")

    def ratio_cell(r, impl):
        v = r.get(impl + "_ratio")
        return ("%.1f×" % v + (" (missed)" if r.get(impl + "_missed") else "")) if v else "—"
    for r in rows:
        f32 = r.get("core32")
        pr = r.get("package_ratio")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["case"], fmt(r["core"]), fmt(r.get("package")),
            ("%.2f×" % pr + (" (missed)" if r.get("package_missed") else "")) if pr else "—",
            fmt(f32), ("%.2f×" % (f32 / r["core"])) if f32 else "—",
            fmt(r.get("torch")), fmt(r.get("numpy")),
            ratio_cell(r, "torch"), ratio_cell(r, "numpy"),
            ("%.1f" % r["gflops"]) if r.get("gflops") else "—",
            ("%.1f" % r["peak"]) if r.get("peak") else "—",
            ("%.0f%%" % (100 * r["peak_frac"])) if r.get("peak_frac") else "—",
            r["check"] + (" (%.0e)" % max(r.get("torch_err", 0), r.get("numpy_err", 0)))))
    if package_bench:
        levels = sorted({r.get("package_level") or "?" for r in rows})
        notes.append("package: the portable build (the .deb's: everything for the x86-64 baseline, "
                     "the kernels for every level, chosen at run time; kernels at %s here) timed "
                     "in the same rounds as core, the -march=native build; package/core is the "
                     "median of the rounds' paired ratios; bar >= %.1fx"
                     % (", ".join(levels), BAR_PACKAGE))
    notes.append("check: largest relative difference of loss and gradients between the core and "
                 "either reference at the case's starting point (FAIL above %.0e)" % TOLERANCE)
    f32rows = [r for r in rows if r.get("f32_error")]
    if f32rows:
        worst = {}
        for r in f32rows:
            for k, v in r["f32_error"].items():
                worst[k] = max(worst.get(k, 0.0), v)
        notes.append("float32: the same step with precision = float32 (same data, start and "
                     "threads, in the same rounds); its loss and gradients against float64's at "
                     "the start, largest over the cases: " +
                     ", ".join("%s %.1e" % (k, v) for k, v in sorted(worst.items())) +
                     " (relative; gradients in the Frobenius norm)")
    if any(r["experiment"] == "darcy" for r in rows):
        notes.append("darcy-stage2-epoch-32: rates are epochs per second of Darcy stage 2 at 32x32 "
                     "(1000 samples, minibatch SGD on W_Q, W_K, batch 8: 125 steps per epoch); "
                     "check also compares W_Q, W_K after one epoch from the same start; bar "
                     ">= %.0fx PyTorch; GFlop/s count its six products and softmax (about 1.07 "
                     "GFlop per epoch)" % BAR_DARCY_TORCH)
    notes.append("threads: %d (core pool, torch.set_num_threads, OMP/OPENBLAS/MKL_NUM_THREADS); "
                 "median of %d rounds (core, float32, PyTorch, NumPy in turn), each >= %.1f s after a warm-up" % (T, args.reps, args.min_time))
    if peak:
        notes.append("dense matmul peak, %d threads, 1536^3, at the start: Eigen GEMM %s GFlop/s, "
                     "OpenBLAS dgemm (NumPy) %s GFlop/s. Measured again in every round of every "
                     "case (the faster of the two): 'peak GFlop/s' is the median over the case's "
                     "rounds, and 'of peak' the case's median rate over it (bar of issue 17: "
                     ">= 70%% on every Experiment A case, or the roofline below)"
                     % (T, fmt(peak_eigen), fmt(peak_blas)))
        notes.append("GFlop/s count the dense formulation's work for Experiment A (per sequence "
                     "8 n^2 d + 5 n^2, an exp counted as one flop) for every implementation")
    if blas:
        notes.append("NumPy %s BLAS: %s %s (%s, %s)" % (versions.get("numpy"), blas.get("internal_api"),
                     blas.get("version"), blas.get("threading_layer"), blas.get("filepath")))
    if versions.get("torch"):
        notes.append("PyTorch %s, float64, CPU, autograd" % versions["torch"])
    if memory:
        notes.append("peak RSS of the CLI, Experiment A n = 16384, P = 1: %.1f MB (limit %.0f MB)"
                     % (memory["peak_rss_mb"], MEMORY_LIMIT_MB))
    roof_lines = []
    if roofline:
        roof_lines.append("Roofline (%d threads): FMA rate float64 %.1f GFlop/s, float32 %.1f; L2 "
                          "stream %.0f GB/s" % (T, roofline["fma_gflops"]["float64"],
                                                roofline["fma_gflops"]["float32"],
                                                roofline["l2_gbytes_per_s"]))
        roof_lines.append("")
        roof_lines.append("| exp | precision | Gexp/s | max rel error | what |")
        roof_lines.append("|---|---|---:|---:|---|")
        for e in roofline["exp"]:
            roof_lines.append("| %s | %s | %.2f | %.1e | %s |" % (
                e["name"], e["precision"], e["gexp_per_s"], e["max_rel_error"], e["note"]))
        roof_lines.append("")
        roof_lines.append("| case | path | exps | other GFlop | exp time | other time | bound | ceiling it/s | ceiling of peak | core of ceiling | parts measured |")
        roof_lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            b = r.get("bound")
            if not b:
                continue
            rc = roofline["cases"][r["case"]]
            roof_lines.append("| %s | %s | %.1fM | %.2f | %.2f ms | %.2f ms | %.2f ms | %s | %s | %.0f%% | %s |" % (
                r["case"], b["path"], rc["pairs"] * 1e-6, rc["other_flops"] * 1e-9,
                1e3 * b["exp_s"], 1e3 * b["other_s"], 1e3 * b["bound_s"], fmt(b["ceiling_it_s"]),
                ("%.0f%%" % (100 * b["ceiling_of_peak"])) if b.get("ceiling_of_peak") else "—",
                100 * r["core"] / b["ceiling_it_s"],
                ("%s it/s" % fmt(1.0 / b["parts_s"])) if b.get("parts_s") else "—"))
        roof_lines.append("")
        roof_lines.append("- bound: every exp at the kernels' own exp rate (above) plus the other "
                          "floating-point work at the faster of the FMA rate and the matmul peak; "
                          "'ceiling of peak' is the fraction of the matmul peak a kernel doing "
                          "exactly that work would show in the first table")
        roof_lines.append("- parts measured: the blocked path's parts timed one by one on the "
                          "case's shapes (one thread, scaled to the step on %d): where its time goes" % T)
        for name, rc in roofline.get("cases", {}).items():
            if not rc.get("parts"):
                continue
            total = sum(p["seconds_per_step"] for p in rc["parts"])
            roof_lines.append("- parts of %s (%.3g ms per step): %s" % (name, 1e3 * total, "; ".join(
                "%s %.0f%%%s" % (p["part"], 100 * p["seconds_per_step"] / total,
                                 (" (%.0f GFlop/s)" % p["gflops_one_thread"]) if p["gflops_one_thread"] else "")
                for p in rc["parts"])))
    gui_lines = []
    if gui:
        if "missing" in gui and "rate_ratio" not in gui:
            notes.append("GUI comparison: not done (%s)" % gui["missing"])
        else:
            gui_lines = gui_bench.report(gui)
    text = "\n".join(lines) + "\n\n" + "\n".join("- " + n for n in notes) + "\n"
    if roof_lines:
        text += "\n" + "\n".join(roof_lines) + "\n"
    if gui_lines:
        text += "\n" + "\n".join(gui_lines) + "\n"
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(text)
    with open(os.path.join(out, "results.json"), "w") as fh:
        json.dump({"rows": rows, "roofline": roofline, "peak_gflops": peak, "peak_eigen_gflops": peak_eigen,
                   "peak_openblas_gflops": peak_blas, "memory": memory, "gui": gui, "blas": blas,
                   "versions": versions, "failures": failures}, fh, indent=2)
    if failures:
        print("FAILED:\n" + "\n".join("  " + f for f in failures))
        return 1
    below = [r for r in rows if r["experiment"] == "a" and r.get("peak_frac") is not None
             and r["peak_frac"] < BAR_PEAK]
    for r in below:
        b = r.get("bound") or {}
        print("below %.0f%% of the matmul peak: %s at %.0f%% (its roofline ceiling %s, reached %s)"
              % (100 * BAR_PEAK, r["case"], 100 * r["peak_frac"],
                 ("%.0f%%" % (100 * b["ceiling_of_peak"])) if b.get("ceiling_of_peak") else "not measured",
                 ("%.0f%%" % (100 * r["core"] / b["ceiling_it_s"])) if b.get("ceiling_it_s") else "—"))
    print("All checks passed (references agree to %.0e; bars: Experiment A >= %.0fx PyTorch, "
          "Darcy stage 2 >= %.0fx PyTorch; memory < %.0f MB; the fraction of peak and the roofline "
          "are reported above)." % (TOLERANCE, BAR_TORCH, BAR_DARCY_TORCH, MEMORY_LIMIT_MB))
    return 0


if __name__ == "__main__":
    sys.exit(main())
