"""Triton's implicit promotion (issue 8): block op block for mixed pairs,
block op Python literal (a literal of a lower or equal kind takes the block's
type: 2**40 with an fp16 block is fp16 inf; 0.1 with an fp16 block is
fp16(0.1)), block op runtime scalar parameter (these always take part: an
int8 block plus an int64 parameter is int64), for + - * / // % < ==.
Each result goes into an output whose dtype is Triton's rule, picked here by
hand, and `put` asserts in the kernel that the result has exactly that
dtype, so a wrong promotion is a compile error, not a silent cast on store.
Mixed signed and unsigned ints have no /, // or % (Triton refuses), nor do
floats have //."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}

BLOCK = 64
f16, bf16, f32, f64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
i8, i16, i32, i64 = torch.int8, torch.int16, torch.int32, torch.int64
u8, u16, u32, u64 = torch.uint8, torch.uint16, torch.uint32, torch.uint64
SIGNED = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}

# (a, b, type of + - *, type of /, type of // and %; None where refused)
PAIRS = [
    (i8, i16, i16, f32, i16),
    (i32, u32, u32, None, None),
    (i64, u8, i64, None, None),
    (u8, i8, u8, None, None),
    (u16, u32, u32, f32, u32),
    (u64, i32, u64, None, None),
    (i8, i64, i64, f32, i64),
    (f16, bf16, f16, f32, f32),
    (f16, f32, f32, f32, f32),
    (f16, f16, f16, f32, f32),
    (bf16, bf16, bf16, f32, f32),
    (bf16, i32, f32, f32, f32),
    (f16, i64, f16, f32, f32),
    (f64, f16, f64, f64, f64),
    (i8, f32, f32, f32, f32),
    (u8, f64, f64, f64, f64),
]


@triton.jit
def put(p, offs, z):
    tl.static_assert(z.dtype == p.dtype.element_ty)
    tl.store(p + offs, z)


@triton.jit
def block_block(a_ptr, b_ptr, add, sub, mul, div, cmp_lt, cmp_eq, fdiv, mod,
                DIV: tl.constexpr, INT_DIV: tl.constexpr, MOD: tl.constexpr,
                BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    put(add, offs, a + b)
    put(sub, offs, a - b)
    put(mul, offs, a * b)
    if DIV:
        put(div, offs, a / b)
    put(cmp_lt, offs, a < b)
    put(cmp_eq, offs, a == b)
    if INT_DIV:
        put(fdiv, offs, a // b)
    if MOD:
        put(mod, offs, a % b)


@triton.jit
def literals(x64_ptr, h_ptr, x8_ptr, u8_ptr, f_ptr, b_ptr,
             i64_add, i64_rsub, i64_mul, i64_fdiv, i64_mod, i64_div, i64_lt,
             h_add, h_mul, h_big, h_div, h_mod, h_gt, h_iadd,
             i8_mul, i8_fadd, u8_add, u8_fdiv, u8_gt, u32_gt,
             f_big, f_mul, b_mul, b_add, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x64 = tl.load(x64_ptr + offs)
    put(i64_add, offs, x64 + 2**40)
    put(i64_rsub, offs, 2**40 - x64)
    put(i64_mul, offs, x64 * 3)
    put(i64_fdiv, offs, x64 // 7)
    put(i64_mod, offs, x64 % -7)
    put(i64_div, offs, x64 / 2)
    put(i64_lt, offs, x64 < 2**40)
    h = tl.load(h_ptr + offs)
    put(h_add, offs, h + 3)
    put(h_mul, offs, h * 0.1)
    put(h_big, offs, h + 2**40)
    put(h_div, offs, h / 3)
    put(h_mod, offs, h % 1.5)
    put(h_gt, offs, h > 0.3)
    put(h_iadd, offs, 7 + h)
    x8 = tl.load(x8_ptr + offs)
    put(i8_mul, offs, x8 * 3)
    put(i8_fadd, offs, x8 + 1.5)
    u = tl.load(u8_ptr + offs)
    put(u8_add, offs, u + 200)
    put(u8_fdiv, offs, u // 7)
    put(u8_gt, offs, u > 100)
    put(u32_gt, offs, u.to(tl.uint32) > 3000000000)
    f = tl.load(f_ptr + offs)
    put(f_big, offs, f + 2**40)
    put(f_mul, offs, f * 0.1)
    b = tl.load(b_ptr + offs)
    put(b_mul, offs, b * 0.1)
    put(b_add, offs, b + 1)


@triton.jit
def scalars(x8_ptr, x32_ptr, h_ptr, k: tl.int64, big, f, d: tl.float64,
            i8_k, i32_big, i32_fdiv_big, i32_lt_big, h_f, h_d, i8_f, h_k, x32_d,
            BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x8 = tl.load(x8_ptr + offs)
    x32 = tl.load(x32_ptr + offs)
    h = tl.load(h_ptr + offs)
    put(i8_k, offs, x8 + k)
    put(i32_big, offs, x32 * big)
    put(i32_fdiv_big, offs, big // x32)
    put(i32_lt_big, offs, x32 < big)
    put(h_f, offs, h * f)
    put(h_d, offs, h + d)
    put(i8_f, offs, x8 - f)
    put(h_k, offs, h * k)
    put(x32_d, offs, x32 / d)


def ints(dtype, lo, step, nonzero=False):
    """BLOCK values lo, lo + step, ... wrapped to dtype's width."""
    size = torch.empty(0, dtype=dtype).element_size()
    v = [(lo + step * k) for k in range(BLOCK)]
    if nonzero:
        v = [x if x % (1 << 8 * size) else 1 for x in v]
    v = [x % (1 << 8 * size) for x in v]
    v = [x - (1 << 8 * size) if x >= 1 << (8 * size - 1) else x for x in v]
    return torch.from_numpy(np.array(v, dtype=SIGNED[size])).view(dtype)


