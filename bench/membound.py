"""Memory-bound kernels on the GPU (issue 11): mytriton beside Triton 3.6
and torch in one process, each implementation the best of the same
configuration list (num_warps up to 32 for softmax), every
mytriton result checked against torch first.  Rows: vector add, the tiled
transpose (a tile loaded along x's rows, stored along y's), row softmax at
16384 x {512 .. 16384}, tutorial 05's layer-norm forward, tutorial 03's
matmul on fp32 ("ieee") at 1024^3, 3000^3 (ragged) and 4096^3.  Times are
medians of triton.testing.do_bench (L2 flushed), the two winners timed
again in alternation (duel); bandwidth counts the bytes each kernel must
move once.

Usage (on a GPU): PYTHONPATH=python python3 bench/membound.py [--quick] [ROW ...]
ROW filters by the row name's start (add, transpose, softmax, layernorm, matmul).
"""
import os
import sys

import torch
from triton.testing import do_bench

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from run_tutorials import load, load_as_mytriton  # noqa: E402

KFILE = os.path.join(HERE, "mb_kernels.py")
MMFILE = os.path.join(HERE, "mm_kernels.py")
QUICK = "--quick" in sys.argv
ONLY = [a for a in sys.argv[1:] if not a.startswith("--")]
rows = []


def cdiv(a, b):
    return (a + b - 1) // b


def best(run, cfgs):
    """(ms, cfg) of the fastest configuration; configs that do not
    compile (resources) are skipped and printed."""
    out = (None, None)
    for cfg in cfgs:
        try:
            run(cfg)
            t = do_bench(lambda: run(cfg), return_mode="median")
        except Exception as exc:
            print(f"  skip {cfg}: {str(exc).splitlines()[0][:120]}", flush=True)
            continue
        if out[0] is None or t < out[0]:
            out = (t, cfg)
    return out


def duel(run_mt, run_tr, cfgs, tcfgs):
    """Each side's best configuration (best), then both winners timed again
    in alternation, 5 rounds, the median of each: the search runs one
    side's list after the other's, and the card's clock drift between the
    two would otherwise enter the ratio.  Returns the two (ms, cfg)."""
    mt, tr = best(run_mt, cfgs), best(run_tr, tcfgs)
    if mt[0] is None or tr[0] is None:
        return mt, tr
    tm, tt = [], []
    for _ in range(5):
        tm.append(do_bench(lambda: run_mt(mt[1]), return_mode="median"))
        tt.append(do_bench(lambda: run_tr(tr[1]), return_mode="median"))
    return (sorted(tm)[2], mt[1]), (sorted(tt)[2], tr[1])


def row(name, unit, work, mts, torch_ms):
    """work / ms -> unit; mts is duel's pair of (ms, cfg)."""
    mt, tr = mts
    def rate(ms):
        return work / (ms * 1e-3) if ms else float("nan")
    m, t, p = rate(mt[0]), rate(tr[0]), rate(torch_ms) if torch_ms else float("nan")
    rows.append((name, unit, m, mt[1], t, tr[1], p, m / t))
    print(f"| {name} | {unit} | {m:.3g} {mt[1]} | {t:.3g} {tr[1]} | {p:.3g} | {m / t:.3f} |",
          flush=True)


def check(got, want, what, tol=1e-5):
    err = (got.double() - want.double()).abs().max().item()
    scale = max(want.double().abs().max().item(), 1.0)
    if not err <= tol * scale:
        raise SystemExit(f"{what}: mytriton's result is off by {err:.3e}")


def wanted(name):
    return not ONLY or any(name.startswith(o) for o in ONLY)


def bench_add(mt, tr):
    n = 1 << 28
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    cfgs = [(b, w) for b in (1024, 2048, 4096) for w in (4, 8)]

    def run(ns):
        return lambda c: ns["add"][(cdiv(n, c[0]),)](x, y, out, n, BLOCK=c[0], num_warps=c[1])
    run(mt)(cfgs[0])
    check(out, x + y, "add")
    row("add 2^28 fp32", "TB/s", 3 * 4 * n / 1e12, duel(run(mt), run(tr), cfgs, cfgs),
        do_bench(lambda: torch.add(x, y, out=out)))


