#!/usr/bin/env python3
"""PyTorch reference of Experiment A's training step (float64, CPU), written from MODELS.md
"Experiment A / Model and finite-data loss":

    f(X)_i = sum_j softmax_j(x_i^T B x_j) A x_j,   L = 1/(2 P n) sum_i ||f(X)_i - y_i||^2

batched over the P sequences with the full n x n attention, gradients by autograd (as a
researcher would write it), then the gradient-descent update. Used by bench/run_bench.py: checks
the core's loss and gradients on the core's own data and parameters, then times the step.

Experiment B (single-head attention with fixed W_V, MODELS.md "Experiment B") likewise, when the
case's meta.json says so.

Experiment C (LoRA on a depth-2 network, MODELS.md "Experiment C") likewise: the full-batch loss,
autograd for U, V (W_pre, W2 frozen), then the gradient-descent update.

Darcy stage 2 (MODELS.md "Darcy flow data and the ViT-style attention regressor"): the ViT
regressor with every weight but W_Q, W_K frozen, trained by torch.optim.SGD on minibatches of the
core's permutation; one timed iteration is one epoch (see darcy_main).

Usage: reference_torch.py CASE_DIR [--threads T] [--reps R] [--min-time S] [--lr LR]
Prints one JSON object on stdout.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

import numpy as np
import torch


def loss_fn(A, B, X, Y, exclude_self=False):
    P, n, _ = X.shape
    S = (X @ B) @ X.transpose(1, 2)  # (P, n, n)
    if exclude_self and n > 1:
        S = S.masked_fill(torch.eye(n, dtype=torch.bool), float("-inf"))
    W = torch.softmax(S, dim=-1)  # subtracts the row maximum
    F = (W @ X) @ A.T
    return 0.5 * ((F - Y) ** 2).sum() / (P * n)


def loss_fn_b(WQ, WK, WV, X, Y):
    """Experiment B: F(X) = rowsoftmax(X W_Q W_K^T X^T / sqrt(d_k)) X W_V,
    loss = 1/(2|D|) sum ||F(X) - Y||^2 (W_V fixed)."""
    S = ((X @ WQ) @ (X @ WK).transpose(1, 2)) / (WQ.shape[1] ** 0.5)
    F = torch.softmax(S, dim=-1) @ (X @ WV)
    return 0.5 * ((F - Y) ** 2).sum() / X.shape[0]


def loss_fn_c(U, V, Wpre, W2, alpha, activation, X, Y):
    """Experiment C: f(x) = W2 sigma((W_pre + alpha U V) x) over the samples (X: n x d),
    loss = 1/(2n) sum ||f(x) - y||^2 (W_pre, W2 fixed)."""
    Z = X @ (Wpre + alpha * (U @ V)).T
    if activation == "tanh":
        A = torch.tanh(Z)
    elif activation == "softplus":
        A = torch.nn.functional.softplus(Z, threshold=50.0)
    else:
        raise SystemExit("no PyTorch reference for activation %s" % activation)
    return 0.5 * ((A @ W2.T - Y) ** 2).sum() / X.shape[0]


def vit_forward(E, bE, WQ, WK, WV, WO, bO, X):
    """The Darcy regressor (MODELS.md): H = X E + b_E, Z = H + rowsoftmax(Q K^T / sqrt(e)) V,
    Yhat = Z W_O + b_O, batched over samples (X: samples x tokens x (p^2 + 2))."""
    H = X @ E + bE
    Q, K, V = H @ WQ, H @ WK, H @ WV
    A = torch.softmax(Q @ K.transpose(1, 2) / math.sqrt(WQ.shape[1]), dim=-1)
    return (H + A @ V) @ WO + bO


def regulariser(W, name, lam, eps=0.5):
    """MODELS.md "Regularisers" (per trained matrix)."""
    if name == "none":
        return W.new_zeros(())
    s = (W * W).sum()
    if name == "l2":
        return lam * s
    if name == "log_amplified":
        return lam * s * torch.log1p(s)
    if name == "power":
        return lam * s ** (1.0 + 0.5 * eps)
    raise SystemExit("no PyTorch reference for regulariser %s" % name)


def darcy_main(args, meta):
    """Darcy stage 2: loss = 1/2 mean (Yhat - Y)^2 + sum of the regulariser over W_Q, W_K;
    torch.optim.SGD on W_Q, W_K over the minibatches perm[k B : (k+1) B] of one epoch."""
    d = args.case_dir
    load = lambda name: torch.from_numpy(np.load(os.path.join(d, name)))
    X, Y = load("X.npy"), load("Y.npy")
    assert X.dtype == torch.float64
    E, bE, WV, WO, bO = (load(n + ".npy") for n in ("E", "b_E", "W_V", "W_O", "b_O"))
    WQ0, WK0 = load("W_Q.npy"), load("W_K.npy")
    perm = torch.from_numpy(np.load(os.path.join(d, "perm.npy")).astype(np.int64))
    B, steps = meta["batch"], meta["steps_per_epoch"]
    reg, lam = meta["regularizer"], meta["lambda"]
    WQ = WQ0.clone().requires_grad_(True)
    WK = WK0.clone().requires_grad_(True)

    def objective(Xb, Yb):
        loss = 0.5 * ((vit_forward(E, bE, WQ, WK, WV, WO, bO, Xb) - Yb) ** 2).mean()
        return loss + regulariser(WQ, reg, lam) + regulariser(WK, reg, lam)

    opt = torch.optim.SGD([WQ, WK], lr=meta["lr"])
    batches = [perm[k * B:(k + 1) * B] for k in range(steps)]

    def epoch():
        for idx in batches:
            opt.zero_grad()
            objective(X[idx], Y[idx]).backward()
            opt.step()

    def reset():
        with torch.no_grad():
            WQ.copy_(WQ0)
            WK.copy_(WK0)

    # Check: objective and gradients over the whole training set at the start, then the
    # weights after one epoch from the start.
    core_loss = float(np.load(os.path.join(d, "loss.npy"))[0])
    loss = objective(X, Y)
    loss.backward()
    check = {"loss_rel": abs(loss.item() - core_loss) / abs(core_loss)}
    for n, p in (("W_Q", WQ), ("W_K", WK)):
        check["g%s_rel" % n] = rel_err(p.grad.numpy(), np.load(os.path.join(d, "g%s.npy" % n)))
    epoch()
    for n, p in (("W_Q", WQ), ("W_K", WK)):
        check["%s_epoch_rel" % n] = rel_err(p.detach().numpy(),
                                            np.load(os.path.join(d, "%s_epoch.npy" % n)))
    return check, epoch, reset


def rel_err(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case_dir")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.5)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--exclude-self", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.set_num_interop_threads(1)
    d = args.case_dir
    meta = {"experiment": "a", "params": ["A", "B"]}
    if os.path.exists(os.path.join(d, "meta.json")):
        with open(os.path.join(d, "meta.json")) as fh:
            meta = json.load(fh)
    if meta["experiment"] == "darcy":
        check, step, reset = darcy_main(args, meta)
        return report(args, check, step, reset)
    load = lambda name: torch.from_numpy(np.load(os.path.join(d, name)))
    X, Y = load("X.npy"), load("Y.npy")
    assert X.dtype == torch.float64
    names = meta["params"]
    P0 = [load(n + ".npy") for n in names]
    core_loss = float(np.load(os.path.join(d, "loss.npy"))[0])
    core_grads = [np.load(os.path.join(d, "g" + n + ".npy")) for n in names]
    if meta["experiment"] == "a":
        fn = lambda ps: loss_fn(ps[0], ps[1], X, Y, args.exclude_self)
    elif meta["experiment"] == "b":
        WV = load("W_V.npy")
        fn = lambda ps: loss_fn_b(ps[0], ps[1], WV, X, Y)
    elif meta["experiment"] == "c":
        Wpre, W2 = load("W_pre.npy"), load("W2.npy")
        alpha, activation = float(meta["alpha"]), meta["activation"]
        fn = lambda ps: loss_fn_c(ps[0], ps[1], Wpre, W2, alpha, activation, X, Y)
    else:
        raise SystemExit("no PyTorch reference for experiment %s" % meta["experiment"])

    params = [p.clone().requires_grad_(True) for p in P0]
    loss = fn(params)
    loss.backward()
    check = {"loss_rel": abs(loss.item() - core_loss) / abs(core_loss)}
    for n, p, cg in zip(names, params, core_grads):
        check["g%s_rel" % n] = rel_err(p.grad.numpy(), cg)

    def step():
        for p in params:
            p.grad = None
        fn(params).backward()
        with torch.no_grad():
            for p in params:
                p.sub_(args.lr * p.grad)

    def reset():
        with torch.no_grad():
            for p, p0 in zip(params, P0):
                p.copy_(p0)

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
        "impl": "torch",
        "torch_version": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "check": check,
        "rates": rates,
        "it_per_s": statistics.median(rates),
        "iters_per_rep": iters,
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