def floats(dtype, lo, step):
    """BLOCK exact multiples of step from lo (fp32 values whose bits are cut
    to bf16: no rounding left to any library)."""
    v = (lo + step * np.arange(BLOCK)).astype(np.float32)
    if dtype == torch.bfloat16:
        return torch.from_numpy((v.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)).view(dtype)
    return torch.from_numpy(v).to(dtype)


def operand(dtype, second):
    if dtype.is_floating_point:
        # quarter steps both sides of zero, never zero as a divisor
        return floats(dtype, -7.875, 0.3125) if second else floats(dtype, -9.25, 0.28125)
    signed = dtype in (i8, i16, i32, i64)
    if second:
        return ints(dtype, -13 if signed else 3, 7 if signed else 11, nonzero=True)
    return ints(dtype, -(1 << 8 * dtype.itemsize - 1) if signed else 0, 0x9E3779B97F4A7C15)


def name(dtype):
    return str(dtype).replace("torch.", "")


def run(device):
    out = {}
    for a_t, b_t, arith, div, divmod_t in PAIRS:
        a, b = operand(a_t, False).to(device), operand(b_t, True).to(device)
        ty = {"add": arith, "sub": arith, "mul": arith, "div": div or f32,
              "cmp_lt": torch.bool, "cmp_eq": torch.bool,
              "fdiv": divmod_t or i32, "mod": divmod_t or i32}
        res = {k: torch.zeros(BLOCK, dtype=t, device=device) for k, t in ty.items()}
        int_div = divmod_t is not None and not divmod_t.is_floating_point
        block_block[(1,)](a, b, *res.values(), DIV=div is not None, INT_DIV=int_div, MOD=divmod_t is not None,
                          BLOCK=BLOCK)
        if div is None:
            del res["div"]
        if not int_div:
            del res["fdiv"]
        if divmod_t is None:
            del res["mod"]
        out.update({f"{name(a_t)}_{name(b_t)}_{k}": v for k, v in res.items()})

    ty = dict(i64_add=i64, i64_rsub=i64, i64_mul=i64, i64_fdiv=i64, i64_mod=i64, i64_div=f32,
              i64_lt=torch.bool, h_add=f16, h_mul=f16, h_big=f16, h_div=f32, h_mod=f32,
              h_gt=torch.bool, h_iadd=f16, i8_mul=i8, i8_fadd=f32, u8_add=u8, u8_fdiv=u8,
              u8_gt=torch.bool, u32_gt=torch.bool, f_big=f32, f_mul=f32, b_mul=bf16, b_add=bf16)
    res = {k: torch.zeros(BLOCK, dtype=t, device=device) for k, t in ty.items()}
    x64 = ints(i64, -(1 << 41), 0x123456789AB).to(device)
    h = floats(f16, -6.0, 0.1875).to(device)
    x8 = ints(i8, -128, 5).to(device)
    u = ints(u8, 0, 37).to(device)
    f = floats(f32, -1000.5, 33.25).to(device)
    bb = floats(bf16, -3.0, 0.09375).to(device)
    literals[(1,)](x64, h, x8, u, f, bb, *res.values(), BLOCK=BLOCK)
    out.update({"literal_" + k: v for k, v in res.items()})

    ty = dict(i8_k=i64, i32_big=i64, i32_fdiv_big=i64, i32_lt_big=torch.bool, h_f=f32,
              h_d=f64, i8_f=f32, h_k=f16, x32_d=f64)
    res = {k: torch.zeros(BLOCK, dtype=t, device=device) for k, t in ty.items()}
    x32 = ints(i32, -(1 << 31), 0x9E3779B9, nonzero=True).to(device)
    # k: a small Python int made int64 by annotation, big: one that needs
    # 64 bits (i64 by itself),
    # f: a Python float (fp32), d: an fp64 parameter by annotation
    scalars[(1,)](x8, x32, h, 37, 2**40 + 3, 0.1, 1.0 / 3.0, *res.values(), BLOCK=BLOCK)
    out.update({"scalar_" + k: v for k, v in res.items()})
    return out


# Triton's fp32 `/` is PTX div.full.f32 (within 2 ulp, not correctly
# rounded); mytriton's is correctly rounded, so its f32 quotients agree to
# 2 ulp.  f64 division is correctly rounded in both.
TOLERANCE_FOR = {f"{name(a)}_{name(b)}_div": {"ulp": 2}
                 for a, b, _, div, _ in PAIRS if div is f32}
TOLERANCE_FOR.update({"literal_i64_div": {"ulp": 2}, "literal_h_div": {"ulp": 2}})
