"""Casts to and from fp8 (issue 8): every one of the 256 bit patterns of
e4m3 (torch.float8_e4m3fn, tl.float8e4nv: no inf, max 448) and e5m2 (max
57344) widened to fp16, bf16, fp32;
special values of fp16, bf16, fp32 narrowed to both fp8 types
(round to nearest even: halfway cases, denormals, overflow past the
largest finite value, inf, NaN); bitcasts to and from uint8 and int8.
Triton has no cast between fp8 and an integer type ("cannot cast"), and
its LLVM lowering fails on fp8 with fp64 and between the two fp8 types
(mytriton refuses those casts)."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}

BLOCK = 256
E4, E5 = torch.float8_e4m3fn, torch.float8_e5m2
SPECIAL = [0.0, -0.0, float("inf"), -float("inf"), float("nan"), 1.0, -1.0, 0.1, -0.1, 1 / 3,
           1.0625, 1.1875, 1.03125, -1.0625, 1.125, 1.375, 1.0625 + 2.0**-10, -1.125,
           240.0, 248.0, 256.0, 448.0, 464.0, 465.0, 480.0, 500.0, -500.0, 1e4,
           57344.0, 61440.0, 61441.0, 65504.0, -65504.0, 1e5, 1e30,
           2.0**-6, 2.0**-7, 2.0**-9, 3 * 2.0**-10, 2.0**-10, 2.0**-11, 2.0**-14, 2.0**-15,
           3 * 2.0**-17, 2.0**-16, 2.0**-17, 2.0**-18, 2.0**-24, -2.0**-9, 1e-30]


@triton.jit
def widen(x_ptr, f16, bf16, f32, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(f16 + offs, x.to(tl.float16))
    tl.store(bf16 + offs, x.to(tl.bfloat16))
    tl.store(f32 + offs, x.to(tl.float32))


@triton.jit
def narrow(x_ptr, e4, e5, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(e4 + offs, x.to(tl.float8e4nv), mask=mask)
    tl.store(e5 + offs, tl.cast(x, tl.float8e5), mask=mask)


@triton.jit
def bitcasts(x_ptr, u8, i8, back, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(u8 + offs, x.to(tl.uint8, bitcast=True))
    tl.store(i8 + offs, tl.cast(x, tl.int8, bitcast=True))
    tl.store(back + offs, x.to(tl.uint8, bitcast=True).to(tl.float8e5, bitcast=True))


def floats(dtype):
    """SPECIAL in dtype: NumPy's correctly rounded conversion from f64, bf16
    by cutting the fp32 bits."""
    with np.errstate(over="ignore"):
        if dtype == torch.bfloat16:
            w = np.array(SPECIAL, dtype=np.float32).view(np.uint32) >> 16
            return torch.from_numpy(w.astype(np.uint16).view(np.int16)).view(dtype)
        np_type = {torch.float16: np.float16, torch.float32: np.float32, torch.float64: np.float64}
        return torch.from_numpy(np.array(SPECIAL, dtype=np_type[dtype]))


def run(device):
    out = {}
    outs = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}
    for src, dtype in (("e4", E4), ("e5", E5)):
        x = torch.arange(-128, 128, dtype=torch.int8).view(dtype).to(device)
        res = {k: torch.zeros(BLOCK, dtype=t, device=device) for k, t in outs.items()}
        widen[(1,)](x, *res.values(), BLOCK=BLOCK)
        out.update({f"{src}_to_{k}": v for k, v in res.items()})
    for src in ("f16", "bf16", "f32"):
        x = floats(outs[src]).to(device)
        e4 = torch.zeros(64, dtype=E4, device=device)
        e5 = torch.zeros(64, dtype=E5, device=device)
        narrow[(1,)](x, e4, e5, x.numel(), BLOCK=64)
        out[f"{src}_to_e4"] = e4[:x.numel()]
        out[f"{src}_to_e5"] = e5[:x.numel()]
    x = torch.arange(-128, 128, dtype=torch.int8).view(E5).to(device)
    u8 = torch.zeros(BLOCK, dtype=torch.uint8, device=device)
    i8 = torch.zeros(BLOCK, dtype=torch.int8, device=device)
    back = torch.zeros(BLOCK, dtype=E5, device=device)
    bitcasts[(1,)](x, u8, i8, back, BLOCK=BLOCK)
    out.update({"bitcast_e5_u8": u8, "bitcast_e5_i8": i8, "bitcast_round_trip": back})
    return out
