"""Masked vector accesses whose mask is one value per group of 4 floats or
8 halves (perf9): `cols < n` with n a multiple of 16, so a group of the
row is either all in or all out, and a masked-off group's load gives
`other` and its store writes nothing; a 2-D mask `(rows < m) & (cols < n)`
too, and a ragged n (not a multiple of 16) beside them for the
per-element path.  Exact."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}


@triton.jit
def row_kernel(out, full, x, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x + row * stride + cols, mask=mask, other=-7.0)
    tl.store(full + row * BLOCK + cols, v)
    tl.store(out + row * stride + cols, v * 2.0, mask=mask)


@triton.jit
def tile_kernel(out, x, m, n, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    v = tl.load(x + offs, mask=mask, other=3.0)
    tl.store(out + offs, v + 1.0, mask=mask)


def run(device):
    out = {}
    for n in (48, 50):
        rows, block = 3, 128
        x = torch.tensor(np.arange(rows * n, dtype=np.float32) * 0.5 - 7.0).to(device)
        o = torch.full((rows * n + 32,), 99.0).to(device)
        full = torch.zeros(rows, block).to(device)
        row_kernel[(rows,)](o, full, x, n, n, BLOCK=block, num_warps=1)
        out[f"row{n}_out"] = o
        out[f"row{n}_full"] = full
    m, n = 40, 32
    x = torch.tensor(np.arange(m * n, dtype=np.float32) * 0.25 - 3.0).to(torch.float16).to(device)
    o = torch.full((m * n + 64,), -1.0, dtype=torch.float16).to(device)
    tile_kernel[(2,)](o, x, m, n, BM=32, BN=64)
    out["tile_f16"] = o
    return out
