"""Loads and stores of every dtype (issue 8): a masked copy whose masked-off
lanes take `other=` given as a Python literal (converted to the pointee type:
-3 becomes 253 in a uint8 tensor and 2**64-3 in a uint64 one, 2.5 becomes 2
in an int tensor), a store of an fp32 value into a pointer of every other
type (the store casts implicitly), and a comparison stored into bool and
int32 pointers.  Inputs are bit patterns, NaNs with payloads included: a
copy must keep every bit."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}

N = 100
BLOCK = 128
DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
          torch.uint32, torch.uint64, torch.float16, torch.bfloat16, torch.float32,
          torch.float64, torch.float8_e4m3fn, torch.float8_e5m2, torch.bool]
FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)
SIGNED = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


@triton.jit
def copy(x_ptr, y_int, y_float, n, INT_OTHER: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if INT_OTHER:
        tl.store(y_int + offs, tl.load(x_ptr + offs, mask=offs < n, other=-3))
    tl.store(y_float + offs, tl.load(x_ptr + offs, mask=offs < n, other=2.5))


@triton.jit
def store_f32(x_ptr, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, e4, e5,
              b, b_i32, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs) * 1.25
    tl.store(i8 + offs, x)
    tl.store(i16 + offs, x)
    tl.store(i32 + offs, x)
    tl.store(i64 + offs, x)
    tl.store(u8 + offs, x)
    tl.store(u16 + offs, x)
    tl.store(u32 + offs, x)
    tl.store(u64 + offs, x)
    tl.store(f16 + offs, x)
    tl.store(bf16 + offs, x)
    tl.store(f32 + offs, x)
    tl.store(f64 + offs, x)
    tl.store(e4 + offs, x)
    tl.store(e5 + offs, x)
    tl.store(b + offs, x > 50.0)
    tl.store(b_i32 + offs, x > 50.0)


def patterns(dtype, n):
    """n bit patterns spread over the whole width of dtype (a Weyl sequence)."""
    if dtype == torch.bool:
        return torch.from_numpy(np.arange(n) % 3 == 0)
    size = torch.empty(0, dtype=dtype).element_size()
    k = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        word = k * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x0123456789ABCDEF)
    word = (word >> np.uint64(64 - 8 * size)).astype(SIGNED[size])
    return torch.from_numpy(word).view(dtype)


def name(dtype):
    return str(dtype).replace("torch.", "")


def run(device):
    out = {}
    for dtype in DTYPES:
        x = patterns(dtype, N).to(device)
        y_int = torch.zeros(BLOCK, dtype=dtype, device=device)
        y_float = torch.zeros(BLOCK, dtype=dtype, device=device)
        # Triton has no int -> fp8 cast ("cannot cast"): no int other= for fp8
        int_other = dtype not in FP8
        copy[(1,)](x, y_int, y_float, N, INT_OTHER=int_other, BLOCK=BLOCK)
        if int_other:
            out[name(dtype) + "_int_other"] = y_int
        out[name(dtype) + "_float_other"] = y_float
    # fp32 values 0, 0.75, ..., * 1.25 in range of every target, with
    # fractions that float -> int stores truncate and fp8 stores round
    x = torch.from_numpy(np.arange(BLOCK, dtype=np.float32) * 0.75).to(device)
    res = {name(t): torch.zeros(BLOCK, dtype=t, device=device) for t in DTYPES if t != torch.bool}
    res["compare_bool"] = torch.zeros(BLOCK, dtype=torch.bool, device=device)
    res["compare_int32"] = torch.zeros(BLOCK, dtype=torch.int32, device=device)
    store_f32[(1,)](x, *res.values(), BLOCK=BLOCK)
    out.update({"store_f32_" + k: v for k, v in res.items()})
    return out
