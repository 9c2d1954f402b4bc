"""tl.cumsum and tl.cumprod (issue 9): both axes of a 2-D block, forward and
reverse, a 1-D block longer than one layout tile, int8 widened to int32 by
cumsum (Triton's _pick_sum_dtype), and tl.xor_sum over rows.  Integer
inputs are exact; the float products are of values near 1 with a
tolerance for the order of the combines."""
import torch
import triton
import triton.language as tl

TOLERANCE = {"rtol": 1e-5, "atol": 1e-5}


@triton.jit
def scans_2d(x_ptr, cs0_ptr, cs1r_ptr, cp1_ptr, xor_ptr, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + r * N + c)
    tl.store(cs0_ptr + r * N + c, tl.cumsum(x, axis=0))
    tl.store(cs1r_ptr + r * N + c, tl.cumsum(x, axis=1, reverse=True))
    xf = 1.0 + x.to(tl.float32) / 256.0
    tl.store(cp1_ptr + r * N + c, tl.cumprod(xf, 1))
    tl.store(xor_ptr + tl.arange(0, M), tl.xor_sum(x, axis=1))


@triton.jit
def scan_long(x_ptr, out_ptr, rev_ptr, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(x_ptr + o)
    s = tl.cumsum(x)
    tl.static_assert(s.dtype == tl.int32)
    tl.store(out_ptr + o, s)
    tl.store(rev_ptr + o, tl.cumprod(x.to(tl.float32) / 64.0 + 1.0, 0, reverse=True))


def run(device):
    M, N = 16, 32
    g = torch.Generator().manual_seed(9)
    x = torch.randint(-50, 50, (M, N), generator=g, dtype=torch.int32)
    out = {"cumsum_axis0": torch.empty(M, N, dtype=torch.int32),
           "cumsum_axis1_reverse": torch.empty(M, N, dtype=torch.int32),
           "cumprod_axis1": torch.empty(M, N, dtype=torch.float32),
           "xor_sum_rows": torch.empty(M, dtype=torch.int32)}
    out = {k: v.to(device) for k, v in out.items()}
    scans_2d[(1,)](x.to(device), out["cumsum_axis0"], out["cumsum_axis1_reverse"],
                   out["cumprod_axis1"], out["xor_sum_rows"], M=M, N=N)
    L = 1024
    y = torch.randint(-3, 4, (L,), generator=g, dtype=torch.int8)
    out["cumsum_int8"] = torch.empty(L, dtype=torch.int32, device=device)
    out["cumprod_reverse"] = torch.empty(L, dtype=torch.float32, device=device)
    scan_long[(1,)](y.to(device), out["cumsum_int8"], out["cumprod_reverse"], N=L)
    return out
