#!/usr/bin/env python3
"""Before and after on the same machine: builds the benchmark of two or more commits and times
their cases interleaved, round after round (docs/performance.md, "Comparing commits").

    bench/compare.py [--reps R] [--cases a,b] [--threads T] [--min-time S] [--precision P]
                     [--workdir DIR] [--markdown FILE] REV [REV ...]

Each REV (anything `git rev-parse` takes: a hash, a tag, HEAD~3) is checked out into its own
worktree under DIR (default build-compare/ in the checkout) and built in Release with
-DADE_BUILD_BENCH=ON and nothing else (no tests, no GUI); a worktree and build already there
are reused (remove them with `rm -rf build-compare && git worktree prune`). Then every round times each case once in every build, the builds in turn
(`ade-bench --reps 1 --cases CASE`), so that a slow phase of a shared machine falls on all of
them alike; the table shows the medians over the rounds and each build's rate over the first
REV's. A single run of scripts/bench per commit, an hour apart, measures the machine as much as
the commits: on the 2-core guests of this project the dense-matmul peak read 38 to 102 GFlop/s
within a day.

Exit status: 0, or 1 when a build or a timing failed (with ade-bench's message), 2 for bad
arguments. A case missing from an older build's ade-bench is shown as "-".
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, check=True, **kw)
    except subprocess.CalledProcessError as e:
        raise SystemExit(f"compare: failed ({e.returncode}): {' '.join(map(str, cmd))}")


def resolve(rev):
    out = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--verify", rev + "^{commit}"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(f"compare: not a commit: {rev}", file=sys.stderr)
        sys.exit(2)
    return out.stdout.strip()


def build(sha, workdir, jobs, defines=()):
    """Worktree and Release build of one commit's ade-bench; returns the executable."""
    src = workdir / f"src-{sha[:12]}"
    bld = workdir / ("build-%s%s" % (sha[:12], "".join("-" + d for d in defines)))
    if not src.exists():
        run(["git", "-C", str(HERE), "worktree", "add", "--detach", "--quiet", str(src), sha])
    launcher = []
    if not os.environ.get("ADE_NO_CCACHE") and subprocess.run(
            ["sh", "-c", "command -v ccache"], capture_output=True).returncode == 0:
        launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
    run(["cmake", "-S", str(src), "-B", str(bld), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         "-DADE_BUILD_BENCH=ON", "-DADE_BUILD_TESTS=OFF", "-DADE_BUILD_GUI=OFF", *launcher,
         *["-D" + d for d in defines]],
        stdout=subprocess.DEVNULL)
    run(["cmake", "--build", str(bld), "--parallel", str(jobs), "--target", "ade-bench"],
        stdout=subprocess.DEVNULL)
    exe = bld / "bench" / "ade-bench"
    if not exe.exists():
        raise SystemExit(f"compare: {sha[:12]} built no bench/ade-bench")
    return exe


def cases_of(exe):
    out = subprocess.run([str(exe), "--list"], capture_output=True, text=True, check=True)
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def time_case(exe, case, args):
    """One timed repetition of one case: its rate (iterations or epochs per second)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        cmd = [str(exe), "--threads", str(args.threads), "--reps", "1", "--min-time",
               str(args.min_time), "--cases", case, "--json", tmp.name]
        if args.precision != "float64":
            cmd += ["--precision", args.precision]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"compare: {exe} failed on {case}:\n{out.stderr.strip()}")
        data = json.loads(Path(tmp.name).read_text())
    return data["cases"][0]["it_per_s"]


def fmt(v):
    if v is None:
        return "-"
    return f"{v:.3g}" if v < 100 else f"{v:.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("revs", nargs="+", metavar="REV")
    ap.add_argument("--reps", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--cases", default="", help="comma-separated (default: every case of the "
                    "last REV's ade-bench --list)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds per timed repetition")
    ap.add_argument("--precision", choices=["float64", "float32"], default="float64",
                    help="Experiment A's precision key (builds before issue 17 know only float64)")
    ap.add_argument("--workdir", type=Path, default=HERE / "build-compare")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="KEY=VALUE",
                    help="a CMake definition for every build, e.g. -D ADE_NATIVE=OFF (the "
                         "portable build the .deb ships) or -D ADE_NATIVE=ON")
    ap.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = ap.parse_args()
    if args.reps < 1 or args.threads < 1 or args.min_time <= 0:
        ap.error("--reps, --threads and --min-time must be positive")

    shas = [resolve(r) for r in args.revs]
    args.workdir.mkdir(parents=True, exist_ok=True)
    exes = []
    for rev, sha in zip(args.revs, shas):
        print(f"compare: building {rev} ({sha[:12]}) ...", file=sys.stderr, flush=True)
        exes.append(build(sha, args.workdir, os.cpu_count() or 1, args.defines))
    known = [set(cases_of(e)) for e in exes]
    cases = [c for c in args.cases.split(",") if c] or cases_of(exes[-1])
    unknown = [c for c in cases if not any(c in k for k in known)]
    if unknown:
        ap.error("no build knows the case(s): " + ", ".join(unknown))

    rates = {(c, i): [] for c in cases for i in range(len(exes))}
    for r in range(args.reps):
        print(f"compare: round {r + 1} of {args.reps} ...", file=sys.stderr, flush=True)
        for c in cases:
            for i, exe in enumerate(exes):
                if c in known[i]:
                    rates[(c, i)].append(time_case(exe, c, args))

    med = {k: (statistics.median(v) if v else None) for k, v in rates.items()}
    heads = [sha[:9] for sha in shas]
    lines = ["| case | " + " | ".join(heads) + " | " +
             " | ".join(f"{h} / {heads[0]}" for h in heads[1:]) + " |",
             "|---|" + "---:|" * (2 * len(heads) - 1)]
    for c in cases:
        base = med[(c, 0)]
        cells = [fmt(med[(c, i)]) for i in range(len(exes))]
        ratios = []
        for i in range(1, len(exes)):
            v = med[(c, i)]
            ratios.append(f"{v / base:.2f}×" if v and base else "-")
        lines.append(f"| {c} | " + " | ".join(cells + ratios) + " |")
    spread = []
    for c in cases:
        for i in range(len(exes)):
            v = rates[(c, i)]
            if len(v) > 1:
                spread.append(max(v) / min(v))
    lines.append("")
    lines.append("- commits: " + ", ".join(f"{sha[:9]} = {rev}" for rev, sha in zip(args.revs, shas)))
    lines.append(f"- rates: iterations (Darcy: epochs) per second, {args.precision}, "
                 f"{args.threads} threads, median of {args.reps} interleaved rounds of "
                 f">= {args.min_time} s each")
    if spread:
        lines.append(f"- widest max/min over the rounds of one case and build: "
                     f"{max(spread):.2f} (a wide spread is a noisy machine)")
    text = "\n".join(lines)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")


if __name__ == "__main__":
    main()
