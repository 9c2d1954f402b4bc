"""tl.program_id and tl.num_programs on every axis of a 3-D grid: each
program writes its coordinates and the grid's shape at its linear index."""
import torch
import triton
import triton.language as tl


@triton.jit
def coords_kernel(out):
    p0 = tl.program_id(0)
    p1 = tl.program_id(axis=1)
    p2 = tl.program_id(2)
    n0 = tl.num_programs(0)
    n1 = tl.num_programs(1)
    n2 = tl.num_programs(axis=2)
    linear = (p2 * n1 + p1) * n0 + p0
    base = out + linear * 6
    tl.store(base + 0, p0)
    tl.store(base + 1, p1)
    tl.store(base + 2, p2)
    tl.store(base + 3, n0)
    tl.store(base + 4, n1)
    tl.store(base + 5, n2)


@triton.jit
def fill_2d_kernel(out, stride, BLOCK: tl.constexpr):
    # a 2-D grid of 1-D blocks: row = axis 1, column block = axis 0
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    row = tl.program_id(1)
    tl.store(out + row * stride + cols, row * 100 + cols)


def run(device):
    out = torch.full((3 * 2 * 4 * 6,), -1, dtype=torch.int32, device=device)
    coords_kernel[(3, 2, 4)](out)
    grid2 = torch.zeros((5, 32), dtype=torch.int32, device=device)
    fill_2d_kernel[lambda meta: (32 // meta["BLOCK"], 5)](grid2, 32, BLOCK=8)
    return {"coords": out, "fill_2d": grid2}
