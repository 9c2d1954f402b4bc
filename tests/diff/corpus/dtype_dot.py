"""tl.dot on the narrow types (issue 8): fp16 and bf16 accumulate in fp32,
int8 in int32 (given as out_dtype=tl.int32, and as Triton's default),
fp16 with out_dtype=tl.float16 accumulates in fp16, and fp8 e5m2 in fp32;
tiles 16x16x16 and 32x32x32, a tl.dot(a, b, acc, out_dtype=...) accumulator
added to (out_dtype must match acc: int8 with an int32 acc needs it).
The "exact" inputs are small multiples of 1/4 whose every partial sum is
exact, so the order of accumulation cannot show; the "frac" inputs have
full mantissas and are compared to a relative tolerance, since Triton's
tensor cores sum in an order of their own."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}
TOLERANCE_FOR = {"f16_frac_32": {"rtol": 1e-3, "atol": 1e-3},
                 "bf16_frac_32": {"rtol": 1e-2, "atol": 1e-2}}


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               OUT: tl.constexpr, ACC: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    if ACC:
        acc = tl.full((M, N), 3, dtype=c_ptr.dtype.element_ty)
        c = tl.dot(a, b, acc, out_dtype=c_ptr.dtype.element_ty)
    elif OUT == "i32":
        c = tl.dot(a, b, out_dtype=tl.int32)
    elif OUT == "f16":
        c = tl.dot(a, b, out_dtype=tl.float16)
    else:
        c = tl.dot(a, b)
    tl.static_assert(c.dtype == c_ptr.dtype.element_ty)
    tl.store(c_ptr + m[:, None] * N + n[None, :], c)


def operand(dtype, rows, cols, seed, frac):
    k = np.arange(rows * cols).reshape(rows, cols)
    if dtype == torch.int8:
        return torch.from_numpy((((k * (7 + seed)) % 255) - 127).astype(np.int8))
    if frac:
        v = np.sin(k * (1 + seed) * 0.731).astype(np.float32)  # NumPy's sin on the CPU only
    else:
        v = ((((k * (5 + seed)) % 9) - 4) * 0.25).astype(np.float32)
    if dtype == torch.bfloat16:
        return torch.from_numpy((v.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)).view(dtype)
    if dtype == torch.float8_e5m2:
        # -1 .. 1 in quarters are exact in e5m2: 0x3c is 1.0, 0x38 0.5, 0x34 0.25
        byte = np.array([0xBC, 0xBA, 0xB8, 0xB4, 0x00, 0x34, 0x38, 0x3A, 0x3C], dtype=np.uint8)
        return torch.from_numpy(byte[(k * (5 + seed)) % 9].view(np.int8)).view(dtype)
    return torch.from_numpy(v).to(dtype)


CASES = [  # name, input dtype, result dtype, tile, OUT, ACC, frac
    ("f16_16", torch.float16, torch.float32, 16, "", False, False),
    ("f16_32", torch.float16, torch.float32, 32, "", False, False),
    ("bf16_16", torch.bfloat16, torch.float32, 16, "", False, False),
    ("bf16_32", torch.bfloat16, torch.float32, 32, "", False, False),
    # int8 needs K >= 32 (Triton refuses 16)
    ("i8_32_default", torch.int8, torch.int32, 32, "", False, False),
    ("i8_32_out", torch.int8, torch.int32, 32, "i32", False, False),
    ("f16_out_f16_16", torch.float16, torch.float16, 16, "f16", False, False),
    ("f16_out_f16_32", torch.float16, torch.float16, 32, "f16", False, False),
    ("f16_acc_32", torch.float16, torch.float32, 32, "", True, False),
    ("i8_acc_32", torch.int8, torch.int32, 32, "", True, False),
    ("f8e5_32", torch.float8_e5m2, torch.float32, 32, "", False, False),
    ("f16_frac_32", torch.float16, torch.float32, 32, "", False, True),
    ("bf16_frac_32", torch.bfloat16, torch.float32, 32, "", False, True),
]


def run(device):
    out = {}
    for name, dtype, res_t, t, out_t, acc, frac in CASES:
        a = operand(dtype, t, t, 0, frac).to(device)
        b = operand(dtype, t, t, 1, frac).to(device)
        c = torch.zeros(t, t, dtype=res_t, device=device)
        dot_kernel[(1,)](a, b, c, M=t, N=t, K=t, OUT=out_t, ACC=acc)
        out[name] = c
    return out
