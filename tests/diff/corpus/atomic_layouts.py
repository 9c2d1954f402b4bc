"""Each element's atomic happens once whatever the layout: a block smaller
than the program's threads, a unit dimension, a row sum held as a slice of
its 2-D layout, a scalar per program; every copy sees the old values."""
import torch
import triton
import triton.language as tl


@triton.jit
def small_block_kernel(out, olds, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_add(out + offs, offs + 1)
    tl.store(olds + pid * BLOCK + offs, old)


@triton.jit
def unit_dim_kernel(out, C: tl.constexpr):
    cols = tl.arange(0, C)
    one = tl.arange(0, 1)
    tl.atomic_add(out + one[:, None] * 0 + cols[None, :], 1)


@triton.jit
def row_sum_kernel(x, out, olds, R: tl.constexpr, C: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    s = tl.sum(tl.load(x + rows[:, None] * C + cols[None, :]), axis=1)
    tl.store(olds + pid * R + rows, tl.atomic_add(out + rows, s))


def run(device):
    n = 64
    out = torch.zeros(16, dtype=torch.int32, device=device)
    olds = torch.zeros(n, 16, dtype=torch.int32, device=device)
    small_block_kernel[(n,)](out, olds, BLOCK=16, num_warps=4)
    unit = torch.zeros(16, dtype=torch.int32, device=device)
    unit_dim_kernel[(30,)](unit, C=16, num_warps=4)
    x = (torch.arange(8 * 32, dtype=torch.int32) % 7).reshape(8, 32).to(device)
    rs = torch.zeros(8, dtype=torch.int32, device=device)
    rolds = torch.zeros(n, 8, dtype=torch.int32, device=device)
    row_sum_kernel[(n,)](x, rs, rolds, R=8, C=32, num_warps=4)
    return {"small": out, "small_olds": olds.sort(dim=0).values, "unit": unit,
            "rows": rs, "row_olds": rolds.sort(dim=0).values}
