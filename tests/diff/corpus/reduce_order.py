"""The order of a reduction, bit for bit: float sums whose partial sums
round (random values over six decades), so every order but Triton's own
gives other bits.  Triton reduces a thread's elements from its first (a
block of -0.0 sums to -0.0), then lanes in a butterfly from the farthest
(xor 16, 8, ... 1), then the warps' partials by the same butterfly.
One row of 2048 over 8 warps (fp32 and fp16, whose partial sums round at
11 bits), rows and columns of a 16 x 128 block over 4 warps, max and min
(order-free, with -0.0 and 0.0 side by side), and sums of -0.0."""
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}


@triton.jit
def row_reduce(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + 0, tl.sum(x, axis=0))
    tl.store(out_ptr + 1, tl.max(x, axis=0))
    tl.store(out_ptr + 2, tl.min(x, axis=0))
    tl.store(out_ptr + 3, tl.sum(x * 0.0 - 0.0 * (x * 0.0 + 1.0), axis=0))


@triton.jit
def block_reduce(x_ptr, rows_ptr, cols_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    x = tl.load(x_ptr + r[:, None] * COLS + c[None, :])
    tl.store(rows_ptr + r, tl.sum(x, axis=1))
    tl.store(cols_ptr + c, tl.sum(x, axis=0))


def values(n, seed, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    mag = 10.0 ** (torch.rand(n, generator=g) * 6 - 3)
    return (torch.randn(n, generator=g) * mag).to(dtype)


def run(device):
    res = {}
    for name, dtype, seed in (("f32", torch.float32, 1), ("f16", torch.float16, 2)):
        x = values(2048, seed, dtype)
        if dtype == torch.float16:
            x = (x.float() * 1e-2).half()  # keep fp16 partial sums finite
        x = x.to(device)
        out = torch.zeros(4, dtype=dtype, device=device)
        row_reduce[(1,)](x, out, BLOCK=2048, num_warps=8)
        res[f"row_{name}"] = out
    z = torch.zeros(2048, device=device)
    out = torch.zeros(4, device=device)
    row_reduce[(1,)](-z, out, BLOCK=2048, num_warps=8)  # -0.0 everywhere
    res["row_neg_zero"] = out
    x = values(16 * 128, 3).to(device)
    rows = torch.zeros(16, device=device)
    cols = torch.zeros(128, device=device)
    block_reduce[(1,)](x, rows, cols, ROWS=16, COLS=128, num_warps=4)
    res["block_rows"] = rows
    res["block_cols"] = cols
    return res
