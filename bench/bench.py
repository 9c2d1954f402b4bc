"""GPU benchmark: mytriton beside Triton and PyTorch in one run.

Workloads (as in shared/bench/anchors.py): vector add (2^28 fp32),
row softmax (16384 x 4096 fp32), fp32 matmul with tl.dot (ieee),
launch overhead of a tiny kernel, cold compile time.  Each peer is timed
with triton.testing.do_bench (median, L2 flushed) in the same process;
every mytriton result is checked against torch first.  Prints a table and
writes it to BENCHMARKS.md (or $OUT/BENCHMARKS.md when OUT is set).

Usage: PYTHONPATH=python python3 bench/bench.py [--quick]
"""
import os
import sys
import tempfile
import time

import torch

import mytriton
import mytriton.language as mtl

try:
    import triton
    import triton.language as tl
    from triton.testing import do_bench
except ImportError:  # pragma: no cover - the GPU machine has Triton
    triton = None

    def do_bench(fn, warmup=25, rep=100, return_mode="median"):
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(50):
            s = torch.cuda.Event(enable_timing=True)
            e = torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            torch.cuda.synchronize()
            times.append(s.elapsed_time(e))
        times.sort()
        return times[len(times) // 2]


QUICK = "--quick" in sys.argv
dev = "cuda"
rows = []


def add_row(name, unit, mine, tri, tor):
    rows.append((name, unit, mine, tri, tor))
    print(f"{name:28s} {unit:8s} mytriton={mine!s:>10} triton={tri!s:>10} torch={tor!s:>10}",
          flush=True)


def fmt(x):
    return "-" if x is None else f"{x:.3g}"


# ---------------------------------------------------------------- kernels

@mytriton.jit
def mt_add(x, y, out, n, BLOCK: mtl.constexpr):
    offs = mtl.program_id(0) * BLOCK + mtl.arange(0, BLOCK)
    m = offs < n
    mtl.store(out + offs, mtl.load(x + offs, mask=m) + mtl.load(y + offs, mask=m), mask=m)


@mytriton.jit
def mt_softmax(x, out, n_cols, BLOCK: mtl.constexpr):
    row = mtl.program_id(0)
    offs = mtl.arange(0, BLOCK)
    m = offs < n_cols
    v = mtl.load(x + row * n_cols + offs, mask=m, other=-float("inf"))
    v = v - mtl.max(v, axis=0)
    e = mtl.exp(v)
    mtl.store(out + row * n_cols + offs, e / mtl.sum(e, axis=0), mask=m)


@mytriton.jit
def mt_mm(a, b, c, M, N, K, BM: mtl.constexpr, BN: mtl.constexpr, BK: mtl.constexpr):
    pm = mtl.program_id(0)
    pn = mtl.program_id(1)
    rm = pm * BM + mtl.arange(0, BM)
    rn = pn * BN + mtl.arange(0, BN)
    rk = mtl.arange(0, BK)
    acc = mtl.zeros((BM, BN), mtl.float32)
    for k in range(0, K, BK):
        av = mtl.load(a + rm[:, None] * K + (k + rk)[None, :])
        bv = mtl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += mtl.dot(av, bv, input_precision="ieee")
    mtl.store(c + rm[:, None] * N + rn[None, :], acc)


if triton is not None:
    @triton.jit
    def tr_add(x, y, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)

    @triton.jit
    def tr_softmax(x, out, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        offs = tl.arange(0, BLOCK)
        m = offs < n_cols
        v = tl.load(x + row * n_cols + offs, mask=m, other=-float("inf"))
        v = v - tl.max(v, axis=0)
        e = tl.exp(v)
        tl.store(out + row * n_cols + offs, e / tl.sum(e, axis=0), mask=m)

    @triton.jit
    def tr_mm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pm = tl.program_id(0)
        pn = tl.program_id(1)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), tl.float32)
        for k in range(0, K, BK):
            av = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
            bv = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
            acc += tl.dot(av, bv, input_precision="ieee")
        tl.store(c + rm[:, None] * N + rn[None, :], acc)


def tbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e12


def bench_add():
    n = 1 << (24 if QUICK else 28)
    x = torch.randn(n, device=dev)
    y = torch.randn(n, device=dev)
    o = torch.full_like(x, float("nan"))
    results = {}
    for block, warps in ((1024, 4), (2048, 8), (4096, 8)):
        g = (mytriton.cdiv(n, block),)
        mt_add[g](x, y, o, n, BLOCK=block, num_warps=warps)
        torch.testing.assert_close(o, x + y)
        results[(block, warps)] = tbps(3 * 4 * n, do_bench(
            lambda: mt_add[g](x, y, o, n, BLOCK=block, num_warps=warps), return_mode="median"))
    best = max(results, key=results.get)
    tri = None
    if triton is not None:
        g = (triton.cdiv(n, 1024),)
        tri = tbps(3 * 4 * n, do_bench(lambda: tr_add[g](x, y, o, n, BLOCK=1024),
                                       return_mode="median"))
    tor = tbps(3 * 4 * n, do_bench(lambda: torch.add(x, y, out=o), return_mode="median"))
    add_row(f"vector add 2^{n.bit_length() - 1} (B={best[0]},w={best[1]})", "TB/s",
            fmt(results[best]), fmt(tri), fmt(tor))


def bench_softmax():
    R, C = (4096, 4096) if QUICK else (16384, 4096)
    x = torch.randn(R, C, device=dev)
    o = torch.full_like(x, float("nan"))
    ref = torch.softmax(x, 1)
    results = {}
    for warps in (4, 8, 16):
        mt_softmax[(R,)](x, o, C, BLOCK=C, num_warps=warps)
        torch.testing.assert_close(o, ref)
        results[warps] = tbps(2 * 4 * R * C, do_bench(
            lambda: mt_softmax[(R,)](x, o, C, BLOCK=C, num_warps=warps), return_mode="median"))
    best = max(results, key=results.get)
    tri = None
    if triton is not None:
        tri = tbps(2 * 4 * R * C, do_bench(
            lambda: tr_softmax[(R,)](x, o, C, BLOCK=C, num_warps=16), return_mode="median"))
    tor = tbps(2 * 4 * R * C, do_bench(lambda: torch.softmax(x, dim=1), return_mode="median"))
    add_row(f"softmax {R}x{C} (w={best})", "TB/s", fmt(results[best]), fmt(tri), fmt(tor))


