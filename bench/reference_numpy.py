#!/usr/bin/env python3
"""NumPy reference of Experiment A's training step (float64, CPU), written from MODELS.md
"Experiment A / Model and finite-data loss":

    S = X B X^T,  W = rowsoftmax(S),  F = W X A^T,  L = 1/(2 P n) sum ||F - Y||^2
    G = (F - Y)/(P n),  dL/dA = G^T (W X),  dW = G (X A^T)^T,
    dS = W * (dW - rowsum(dW * W)),  dL/dB = X^T dS X

batched over the P sequences with the full n x n matrices (as a researcher would write it),
followed by the gradient-descent update. Used by bench/run_bench.py: checks the core's loss and
gradients on the core's own data and parameters, then times the step.

Usage: reference_numpy.py CASE_DIR [--reps R] [--min-time S] [--lr LR]
Prints one JSON object on stdout.
"""
import argparse
import json
import os
import sys
import time

import numpy as np


def loss_and_grad(A, B, X, Y, exclude_self=False):
    P, n, _ = X.shape
    S = (X @ B) @ X.transpose(0, 2, 1)  # (P, n, n)
    if exclude_self and n > 1:
        S[:, np.arange(n), np.arange(n)] = -np.inf
    S -= S.max(axis=2, keepdims=True)
    W = np.exp(S, out=S)
    W /= W.sum(axis=2, keepdims=True)
    WX = W @ X  # (P, n, d)
    F = WX @ A.T  # (P, n, k)
    R = F - Y
    scale = 1.0 / (P * n)
    loss = 0.5 * scale * float(np.sum(R * R))
    G = R * scale
    gA = G.reshape(-1, G.shape[2]).T @ WX.reshape(-1, WX.shape[2])
    dW = G @ (X @ A.T).transpose(0, 2, 1)  # (P, n, n)
    c = np.sum(dW * W, axis=2, keepdims=True)
    dW -= c
    dW *= W  # dS
    gB = np.sum(X.transpose(0, 2, 1) @ (dW @ X), axis=0)
    return loss, gA, gB


def blas_info():
    try:
        from threadpoolctl import threadpool_info

        infos = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if infos:
            i = infos[0]
            return {
                "internal_api": i.get("internal_api"),
                "filepath": i.get("filepath"),
                "version": i.get("version"),
                "threading_layer": i.get("threading_layer"),
                "num_threads": i.get("num_threads"),
                "architecture": i.get("architecture"),
            }
    except Exception as e:  # threadpoolctl missing or failing: say so
        return {"error": "threadpoolctl: %s" % e}
    return {"error": "no BLAS found by threadpoolctl"}


def rel_err(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case_dir")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.5)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--exclude-self", action="store_true")
    args = ap.parse_args()
    d = args.case_dir
    X = np.load(os.path.join(d, "X.npy"))
    Y = np.load(os.path.join(d, "Y.npy"))
    A0 = np.load(os.path.join(d, "A.npy"))
    B0 = np.load(os.path.join(d, "B.npy"))
    core_loss = float(np.load(os.path.join(d, "loss.npy"))[0])
    core_gA = np.load(os.path.join(d, "gA.npy"))
    core_gB = np.load(os.path.join(d, "gB.npy"))

    loss, gA, gB = loss_and_grad(A0, B0, X, Y, args.exclude_self)
    check = {
        "loss_rel": abs(loss - core_loss) / abs(core_loss),
        "gA_rel": rel_err(gA, core_gA),
        "gB_rel": rel_err(gB, core_gB),
    }

    A, B = A0.copy(), B0.copy()

    def step():
        _, gA, gB = loss_and_grad(A, B, X, Y, args.exclude_self)
        A[...] -= args.lr * gA
        B[...] -= args.lr * gB

    step()  # warm-up
    iters = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(iters):
            step()
        s = time.perf_counter() - t0
        if s >= 0.2 * args.min_time:
            iters = max(1, int(iters * args.min_time / s))
            break
        iters *= 4
    rates = []
    for _ in range(args.reps):
        A[...] = A0
        B[...] = B0
        t0 = time.perf_counter()
        for _ in range(iters):
            step()
        rates.append(iters / (time.perf_counter() - t0))
    out = {
        "impl": "numpy",
        "numpy_version": np.__version__,
        "blas": blas_info(),
        "check": check,
        "rates": rates,
        "it_per_s": float(np.median(rates)),
        "iters_per_rep": iters,
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
