"""Runtime control flow: if/elif/else on a loaded scalar joining a block and
a number, an early return, a while loop on carried values, a conditional
expression on a runtime scalar."""
import torch
import triton
import triton.language as tl

BLOCK = 16


@triton.jit
def branches(x_ptr, out, n, limit, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * BLOCK + offs)
    s = tl.sum(x, axis=0)
    if s > 1.0:
        y = x * 2.0
        c = 1.0
    elif s < -1.0:
        y = x - 1.0
        c = 2.0
    else:
        y = x
        c = 3.0
    steps = 0
    v = tl.abs(s) + 0.5
    while v < limit:
        v = v * 1.5
        steps += 1
    k = 1.0 if steps > 4 else -1.0
    tl.store(out + pid * BLOCK + offs, y + c + k * steps)


def run(device):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(6, BLOCK, generator=g)
    x[1] = 0.01
    out = torch.full((8, BLOCK), -7.0)
    x, out = x.to(device), out.to(device)
    branches[(8,)](x, out, 6, 100.0, BLOCK=BLOCK)
    return {"out": out}
