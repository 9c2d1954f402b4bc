"""The MLIR backend beside the CUDA backend and Triton (issue 12), for
BENCHMARKS.md: vector add, row softmax and a row sum, each timed with
do_bench on the GPU, and the cold compile time of each kernel per backend.

On the GPU machine (no MLIR tools there): the MLIR PTX comes from the cache
`make mlir-ptx-cache` filled (MYTRITON_CACHE_DIR=build/mlir-cache), so the
MLIR "cold" time measured there is a cache hit plus the driver's PTX JIT;
the lowering's own cold time (three processes) is measured where the tools
are with --compile-only:

    python3 -m mytriton.run bench/mlir_bench.py --compile-only   # here: MLIR cold
    MYTRITON_CACHE_DIR=build/mlir-cache python3 bench/mlir_bench.py  # GPU (real Triton)
"""
# string annotations: mytriton and a real Triton each read "tl.constexpr"
# as their own (the file is imported under both)
from __future__ import annotations

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "gpu"))


import triton  # noqa: E402  (under `python -m mytriton.run` this is mytriton)
import triton.language as tl  # noqa: E402


def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


def softmax_kernel(x, out, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + row * n + offs, mask=mask, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out + row * n + offs, e / tl.sum(e, axis=0), mask=mask)


def row_sum_kernel(x, out, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + row * n + offs, mask=offs < n, other=0.0)
    tl.store(out + row, tl.sum(v, axis=0))


FNS = (add_kernel, softmax_kernel, row_sum_kernel)


def kernels(jit):
    return tuple(jit(f) for f in FNS)


def cases(torch, device):
    n = 1 << 24
    rows, cols = 4096, 1024
    x, y = torch.randn(n, device=device), torch.randn(n, device=device)
    m = torch.randn(rows, cols, device=device)
    return [
        ("vector add (16M fp32)", 0, (x, y, torch.empty_like(x), n),
         (triton_cdiv(n, 1024),), {"BLOCK": 1024, "num_warps": 4}, 3 * 4 * n),
        ("softmax (4096x1024 fp32)", 1, (m, torch.empty_like(m), cols), (rows,),
         {"BLOCK": 1024, "num_warps": 4}, 2 * 4 * rows * cols),
        ("row sum (4096x1024 fp32)", 2, (m, torch.empty(rows, device=device), cols), (rows,),
         {"BLOCK": 1024, "num_warps": 4}, 4 * rows * cols),
    ]


def triton_cdiv(a, b):
    return (a + b - 1) // b


def compile_only():
    """Cold MLIR lowering (mlir-opt, mlir-translate, llc as processes) of
    each benchmark kernel, a fresh cache each time."""
    import mytriton
    from mytriton import _C
    ks = kernels(mytriton.jit)
    sigs = ["*fp32:16,*fp32:16,*fp32:16,i32:16,1024", "*fp32:16,*fp32:16,i32:16,1024",
            "*fp32:16,*fp32:16,i32:16,1024"]
    for k, sig in zip(ks, sigs):
        times = []
        fill = os.environ.get("MYTRITON_CACHE_DIR")
        for trial in range(4):
            with tempfile.TemporaryDirectory() as d:
                # the last trial lowers into the caller's cache (make mlir-ptx-cache)
                os.environ["MYTRITON_CACHE_DIR"] = fill if trial == 3 and fill else d
                src, fn = k._source()
                t0 = time.perf_counter()
                # a file name per trial: a new in-memory kernel, the same module
                kern = _C.compile(src, f"{fn}#{trial}", k.fn.__name__, sig, k._globals(), 4,
                                  "mlir", True)
                kern.stage("ptx")
                times.append(time.perf_counter() - t0)
        if fill:
            os.environ["MYTRITON_CACHE_DIR"] = fill
        print(f"{k.fn.__name__}: cold MLIR compile to PTX {min(times[:3]) * 1e3:.0f} ms "
              f"(best of 3; front end + mlir-opt + mlir-translate + llc)")


def gpu():
    import torch
    from triton.testing import do_bench
    import mytriton
    mine, theirs = kernels(mytriton.jit), kernels(triton.jit)
    cache = os.environ.get("MYTRITON_CACHE_DIR")
    if not cache:
        sys.exit("set MYTRITON_CACHE_DIR to the cache `make mlir-ptx-cache` filled")
    torch.zeros(1, device="cuda").sum().item()  # the CUDA context, outside any timing
    print("| kernel | mytriton cuda | mytriton mlir | Triton | cold compile cuda / mlir / Triton |")
    print("|---|---|---|---|---|")
    for name, i, args, grid, meta, nbytes in cases(torch, "cuda"):
        row = []
        colds = []
        for impl in ("cuda", "mlir", "triton"):
            kern = theirs[i] if impl == "triton" else mine[i]
            if impl != "triton":
                os.environ["MYTRITON_BACKEND"] = impl
                kern.cache.clear()
            with tempfile.TemporaryDirectory() as d:
                if impl == "triton":
                    os.environ["TRITON_CACHE_DIR"] = d
                else:  # NVRTC cold; MLIR: the PTX cache filled elsewhere
                    os.environ["MYTRITON_CACHE_DIR"] = d if impl == "cuda" else cache
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                kern[grid](*args, **meta)
                torch.cuda.synchronize()
                colds.append(time.perf_counter() - t0)
                ms = do_bench(lambda: kern[grid](*args, **meta))
            row.append(f"{ms * 1e3:.1f} us ({nbytes / ms / 1e6:.0f} GB/s)")
            os.environ.pop("MYTRITON_BACKEND", None)
        cold = " / ".join(f"{c * 1e3:.0f} ms" for c in colds)
        print(f"| {name} | {row[0]} | {row[1]} | {row[2]} | {cold} |")
    print("(mlir cold = cache hit of the PTX lowered elsewhere + the driver's PTX JIT; "
          "the lowering itself: --compile-only)")


if __name__ == "__main__":
    compile_only() if "--compile-only" in sys.argv else gpu()
