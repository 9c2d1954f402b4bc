"""Casts between every pair of dtypes (issue 8), on special values: +-0,
+-inf, NaN, denormals, the halfway cases of fp16, bf16 and fp8 rounding,
each type's extremes, and values out of range of the int targets (float ->
int is whatever Triton's conversion gives; NaN too).  x.to(T) for every
pair, tl.cast(x, T) for the sources fp32, int32 and fp16, the
fp_downcast_rounding modes "rtne" and "rtz" for fp32 -> fp16 and bf16, and
bitcasts between same-width types.  fp8 is in dtype_casts_fp8."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}

TYPES = {  # output name -> (torch dtype, Triton dtype)
    "i8": (torch.int8, tl.int8), "i16": (torch.int16, tl.int16),
    "i32": (torch.int32, tl.int32), "i64": (torch.int64, tl.int64),
    "u8": (torch.uint8, tl.uint8), "u16": (torch.uint16, tl.uint16),
    "u32": (torch.uint32, tl.uint32), "u64": (torch.uint64, tl.uint64),
    "f16": (torch.float16, tl.float16), "bf16": (torch.bfloat16, tl.bfloat16),
    "f32": (torch.float32, tl.float32), "f64": (torch.float64, tl.float64),
    "bool": (torch.bool, tl.int1),
}
INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool"]
SIGNED = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}
BLOCK = 128


@triton.jit
def to_every(x_ptr, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, b,
             n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(i8 + offs, x.to(tl.int8), mask=mask)
    tl.store(i16 + offs, x.to(tl.int16), mask=mask)
    tl.store(i32 + offs, x.to(tl.int32), mask=mask)
    tl.store(i64 + offs, x.to(tl.int64), mask=mask)
    tl.store(u8 + offs, x.to(tl.uint8), mask=mask)
    tl.store(u16 + offs, x.to(tl.uint16), mask=mask)
    tl.store(u32 + offs, x.to(tl.uint32), mask=mask)
    tl.store(u64 + offs, x.to(tl.uint64), mask=mask)
    tl.store(b + offs, x.to(tl.int1), mask=mask)
    tl.store(f16 + offs, x.to(tl.float16), mask=mask)
    tl.store(bf16 + offs, x.to(tl.bfloat16), mask=mask)
    tl.store(f32 + offs, x.to(tl.float32), mask=mask)
    tl.store(f64 + offs, x.to(tl.float64), mask=mask)


@triton.jit
def cast_fn(x_ptr, i8, u32, i64, f16, bf16, f64, b, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(i8 + offs, tl.cast(x, tl.int8), mask=mask)
    tl.store(u32 + offs, tl.cast(x, tl.uint32), mask=mask)
    tl.store(i64 + offs, tl.cast(x, tl.int64), mask=mask)
    tl.store(f16 + offs, tl.cast(x, tl.float16), mask=mask)
    tl.store(bf16 + offs, tl.cast(x, tl.bfloat16), mask=mask)
    tl.store(f64 + offs, tl.cast(x, tl.float64), mask=mask)
    tl.store(b + offs, tl.cast(x, tl.int1), mask=mask)


@triton.jit
def rounding(x_ptr, h_rtne, h_rtz, b_rtne, b_rtz, h_cast_rtz, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(h_rtne + offs, x.to(tl.float16, fp_downcast_rounding="rtne"), mask=mask)
    tl.store(h_rtz + offs, x.to(tl.float16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(b_rtne + offs, x.to(tl.bfloat16, fp_downcast_rounding="rtne"), mask=mask)
    tl.store(b_rtz + offs, x.to(tl.bfloat16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(h_cast_rtz + offs, tl.cast(x, tl.float16, fp_downcast_rounding="rtz"), mask=mask)


@triton.jit
def bitcasts(h_ptr, b_ptr, f_ptr, d_ptr, h_i16, b_i16, f_u32, d_i64,
             i16_h, i16_b, u32_f, i64_d, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(h_ptr + offs)
    bb = tl.load(b_ptr + offs)
    f = tl.load(f_ptr + offs)
    d = tl.load(d_ptr + offs)
    tl.store(h_i16 + offs, h.to(tl.int16, bitcast=True))
    tl.store(b_i16 + offs, tl.cast(bb, tl.int16, bitcast=True))
    tl.store(f_u32 + offs, f.to(tl.uint32, bitcast=True))
    tl.store(d_i64 + offs, d.to(tl.int64, bitcast=True))
    # and back, from the ints: every bit must survive the round trip
    tl.store(i16_h + offs, h.to(tl.int16, bitcast=True).to(tl.float16, bitcast=True))
    tl.store(i16_b + offs, bb.to(tl.int16, bitcast=True).to(tl.bfloat16, bitcast=True))
    tl.store(u32_f + offs, f.to(tl.uint32, bitcast=True).to(tl.float32, bitcast=True))
    tl.store(i64_d + offs, d.to(tl.int64, bitcast=True).to(tl.float64, bitcast=True))


SPECIAL = [0.0, -0.0, float("inf"), -float("inf"), float("nan"), -float("nan"),
           1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 2.75, -0.75, 127.5, 128.0, -128.5, -129.0,
           255.0, 255.9, 256.0, 300.0, 32767.0, 32768.0, -32769.0, 65504.0, 65519.0,
           65520.0, 65536.0, 2.0**31 - 128, 2.0**31, -2.0**31, -2.0**31 - 256, 3e9, 2.0**32,
           2.0**63, -2.0**63, 1e19, 2.0**64, 1e20, -1e20, 3.4e38, 1e300,
           # denormals: f32's smallest and a few of f16's, bf16's, f64's
           2.0**-149, -2.0**-149, 2.0**-126, 2.0**-24, 2.0**-25, 3 * 2.0**-26, 2.0**-14,
           2.0**-133, 1e-40, 1e-310, -1e-310,
           # halfway cases: fp16 (11 bits), bf16 (8), fp8 e4m3 (4), e5m2 (3)
           1 + 2.0**-11, 1 + 3 * 2.0**-11, 1 + 2.0**-11 + 2.0**-20, -(1 + 3 * 2.0**-11),
           1 + 2.0**-8, 1 + 3 * 2.0**-8, 1 + 2.0**-8 + 2.0**-20, -(1 + 2.0**-8),
           1 + 2.0**-4, 1 + 3 * 2.0**-4, 1 + 2.0**-3, 1 + 3 * 2.0**-3,
           # fp8 extremes: e4m3 max 448, e5m2 max 57344, and past them;
           # fp8 denormals
           448.0, 464.0, 480.0, 500.0, 57344.0, 61440.0, 1e5, 2.0**-9, 2.0**-10, 2.0**-16,
           2.0**-17, 0.1, -0.1, 1 / 3]
INT_SPECIAL = [0, 1, -1, 2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, 65535,
               65536, 2**24 + 1, 2**24 + 3, 2**31 - 1, 2**31, -2**31, 2**32 - 1, 2**53 + 1,
               2**63 - 1, -2**63, 2**64 - 1, 65519, 65520, 2**11 + 1]


def source(name):
    """The special values in the source type, made exactly: f16, f32, f64
    by NumPy's correctly rounded conversion from f64, bf16 by cutting the
    f32 bits, ints wrapped to the width."""
    dtype = TYPES[name][0]
    if name == "bool":
        return torch.tensor([False, True, True, False])
    if name in INTS:
        bits = 8 * dtype.itemsize
        v = INT_SPECIAL + [k * 0x9E3779B97F4A7C15 for k in range(1, 40)]
        v = [x % (1 << bits) for x in v]
        v = [x - (1 << bits) if x >= 1 << (bits - 1) else x for x in v]
        return torch.from_numpy(np.array(v, dtype=SIGNED[bits // 8])).view(dtype)
    with np.errstate(over="ignore"):
        if name == "bf16":
            w = np.array(SPECIAL, dtype=np.float32).view(np.uint32) >> 16
            return torch.from_numpy(w.astype(np.uint16).view(np.int16)).view(dtype)
        return torch.from_numpy(np.array(SPECIAL, dtype={"f16": np.float16, "f32": np.float32,
                                                          "f64": np.float64}[name]))


def run(device):
    out = {}
    for src in TYPES:
        x = source(src).to(device)
        n = x.numel()
        res = {k: torch.zeros(BLOCK, dtype=t, device=device) for k, (t, _) in TYPES.items()}
        to_every[(1,)](x, *res.values(), n, BLOCK=BLOCK)
        out.update({f"{src}_to_{k}": v[:n] for k, v in res.items()})
    for src in ("f32", "i32", "f16"):
        x = source(src).to(device)
        n = x.numel()
        names = ["i8", "u32", "i64", "f16", "bf16", "f64", "bool"]
        res = {k: torch.zeros(BLOCK, dtype=TYPES[k][0], device=device) for k in names}
        cast_fn[(1,)](x, *res.values(), n, BLOCK=BLOCK)
        out.update({f"{src}_cast_{k}": v[:n] for k, v in res.items()})
    x = source("f32").to(device)
    n = x.numel()
    res = {k: torch.zeros(BLOCK, dtype=t, device=device) for k, t in
           (("f16_rtne", torch.float16), ("f16_rtz", torch.float16), ("bf16_rtne", torch.bfloat16),
            ("bf16_rtz", torch.bfloat16), ("f16_cast_rtz", torch.float16))}
    rounding[(1,)](x, *res.values(), n, BLOCK=BLOCK)
    out.update({"f32_" + k: v[:n] for k, v in res.items()})
    # bit patterns over the whole width, NaN payloads included
    k = np.arange(BLOCK, dtype=np.uint64)
    with np.errstate(over="ignore"):
        word = k * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x0123456789ABCDEF)
    ins = [torch.from_numpy((word >> np.uint64(64 - 8 * s)).astype(SIGNED[s])).view(t).to(device)
           for s, t in ((2, torch.float16), (2, torch.bfloat16), (4, torch.float32),
                        (8, torch.float64))]
    res = {k: torch.zeros(BLOCK, dtype=t, device=device) for k, t in
           (("f16_i16", torch.int16), ("bf16_i16", torch.int16), ("f32_u32", torch.uint32),
            ("f64_i64", torch.int64), ("i16_f16", torch.float16),
            ("i16_bf16", torch.bfloat16), ("u32_f32", torch.float32), ("i64_f64", torch.float64))}
    bitcasts[(1,)](*ins, *res.values(), BLOCK=BLOCK)
    out.update({"bitcast_" + k: v for k, v in res.items()})
    return out
