"""Scalars from one-element blocks and bools in arithmetic: `x.item()` and
an `if` on a one-element block (Triton's _unsplat), a bool added to an
int in a while loop (test_while's `i + (j == k)`), tl.full filling a bool
block from an int tensor and from numbers and a float block from True, and
tl.sum of bools in the default dtype (int32) and in int1 (modulo 2), over
all axes and over one."""
import torch
import triton
import triton.language as tl


@triton.jit
def unsplat_promote(x_ptr, bound_ptr, cut_ptr, out, flags, sums, init):
    cond = tl.load(x_ptr + tl.arange(0, 1)) > 42
    v = tl.load(x_ptr + tl.arange(0, 1)).item()
    r = 0
    if cond:
        r = 1
    i = v
    j = 0
    while j < tl.load(bound_ptr):
        i = i + (j == tl.load(cut_ptr))
        j += 1
    a = tl.full((16,), init, dtype=tl.int1)
    b = tl.full((16,), 3, dtype=tl.int1)
    c = tl.full((16,), True, dtype=tl.float32)
    m = tl.arange(0, 16) < init
    tl.store(out + tl.arange(0, 4), tl.where(tl.arange(0, 4) == 0, r, tl.where(tl.arange(0, 4) == 1, i, tl.where(tl.arange(0, 4) == 2, j, v * 2))))
    tl.store(flags + tl.arange(0, 16), a.to(tl.int32) * 100 + b.to(tl.int32) * 10 + c.to(tl.int32))
    g = tl.reshape(m, (4, 4))
    tl.store(sums + 0, tl.sum(m))
    tl.store(sums + 1, tl.sum(m, dtype=tl.int1).to(tl.int32))
    tl.store(sums + 2 + tl.arange(0, 4), tl.sum(g, axis=1, dtype=tl.int1).to(tl.int32))
    tl.store(sums + 6 + tl.arange(0, 4), tl.sum(g, axis=0))


def run(device):
    res = {}
    for x0, init in ((41, 0), (43, 7), (50, 11)):
        x = torch.tensor([x0], dtype=torch.int32)
        bound = torch.tensor([10], dtype=torch.int32)
        cut = torch.tensor([5], dtype=torch.int32)
        out = torch.full((4,), -1, dtype=torch.int32)
        flags = torch.full((16,), -1, dtype=torch.int32)
        sums = torch.full((10,), -1, dtype=torch.int32)
        args = [t.to(device) for t in (x, bound, cut, out, flags, sums)]
        unsplat_promote[(1,)](*args, init)
        res[f"out_{x0}"] = args[3]
        res[f"flags_{x0}"] = args[4]
        res[f"sums_{x0}"] = args[5]
    return res
