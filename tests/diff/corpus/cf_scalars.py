"""Builtins on runtime scalars: min, max (and tl.abs: Python's abs is not a
Triton builtin); and, or, not on bool scalars;
a tuple carried through a runtime loop; tl.debug_barrier ordering global
memory between threads."""
import torch
import triton
import triton.language as tl


@triton.jit
def scalars(out, a, b, c, n):
    tl.store(out, min(a, b))
    tl.store(out + 1, max(a, b, c))
    tl.store(out + 2, tl.abs(a - b))
    tl.store(out + 3, ((a > 0) and (b > 0)).to(tl.int32))
    tl.store(out + 4, ((a > 0) or (b > 0)).to(tl.int32))
    tl.store(out + 5, (not (a > b)).to(tl.int32))
    pair = (0, 1)
    for i in range(n):
        pair = (pair[1], pair[0] + pair[1])
    tl.store(out + 6, pair[0])


@triton.jit
def barrier(buf, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(buf + offs, offs * 3)
    tl.debug_barrier()
    tl.store(out + offs, tl.load(buf + BLOCK - 1 - offs))


def run(device):
    res = {}
    for k, (a, b, c) in enumerate([(7, -3, 5), (2, 9, 4), (-4, -8, -1)]):
        out = torch.zeros(7, dtype=torch.int32, device=device)
        scalars[(1,)](out, a, b, c, 20 + k)
        res[f"scalars{k}"] = out
    buf = torch.zeros(256, dtype=torch.int32, device=device)
    out = torch.zeros(256, dtype=torch.int32, device=device)
    barrier[(1,)](buf, out, BLOCK=256, num_warps=4)
    res["barrier"] = out
    return res