def bench_mm():
    S = 2048 if QUICK else 4096
    a = torch.randn(S, S, device=dev)
    b = torch.randn(S, S, device=dev)
    c = torch.full((S, S), float("nan"), device=dev)
    ref = a.double() @ b.double()
    fl = 2 * S ** 3
    best = (None, None)
    for BM, BN, BK, w in ((128, 64, 16, 4), (64, 128, 16, 4), (128, 128, 16, 8), (64, 64, 32, 4),
                          (128, 128, 8, 8), (64, 64, 16, 4), (128, 64, 8, 4)):
        grid = (S // BM, S // BN)
        try:
            mt_mm[grid](a, b, c, S, S, S, BM=BM, BN=BN, BK=BK, num_warps=w)
        except Exception as e:  # report, keep going with other configs
            print(f"mytriton mm {BM}x{BN}x{BK} w{w}: {type(e).__name__}: {str(e)[:300]}")
            continue
        err = ((c.double() - ref).norm() / ref.norm()).item()
        if not err < 1e-4:
            print(f"mytriton mm {BM}x{BN}x{BK} w{w}: relative error {err}")
            continue
        t = fl / do_bench(lambda: mt_mm[grid](a, b, c, S, S, S, BM=BM, BN=BN, BK=BK, num_warps=w),
                          return_mode="median") / 1e9
        print(f"  mytriton mm {BM}x{BN}x{BK} w{w}: {t:.2f} TFLOP/s (rel err {err:.2e})")
        if best[0] is None or t > best[0]:
            best = (t, (BM, BN, BK, w))
    tri = None
    if triton is not None:
        grid = (S // 128, S // 128)
        tri = fl / do_bench(lambda: tr_mm[grid](a, b, c, S, S, S, BM=128, BN=128, BK=32,
                                                num_warps=8, num_stages=3),
                            return_mode="median") / 1e9
    torch.backends.cuda.matmul.allow_tf32 = False
    tor = fl / do_bench(lambda: torch.matmul(a, b, out=c), return_mode="median") / 1e9
    add_row(f"fp32 matmul {S}^3 ieee {best[1]}", "TFLOP/s", fmt(best[0]), fmt(tri), fmt(tor))


def bench_launch():
    x = torch.randn(1024, device=dev)
    y = torch.randn(1024, device=dev)
    o = torch.empty_like(x)
    fns = {"mytriton": lambda: mt_add[(1,)](x, y, o, 1024, BLOCK=1024),
           "torch": lambda: torch.add(x, y, out=o)}
    if triton is not None:
        fns["triton"] = lambda: tr_add[(1,)](x, y, o, 1024, BLOCK=1024)
    res = {}
    for name, fn in fns.items():
        for _ in range(200):
            fn()
        torch.cuda.synchronize()
        # batches of 200 with an untimed sync between them, so the GPU's
        # launch queue never fills and the figure is host time per launch
        per = []
        for _ in range(100):
            t = time.perf_counter()
            for _ in range(200):
                fn()
            per.append((time.perf_counter() - t) / 200 * 1e6)
            torch.cuda.synchronize()
        per.sort()
        res[name] = per[len(per) // 2]
    add_row("launch overhead, 4 args", "us", fmt(res["mytriton"]), fmt(res.get("triton")),
            fmt(res["torch"]))


def bench_compile():
    os.environ["MYTRITON_CACHE_DIR"] = tempfile.mkdtemp()
    src_x = torch.randn(1024, device=dev)
    o = torch.empty_like(src_x)

    @mytriton.jit
    def mt_add2(x, y, out, n, BLOCK: mtl.constexpr):
        offs = mtl.program_id(0) * BLOCK + mtl.arange(0, BLOCK)
        m = offs < n
        mtl.store(out + offs, mtl.load(x + offs, mask=m) * 2 + mtl.load(y + offs, mask=m), mask=m)

    t = time.perf_counter()
    mt_add2[(1,)](src_x, src_x, o, 1024, BLOCK=512)
    torch.cuda.synchronize()
    mine = (time.perf_counter() - t) * 1e3
    tri = None
    if triton is not None:
        os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()

        @triton.jit
        def tr_add2(x, y, out, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            m = offs < n
            tl.store(out + offs, tl.load(x + offs, mask=m) * 2 + tl.load(y + offs, mask=m),
                     mask=m)

        t = time.perf_counter()
        tr_add2[(1,)](src_x, src_x, o, 1024, BLOCK=512)
        torch.cuda.synchronize()
        tri = (time.perf_counter() - t) * 1e3
    add_row("cold compile, add kernel", "ms", fmt(mine), fmt(tri), "-")


def main():
    print(f"GPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  "
          f"triton {getattr(triton, '__version__', '-')}")
    for fn in (bench_launch, bench_compile, bench_add, bench_softmax, bench_mm):
        try:
            fn()
        except Exception as e:
            print(f"{fn.__name__} failed: {type(e).__name__}: {str(e)[:2000]}")
    lines = ["# Benchmarks", "",
             f"Measured by `bench/bench.py` on {torch.cuda.get_device_name()}, torch "
             f"{torch.__version__}, triton {getattr(triton, '__version__', '-')}, "
             f"{time.strftime('%Y-%m-%d')}. Medians of `do_bench`; higher is better except "
             "for us/ms rows.", "",
             "| workload | unit | mytriton | Triton | PyTorch |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append("| " + " | ".join(str(x) for x in r) + " |")
    text = "\n".join(lines) + "\n"
    path = os.path.join(os.environ.get("OUT", "."), "BENCHMARKS.md")
    with open(path, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
