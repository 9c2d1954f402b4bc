"""Reductions over the narrow and wide types (issue 8): tl.sum of int8 and
int16 is int32, of uint8 uint32 (Triton widens sums of ints under 32 bits
first, so they do not wrap at 8 bits), of fp16/bf16/fp64 their own type;
tl.sum(x, dtype=tl.float32) sums fp16 in fp32; tl.max and tl.min widen
every type under 32 bits, to int32 (uint8 too) or fp32.  Each result's
dtype is asserted in the kernel.  The float inputs are quarter steps small
enough that every partial sum is exact in fp16 and fp32, so the order of
the reduction cannot change a bit; bf16 (8 significant bits) may round a
partial sum past 64, so its sums have a tolerance, as has the fp64 sum of
thirds, the one case inexact by design."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}
TOLERANCE_FOR = {"f64_third_sum": {"rtol": 1e-12, "atol": 0.0},
                 "bf16_sum": {"rtol": 2e-2, "atol": 0.0},
                 "bf16_row_sum": {"rtol": 2e-2, "atol": 0.0}}

ROWS, COLS = 4, 64


@triton.jit
def reduce_all(x_ptr, sum_ptr, max_ptr, min_ptr, row_sum_ptr, row_max_ptr,
               ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    x = tl.load(x_ptr + r[:, None] * COLS + c[None, :])
    s = tl.sum(tl.reshape(x, [ROWS * COLS]), axis=0)
    tl.static_assert(s.dtype == sum_ptr.dtype.element_ty)
    tl.store(sum_ptr, s)
    m = tl.max(tl.reshape(x, [ROWS * COLS]), axis=0)
    tl.static_assert(m.dtype == max_ptr.dtype.element_ty)
    tl.store(max_ptr, m)
    mn = tl.min(tl.reshape(x, [ROWS * COLS]), axis=0)
    tl.static_assert(mn.dtype == min_ptr.dtype.element_ty)
    tl.store(min_ptr, mn)
    rs = tl.sum(x, axis=1)
    tl.static_assert(rs.dtype == row_sum_ptr.dtype.element_ty)
    tl.store(row_sum_ptr + r, rs)
    rm = tl.max(x, axis=1)
    tl.static_assert(rm.dtype == row_max_ptr.dtype.element_ty)
    tl.store(row_max_ptr + r, rm)


@triton.jit
def sum_in_f32(x_ptr, out_ptr, row_ptr, ROWS: tl.constexpr, COLS: tl.constexpr):
    r = tl.arange(0, ROWS)
    c = tl.arange(0, COLS)
    x = tl.load(x_ptr + r[:, None] * COLS + c[None, :])
    s = tl.sum(tl.sum(x, axis=1, dtype=tl.float32), axis=0)
    tl.static_assert(s.dtype == tl.float32)
    tl.store(out_ptr, s)
    tl.store(row_ptr + r, tl.sum(x, axis=1, dtype=tl.float32))


@triton.jit
def sum_f64(x_ptr, out_ptr, N: tl.constexpr):
    tl.store(out_ptr, tl.sum(tl.load(x_ptr + tl.arange(0, N)), axis=0))


SIGNED = {1: np.int8, 2: np.int16}
CASES = [  # name, input dtype, sum dtype, max and min dtype
    ("i8", torch.int8, torch.int32, torch.int32), ("u8", torch.uint8, torch.uint32, torch.int32),
    ("i16", torch.int16, torch.int32, torch.int32),
    ("f16", torch.float16, torch.float16, torch.float32),
    ("bf16", torch.bfloat16, torch.bfloat16, torch.float32),
    ("f64", torch.float64, torch.float64, torch.float64),
]


def values(dtype):
    n = ROWS * COLS
    k = np.arange(n)
    if dtype == torch.uint8:
        return torch.from_numpy(((k * 97 + 200) % 256).astype(np.uint8))
    if dtype in (torch.int8, torch.int16):
        # all near the extremes: the sum overflows 8 and 16 bits
        v = np.where(k % 3 == 0, -100 - k % 20, 120 + k % 7) * (1 if dtype == torch.int8 else 250)
        return torch.from_numpy(v.astype(SIGNED[dtype.itemsize]))
    v = (((k * 37) % 17) - 8) * 0.25   # -2 .. 2 in quarters
    v = v.astype(np.float32)
    if dtype == torch.bfloat16:
        return torch.from_numpy((v.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)).view(dtype)
    return torch.from_numpy(v).to(dtype)


def run(device):
    out = {}
    for name, dtype, sum_t, max_t in CASES:
        x = values(dtype).to(device)
        s = torch.zeros(1, dtype=sum_t, device=device)
        mx = torch.zeros(1, dtype=max_t, device=device)
        mn = torch.zeros(1, dtype=max_t, device=device)
        rs = torch.zeros(ROWS, dtype=sum_t, device=device)
        rm = torch.zeros(ROWS, dtype=max_t, device=device)
        reduce_all[(1,)](x, s, mx, mn, rs, rm, ROWS=ROWS, COLS=COLS)
        out.update({f"{name}_sum": s, f"{name}_max": mx, f"{name}_min": mn,
                    f"{name}_row_sum": rs, f"{name}_row_max": rm})
    x = values(torch.float16).to(device)
    s = torch.zeros(1, dtype=torch.float32, device=device)
    rs = torch.zeros(ROWS, dtype=torch.float32, device=device)
    sum_in_f32[(1,)](x, s, rs, ROWS=ROWS, COLS=COLS)
    out.update({"f16_sum_f32": s, "f16_row_sum_f32": rs})
    x = torch.from_numpy(np.arange(1, 257, dtype=np.float64) / 3.0).to(device)
    s = torch.zeros(1, dtype=torch.float64, device=device)
    sum_f64[(1,)](x, s, N=256)
    out["f64_third_sum"] = s
    return out
