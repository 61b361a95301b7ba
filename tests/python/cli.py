"""What the Python tests share: the CLI of the same build tree, and metrics.csv read two ways."""
from __future__ import annotations

import os
import subprocess

import numpy as np

CLI = os.environ["ADE_CLI"]
PREFIX = "attention-explorer-cli: "


def cli(*args: str) -> subprocess.CompletedProcess:
    """Runs the CLI (no time limit of its own: ctest's timeout is the ceiling)."""
    return subprocess.run([CLI, *args], capture_output=True, text=True)


def cli_error(*args: str) -> str:
    """The message the CLI prints for an invalid invocation (exit status 2), without its prefix."""
    p = cli(*args)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    lines = [line for line in p.stderr.splitlines() if line.startswith(PREFIX)]
    assert len(lines) == 1, p.stderr
    return lines[0][len(PREFIX):]


def without_column(csv_bytes: bytes, column: str) -> bytes:
    """metrics.csv without one column (time_s: wall-clock time, the one column that differs
    between two runs of the same seed), every other byte as written."""
    lines = csv_bytes.split(b"\n")
    j = lines[0].split(b",").index(column.encode())
    out = []
    for line in lines:
        cells = line.split(b",")
        out.append(b",".join(cells[:j] + cells[j + 1:]) if len(cells) > j else line)
    return b"\n".join(out)


def read_csv(path) -> dict[str, np.ndarray]:
    """metrics.csv parsed by Python's float() (which reads the shortest round-trip text back to
    the same double)."""
    with open(path) as f:
        header = f.readline().strip().split(",")
        rows = [[float(x) for x in line.strip().split(",")] for line in f if line.strip()]
    data = np.array(rows, dtype=np.float64).reshape(len(rows), len(header))
    return {c: data[:, j] for j, c in enumerate(header)}


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal to the last bit (NaNs included)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))
