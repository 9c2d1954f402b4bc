"""Host time per launch: mytriton vs Triton (when importable) vs torch.add.

Same kernel shape for every system: a masked vector add with 6 arguments
(3 tensors, 2 ints, 1 float scalar) and one constexpr.  With CUDA the
tensors live on the GPU and the numbers are host-side dispatch costs (the
loop is not synchronised per launch); on a CPU-only machine mytriton runs
its host backend on a tiny tensor, so the figure includes the (small)
kernel itself.

    PYTHONPATH=python python3 bench/launch_overhead.py [--iters N]
"""
import argparse
import time

import torch

import mytriton
import mytriton.language as mtl


@mytriton.jit
def mt_add(x, y, out, n, m, alpha, BLOCK: mtl.constexpr):
    offs = mtl.program_id(0) * BLOCK + mtl.arange(0, BLOCK)
    mask = offs < n
    a = mtl.load(x + offs, mask=mask, other=0.0)
    b = mtl.load(y + offs, mask=mask, other=0.0)
    mtl.store(out + offs, a + alpha * b, mask=mask & (offs < m))


def _triton_kernel():
    try:
        import triton
        import triton.language as tl
    except Exception:  # noqa: BLE001 - any import failure means "not available"
        return None

    @triton.jit
    def tr_add(x, y, out, n, m, alpha, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(x + offs, mask=mask, other=0.0)
        b = tl.load(y + offs, mask=mask, other=0.0)
        tl.store(out + offs, a + alpha * b, mask=mask & (offs < m))

    return tr_add


def per_call_us(fn, iters, sync, batch=200):
    """Median host time of one launch over batches of `batch` launches,
    synchronising (untimed) between batches: a batch never fills the GPU's
    launch queue, so the figure is the host's cost, not the rate at which
    the GPU retires tiny kernels."""
    for _ in range(min(1000, iters)):
        fn()
    sync()
    times = []
    for _ in range(max(1, iters // batch)):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        t1 = time.perf_counter()
        sync()
        times.append((t1 - t0) / batch * 1e6)
    times.sort()
    return times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--n", type=int, default=256)
    args = ap.parse_args()
    cuda = torch.cuda.is_available()
    device = "cuda" if cuda else "cpu"
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    n = args.n
    x, y, out = (torch.rand(n, device=device) for _ in range(3))
    block = 256
    grid = (mytriton.cdiv(n, block),)

    rows = []
    mt_add[grid](x, y, out, n, n, 0.5, BLOCK=block)
    sync()
    torch.testing.assert_close(out, x + 0.5 * y)
    rows.append(("mytriton kernel[grid](...)",
                 per_call_us(lambda: mt_add[grid](x, y, out, n, n, 0.5, BLOCK=block),
                             args.iters, sync)))
    tr = _triton_kernel() if cuda else None
    if tr is not None:
        tr[grid](x, y, out, n, n, 0.5, BLOCK=block)
        sync()
        rows.append(("triton kernel[grid](...)",
                     per_call_us(lambda: tr[grid](x, y, out, n, n, 0.5, BLOCK=block),
                                 args.iters, sync)))
    rows.append(("torch.add(x, y, alpha=0.5, out=out)",
                 per_call_us(lambda: torch.add(x, y, alpha=0.5, out=out), args.iters, sync)))

    print(f"launch overhead, {device}, n={n}, 6 args + 1 constexpr, {args.iters} launches")
    print(f"{'system':40s} {'us/launch':>10s} {'vs torch':>9s}")
    ref = rows[-1][1]
    for name, us in rows:
        print(f"{name:40s} {us:10.2f} {us / ref:8.2f}x")
    if tr is None and cuda:
        print("(triton not importable: skipped)")


if __name__ == "__main__":
    main()
