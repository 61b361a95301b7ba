#!/usr/bin/env bash
# The one binary on CPUs other than this one (issue 31): the CLI runs under QEMU's user-mode
# emulation of older processors, where an instruction the emulated CPU lacks stops the program
# with SIGILL (QEMU 7.2 checks AVX, AVX2, FMA and AVX-512 against the CPU model).
#   Nehalem (x86-64-v2: SSE4.2, no AVX): the kernels must choose the x86-64 baseline, and every
#     experiment (A small-d and blocked, B, C, Darcy) must run: no AVX instruction may be on
#     any path of a baseline run, including Eigen and library code shared with the faster levels.
#   Haswell (x86-64-v3: AVX2 + FMA, no AVX-512): the x86-64-v3 kernels, when this build has them.
# Each emulated run's metrics must agree with the same run natively forced to the same level
# (ADE_CPU_LEVEL) to 1e-9: the same code (glibc's libm may pick other variants of exp and log
# on another CPU, so not always the same bits).
#
# Usage: check_cpu_levels.sh CLI
# Needs qemu-x86_64 (Debian qemu-user, installed by scripts/setup). Exits 0 when every check
# passes, 1 when one fails, 2 on bad usage or a missing QEMU.
set -uo pipefail
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 CLI" >&2
    exit 2
fi
cli=$1
qemu=$(command -v qemu-x86_64) || { echo "FAIL: qemu-x86_64 not found (Debian qemu-user)" >&2; exit 2; }
work=$(mktemp -d)
trap '[ -n "${ADE_KEEP:-}" ] || rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

built=$("$cli" version | sed -n 's/^kernels: .*(built: \(.*\))$/\1/p')
echo "kernel levels built: $built"

# name | sets
cases=(
  "a-small|data.d=4 data.n=32 data.prompts=8 iterations=6 init=random"
  "a-blocked|data.d=8 data.n=40 data.prompts=6 iterations=4 init=random"
  "b|data.n=64 iterations=20 optimizer=sde temperature=1e-3"
  "c|data.n=256 iterations=20"
  "darcy|darcy.resolution=16 darcy.patch=4 darcy.train=8 darcy.test=4 darcy.width=8 stage1.epochs=1 stage1.batch=4 iterations=4"
)

# run_cases OUT COMMAND...: every case, each from a config file naming its experiment (the
# name's part before '-'), its keys given with --set; COMMAND runs the CLI (env, or QEMU).
run_cases() {
    local out=$1; shift
    local c name sets args
    for c in "${cases[@]}"; do
        name=${c%%|*}; sets=${c#*|}; args=()
        for s in $sets; do args+=(--set "$s"); done
        mkdir -p "$out"
        printf '{"config": {"experiment": "%s"}}\n' "${name%%-*}" >"$out/$name.json"
        if ! env "$@" run --config "$out/$name.json" --out "$out/$name" --quiet "${args[@]}" \
                >"$out.$name.log" 2>&1; then
            fail "$name ($*): exit status $?: $(tail -3 "$out.$name.log")"
            continue
        fi
    done
}

level_of() { sed -n 's/.*"cpu_level": "\([^"]*\)".*/\1/p' "$1/summary.json"; }
# The one run folder of a config file's run: DIR/<name>/<name>/.

# Columns 3.. of metrics.csv (not the iteration and the wall time) within 1e-9, relative.
compare_metrics() {
    awk -F, -v name="$3" '
        NR == FNR { if (FNR > 1) for (i = 3; i <= NF; i++) ref[FNR, i] = $i; n = FNR; next }
        FNR > 1 {
            for (i = 3; i <= NF; i++) {
                a = ref[FNR, i]; b = $i
                if (a == b) continue
                d = a - b; if (d < 0) d = -d
                s = (a < 0 ? -a : a); if ((b < 0 ? -b : b) > s) s = (b < 0 ? -b : b)
                if (d > 1e-9 * s + 1e-300) { printf "%s: row %d column %d: %s against %s\n", name, FNR, i, a, b; bad = 1; exit }
            }
        }
        END { if (FNR != n) { printf "%s: %d rows against %d\n", name, FNR, n; bad = 1 } exit bad }
    ' "$1/metrics.csv" "$2/metrics.csv"
}

check_cpu() {
    local model=$1 expect=$2
    if [[ ", $built, " != *", $expect, "* ]]; then
        echo "$model: skipped: this build has no $expect kernels"
        return
    fi
    mkdir -p "$work/$model"
    run_cases "$work/$model/native" ADE_CPU_LEVEL="$expect" "$cli"
    run_cases "$work/$model/emulated" "$qemu" -cpu "$model" "$cli"
    local c name got
    for c in "${cases[@]}"; do
        name=${c%%|*}
        [ -f "$work/$model/emulated/$name/$name/summary.json" ] || continue
        got=$(level_of "$work/$model/emulated/$name/$name")
        if [ "$got" != "$expect" ]; then
            fail "$model: $name ran at '$got', not $expect"
            continue
        fi
        if compare_metrics "$work/$model/native/$name/$name" "$work/$model/emulated/$name/$name" \
                "$model $name"; then
            echo "ok: $model: $name at $got, metrics as the native run at $expect"
        else
            fail "$model: $name: metrics differ from the native run at $expect"
        fi
    done
}

check_cpu Nehalem x86-64
check_cpu Haswell x86-64-v3
exit $failed