def bench_transpose(mt, tr):
    M = N = 8192
    x = torch.rand((M, N), device="cuda")
    y = torch.empty((N, M), device="cuda")
    cfgs = [(bm, bn, w) for (bm, bn) in ((32, 32), (64, 64), (32, 128), (128, 32), (64, 128),
                                        (128, 64)) for w in (4, 8)]

    def run(ns):
        return lambda c: ns["transpose"][(M // c[0], N // c[1])](x, y, M, N, BM=c[0], BN=c[1],
                                                                  num_warps=c[2])
    run(mt)(cfgs[0])
    check(y, x.t(), "transpose")
    yt = torch.empty_like(y)
    row("transpose 8192^2 fp32", "TB/s", 2 * 4 * M * N / 1e12, duel(run(mt), run(tr), cfgs, cfgs),
        do_bench(lambda: yt.copy_(x.t())))


def bench_softmax(mt, tr, n_cols):
    M = 16384
    x = torch.randn((M, n_cols), device="cuda")
    out = torch.empty_like(x)
    B = 1 << (n_cols - 1).bit_length()
    cfgs = [(w,) for w in (1, 2, 4, 8, 16, 32)]

    def run(ns):
        return lambda c: ns["softmax"][(M,)](x, out, n_cols, BLOCK=B, num_warps=c[0])
    run(mt)(cfgs[2])
    check(out, torch.softmax(x, dim=1), f"softmax {n_cols}")
    row(f"softmax 16384x{n_cols}", "TB/s", 2 * 4 * M * n_cols / 1e12, duel(run(mt), run(tr), cfgs, cfgs),
        do_bench(lambda: torch.softmax(x, dim=1)))


def bench_layernorm(mt, tr):
    M, N = 4096, 8192
    x = torch.randn((M, N), device="cuda")
    w, b = torch.rand(N, device="cuda"), torch.rand(N, device="cuda")
    y = torch.empty_like(x)
    mean, rstd = torch.empty(M, device="cuda"), torch.empty(M, device="cuda")
    cfgs = [(bs, wp) for bs in (1024, 2048, 4096, 8192) for wp in (4, 8, 16)]

    def run(ns):
        return lambda c: ns["layer_norm"][(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5,
                                                 BLOCK_SIZE=c[0], num_warps=c[1])
    run(mt)(cfgs[0])
    check(y, torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5), "layer norm", 1e-4)
    row("layer-norm fwd 4096x8192", "TB/s", 2 * 4 * M * N / 1e12, duel(run(mt), run(tr), cfgs, cfgs),
        do_bench(lambda: torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5)))


MM_CFGS = [(64, 64, 32, 4, 2), (128, 64, 32, 4, 2), (64, 128, 32, 4, 2), (128, 128, 32, 8, 2),
           (128, 64, 16, 4, 2), (64, 32, 32, 4, 2), (32, 64, 32, 4, 2), (128, 128, 16, 4, 2)]


def bench_matmul(mt, tr, S):
    a, b = torch.randn((S, S), device="cuda"), torch.randn((S, S), device="cuda")
    c = torch.empty((S, S), device="cuda")

    def run(ns):
        def go(cfg):
            BM, BN, BK, W, st = cfg
            ns["matmul"][(cdiv(S, BM) * cdiv(S, BN),)](
                a, b, c, S, S, S, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                c.stride(0), c.stride(1), BM=BM, BN=BN, BK=BK, GROUP_M=8, PREC="ieee",
                num_warps=W, num_stages=st)
        return go
    run(mt)(MM_CFGS[0])
    torch.backends.cuda.matmul.allow_tf32 = False
    check(c, a.double() @ b.double(), f"matmul {S}", 1e-4)
    cfgs = MM_CFGS + [cf[:4] + (s,) for cf in MM_CFGS for s in (3, 4)]
    row(f"fp32 matmul {S}^3 ieee", "TFLOP/s", 2.0 * S ** 3 / 1e12, duel(run(mt), run(tr), cfgs, cfgs),
        do_bench(lambda: torch.matmul(a, b, out=c)))


def main():
    tr = {**load(KFILE), **load(MMFILE)}
    mt = {**load_as_mytriton(KFILE), **load_as_mytriton(MMFILE)}
    print("| kernel | unit | mytriton (config) | Triton (config) | torch | mytriton / Triton |")
    print("|---|---|---|---|---|---|")
    if wanted("add"):
        bench_add(mt, tr)
    if wanted("transpose"):
        bench_transpose(mt, tr)
    if wanted("softmax"):
        for n in ((512, 16384) if QUICK else (512, 2048, 4096, 8192, 16384)):
            bench_softmax(mt, tr, n)
    if wanted("layernorm"):
        bench_layernorm(mt, tr)
    if wanted("matmul"):
        for S in ((1024,) if QUICK else (1024, 3000, 4096)):
            bench_matmul(mt, tr, S)


if __name__ == "__main__":
    main()
