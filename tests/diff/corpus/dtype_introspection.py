"""Dtypes as values in kernels (issue 8): `if x.dtype == tl.float16:` on a
constexpr path, ptr.dtype.element_ty, dtype.is_floating(),
is_int_signed(), is_int_unsigned(), primitive_bitwidth, and
`accumulator.to(c_ptr.dtype.element_ty)` as Triton's matmul tutorial ends.
One kernel, launched on tensors of each dtype: what it learns about the
type it writes as numbers into an int32 `info` row."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}

BLOCK = 32
DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
          torch.uint32, torch.uint64, torch.float16, torch.bfloat16, torch.float32,
          torch.float64]


@triton.jit
def inspect(x_ptr, c_ptr, info, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.static_assert(x.dtype == x_ptr.dtype.element_ty)
    if x.dtype == tl.float16:
        y = x * 2
    elif x.dtype.is_floating():
        y = x + 1
    elif x.dtype.is_int_unsigned():
        y = x // 2
    else:
        y = x - 3
    accumulator = y.to(tl.float32)
    c = accumulator.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + offs, c)
    tl.store(info + 0, x.dtype.primitive_bitwidth)
    tl.store(info + 1, 1 if x.dtype.is_floating() else 0)
    tl.store(info + 2, 1 if x.dtype.is_int_signed() else 0)
    tl.store(info + 3, 1 if x.dtype.is_int_unsigned() else 0)
    tl.store(info + 4, 1 if x_ptr.dtype.element_ty == tl.bfloat16 else 0)
    tl.store(info + 5, 1 if c_ptr.dtype.element_ty != x.dtype else 0)
    tl.store(info + 6, 1 if x_ptr.dtype.is_ptr() else 0)
    tl.store(info + 7, 1 if x.dtype.is_fp64() else 0)


def run(device):
    out = {}
    k = np.arange(BLOCK)
    for dtype in DTYPES:
        name = str(dtype).replace("torch.", "")
        x = torch.from_numpy((k * 3 + 5).astype(np.float32)).to(dtype).to(device)
        # c has x's dtype for even positions in DTYPES, fp16 for odd ones
        c_type = dtype if DTYPES.index(dtype) % 2 == 0 else torch.float16
        c = torch.zeros(BLOCK, dtype=c_type, device=device)
        info = torch.zeros(8, dtype=torch.int32, device=device)
        inspect[(1,)](x, c, info, BLOCK=BLOCK)
        out[name + "_c"] = c
        out[name + "_info"] = info
    return out
