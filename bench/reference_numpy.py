#!/usr/bin/env python3
"""NumPy reference of Experiment A's training step (float64, CPU), written from MODELS.md
"Experiment A / Model and finite-data loss":

    S = X B X^T,  W = rowsoftmax(S),  F = W X A^T,  L = 1/(2 P n) sum ||F - Y||^2
    G = (F - Y)/(P n),  dL/dA = G^T (W X),  dW = G (X A^T)^T,
    dS = W * (dW - rowsum(dW * W)),  dL/dB = X^T dS X

batched over the P sequences with the full n x n matrices (as a researcher would write it),
followed by the gradient-descent update. Used by bench/run_bench.py: checks the core's loss and
gradients on the core's own data and parameters, then times the step.

Experiment B (single-head attention with fixed W_V, MODELS.md "Experiment B") likewise, when the
case's meta.json says so.

Experiment C (LoRA on a depth-2 network, MODELS.md "Experiment C") likewise: the full-batch loss
and its analytic gradient in U, V (W_pre, W2 frozen), then the gradient-descent update.

Darcy stage 2 (MODELS.md "Darcy flow data and the ViT-style attention regressor"): the ViT
regressor with every weight but W_Q, W_K frozen, its analytic gradient in W_Q, W_K, and SGD on
minibatches of the core's permutation; one timed iteration is one epoch (see darcy_main).

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


def loss_and_grad_b(WQ, WK, WV, X, Y):
    """Experiment B (MODELS.md): F(X) = rowsoftmax(X W_Q W_K^T X^T / sqrt(d_k)) X W_V,
    loss = 1/(2|D|) sum ||F(X) - Y||^2; gradients in W_Q, W_K (W_V fixed)."""
    S_count = X.shape[0]
    dk = WQ.shape[1]
    inv = 1.0 / np.sqrt(dk)
    Q, K, V = X @ WQ, X @ WK, X @ WV  # (S, N, .)
    Sc = (Q @ K.transpose(0, 2, 1)) * inv
    Sc -= Sc.max(axis=2, keepdims=True)
    A = np.exp(Sc)
    A /= A.sum(axis=2, keepdims=True)
    R = A @ V - Y
    loss = 0.5 * float(np.sum(R * R)) / S_count
    dA = (R / S_count) @ V.transpose(0, 2, 1)
    dS = A * (dA - np.sum(dA * A, axis=2, keepdims=True)) * inv
    Xt = X.transpose(0, 2, 1)
    gQ = np.sum(Xt @ (dS @ K), axis=0)
    gK = np.sum(Xt @ (dS.transpose(0, 2, 1) @ Q), axis=0)
    return loss, gQ, gK


def loss_and_grad_c(U, V, Wpre, W2, alpha, activation, X, Y):
    """Experiment C (MODELS.md): f(x) = W2 sigma((W_pre + alpha U V) x), batched over the samples
    (X: n x d, Y: n x o), loss = 1/(2n) sum ||f(x) - y||^2; gradients in U, V:
        Z = X W^T,  A = sigma(Z),  R = A W2^T - Y,  dZ = (R W2) * sigma'(Z) / n,
        dL/dW = dZ^T X,  dL/dU = alpha dL/dW V^T,  dL/dV = alpha U^T dL/dW."""
    n = X.shape[0]
    W = Wpre + alpha * (U @ V)
    Z = X @ W.T
    if activation == "tanh":
        A = np.tanh(Z)
        dsig = 1.0 - A * A
    elif activation == "softplus":
        A = np.logaddexp(0.0, Z)
        dsig = 1.0 / (1.0 + np.exp(-Z))
    else:
        raise SystemExit("no NumPy reference for activation %s" % activation)
    R = A @ W2.T - Y
    loss = 0.5 * float(np.sum(R * R)) / n
    dZ = (R @ W2) * dsig / n
    dW = dZ.T @ X
    return loss, alpha * (dW @ V.T), alpha * (U.T @ dW)


def darcy_loss_and_grad(WQ, WK, frozen, X, Y, reg, lam):
    """Darcy regressor (MODELS.md), batched over samples (X: samples x tokens x (p^2 + 2)):
        H = X E + b_E,  Q, K, V = H W_Q, H W_K, H W_V,  A = rowsoftmax(Q K^T / sqrt(e)),
        Yhat = (H + A V) W_O + b_O,  loss = 1/2 mean (Yhat - Y)^2 + R(W_Q) + R(W_K)
    and its gradient in W_Q, W_K (the other weights frozen):
        G = (Yhat - Y)/size,  dA = (G W_O^T) V^T,  dS = A * (dA - rowsum(dA * A)) / sqrt(e),
        dL/dW_Q = sum H^T (dS K),  dL/dW_K = sum H^T (dS^T Q)."""
    E, bE, WV, WO, bO = frozen
    e = WQ.shape[1]
    inv = 1.0 / np.sqrt(e)
    H = X @ E + bE
    Q, K, V = H @ WQ, H @ WK, H @ WV
    S = (Q @ K.transpose(0, 2, 1)) * inv
    S -= S.max(axis=2, keepdims=True)
    A = np.exp(S, out=S)
    A /= A.sum(axis=2, keepdims=True)
    R = (H + A @ V) @ WO + bO - Y
    scale = 1.0 / R.size
    loss = 0.5 * scale * float(np.sum(R * R))
    dA = ((R * scale) @ WO.T) @ V.transpose(0, 2, 1)
    dA -= np.sum(dA * A, axis=2, keepdims=True)
    dA *= A * inv  # dS
    Hf = H.reshape(-1, e)
    gQ = Hf.T @ (dA @ K).reshape(-1, e)
    gK = Hf.T @ (dA.transpose(0, 2, 1) @ Q).reshape(-1, e)
    for W, g in ((WQ, gQ), (WK, gK)):
        r, dr = regulariser(W, reg, lam)
        loss += r
        g += dr
    return loss, gQ, gK


def regulariser(W, name, lam, eps=0.5):
    """MODELS.md "Regularisers": value and gradient for one trained matrix."""
    if name == "none":
        return 0.0, np.zeros_like(W)
    s = float(np.sum(W * W))
    if name == "l2":
        return lam * s, 2.0 * lam * W
    if name == "log_amplified":
        return lam * s * np.log1p(s), 2.0 * lam * (np.log1p(s) + s / (1.0 + s)) * W
    if name == "power":
        return lam * s ** (1.0 + 0.5 * eps), lam * (2.0 + eps) * np.sqrt(s) ** eps * W
    raise SystemExit("no NumPy reference for regulariser %s" % name)


def darcy_main(args, meta):
    """Darcy stage 2: SGD on W_Q, W_K over the minibatches perm[k B : (k+1) B] of one epoch."""
    d = args.case_dir
    load = lambda name: np.load(os.path.join(d, name))
    X, Y = load("X.npy"), load("Y.npy")
    frozen = [load(n + ".npy") for n in ("E", "b_E", "W_V", "W_O", "b_O")]
    WQ0, WK0 = load("W_Q.npy"), load("W_K.npy")
    perm = load("perm.npy").astype(np.int64)
    B, steps, lr = meta["batch"], meta["steps_per_epoch"], meta["lr"]
    reg, lam = meta["regularizer"], meta["lambda"]
    WQ, WK = WQ0.copy(), WK0.copy()
    batches = [perm[k * B:(k + 1) * B] for k in range(steps)]

    def epoch():
        for idx in batches:
            _, gQ, gK = darcy_loss_and_grad(WQ, WK, frozen, X[idx], Y[idx], reg, lam)
            WQ[...] -= lr * gQ
            WK[...] -= lr * gK

    def reset():
        WQ[...] = WQ0
        WK[...] = WK0

    # Check: objective and gradients over the whole training set at the start, then the
    # weights after one epoch from the start.
    core_loss = float(load("loss.npy")[0])
    loss, gQ, gK = darcy_loss_and_grad(WQ, WK, frozen, X, Y, reg, lam)
    check = {"loss_rel": abs(loss - core_loss) / abs(core_loss),
             "gW_Q_rel": rel_err(gQ, load("gW_Q.npy")), "gW_K_rel": rel_err(gK, load("gW_K.npy"))}
    epoch()
    check["W_Q_epoch_rel"] = rel_err(WQ, load("W_Q_epoch.npy"))
    check["W_K_epoch_rel"] = rel_err(WK, load("W_K_epoch.npy"))
    return check, epoch, reset


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
    meta = {"experiment": "a", "params": ["A", "B"]}
    if os.path.exists(os.path.join(d, "meta.json")):
        with open(os.path.join(d, "meta.json")) as fh:
            meta = json.load(fh)
    if meta["experiment"] == "darcy":
        check, step, reset = darcy_main(args, meta)
        return report(args, check, step, reset)
    load = lambda name: np.load(os.path.join(d, name))
    X, Y = load("X.npy"), load("Y.npy")
    names = meta["params"]
    params = [load(n + ".npy") for n in names]
    core_loss = float(load("loss.npy")[0])
    core_grads = [load("g" + n + ".npy") for n in names]
    if meta["experiment"] == "a":
        fn = lambda ps: loss_and_grad(ps[0], ps[1], X, Y, args.exclude_self)
    elif meta["experiment"] == "b":
        WV = load("W_V.npy")
        fn = lambda ps: loss_and_grad_b(ps[0], ps[1], WV, X, Y)
    elif meta["experiment"] == "c":
        Wpre, W2 = load("W_pre.npy"), load("W2.npy")
        alpha, activation = float(meta["alpha"]), meta["activation"]
        fn = lambda ps: loss_and_grad_c(ps[0], ps[1], Wpre, W2, alpha, activation, X, Y)
    else:
        raise SystemExit("no NumPy reference for experiment %s" % meta["experiment"])

    loss, *grads = fn(params)
    check = {"loss_rel": abs(loss - core_loss) / abs(core_loss)}
    for n, g, cg in zip(names, grads, core_grads):
        check["g%s_rel" % n] = rel_err(g, cg)

    P0 = [p.copy() for p in params]

    def step():
        _, *gs = fn(params)
        for p, g in zip(params, gs):
            p -= args.lr * g

    def reset():
        for p, p0 in zip(params, P0):
            p[...] = p0

    return report(args, check, step, reset)


def report(args, check, step, reset):
    """Times step() (>= min_time per repetition after a warm-up and calibration; reset() before
    each repetition) and prints the JSON result."""
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
        reset()
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
