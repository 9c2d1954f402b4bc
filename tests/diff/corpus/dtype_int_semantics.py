"""Integer semantics of every width and signedness (issue 8), where Triton
follows LLVM rather than Python: // and % truncate toward zero (-7 // 2 is
-3, -7 % 2 is -1), unsigned division and comparison see the bit pattern as
unsigned, + - * wrap, >> is arithmetic for signed and logical for unsigned,
<< drops the bits shifted out.  An int32 block compared with a uint32 block
compares unsigned (promotion to uint32), as does a uint32 block with a
literal.  No division by zero, no INT_MIN // -1, no shift by the width or
more: those are undefined in Triton."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}

BLOCK = 64
DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64,
          torch.uint8, torch.uint16, torch.uint32, torch.uint64]
SIGNED = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


@triton.jit
def arith(a_ptr, b_ptr, s_ptr, add, sub, mul, fdiv, mod, shr, shl, lt, ge_lit,
          BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    s = tl.load(s_ptr + offs)
    tl.store(add + offs, a + b)
    tl.store(sub + offs, a - b)
    tl.store(mul + offs, a * b)
    tl.store(fdiv + offs, a // b)
    tl.store(mod + offs, a % b)
    tl.store(shr + offs, a >> s)
    tl.store(shl + offs, a << s)
    tl.store(lt + offs, a < b)
    tl.store(ge_lit + offs, a >= 100)


@triton.jit
def mixed_compare(a_ptr, u_ptr, lt, gt_lit, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs)
    u = tl.load(u_ptr + offs)
    c = a < u
    tl.static_assert(c.dtype == tl.int1)
    tl.store(lt + offs, c)
    tl.store(gt_lit + offs, u > 3000000000)


def wrap(values, dtype):
    bits = 8 * torch.empty(0, dtype=dtype).element_size()
    v = [x % (1 << bits) for x in values]
    v = [x - (1 << bits) if x >= 1 << (bits - 1) else x for x in v]
    return torch.from_numpy(np.array(v, dtype=SIGNED[bits // 8])).view(dtype)


def operands(dtype):
    """a: the extremes, -1, small values of both signs and a spread of bit
    patterns; b: never zero, never -1 beside a's minimum; s: 0 .. width-1."""
    bits = 8 * torch.empty(0, dtype=dtype).element_size()
    signed = dtype in DTYPES[:4]
    lo, hi = (-(1 << bits - 1), (1 << bits - 1) - 1) if signed else (0, (1 << bits) - 1)
    a = [lo, hi, -1, 0, 1, -7, 7, -8, 100, 99, lo + 1, hi - 1]
    a += [lo + k * 0x9E3779B97F4A7C15 for k in range(BLOCK - len(a))]
    b = [2, 2, 3, -2, -3, 2, -2, 3, hi, -7, 7, 5]
    b += [k * 0x6C8E9CF570932BD5 + 3 for k in range(BLOCK - len(b))]
    b = [x if x % (1 << bits) else 3 for x in b]
    s = [k % bits for k in range(BLOCK)]
    return wrap(a, dtype), wrap(b, dtype), wrap(s, dtype)


def run(device):
    out = {}
    names = ["add", "sub", "mul", "fdiv", "mod", "shr", "shl", "lt", "ge_lit"]
    for dtype in DTYPES:
        a, b, s = (t.to(device) for t in operands(dtype))
        res = {k: torch.zeros(BLOCK, dtype=torch.bool if k in ("lt", "ge_lit") else dtype,
                              device=device) for k in names}
        arith[(1,)](a, b, s, *res.values(), BLOCK=BLOCK)
        out.update({str(dtype).replace("torch.", "") + "_" + k: v for k, v in res.items()})
    a = wrap([-1, 0, 1, -(1 << 31), (1 << 31) - 1, 5, -5] * 9 + [7], torch.int32)
    u = wrap([5, 5, 0xFFFFFFFF, 0x80000000, 0x80000000, 3000000001, 2999999999] * 9 + [7],
             torch.uint32)
    lt = torch.zeros(BLOCK, dtype=torch.bool, device=device)
    gt = torch.zeros(BLOCK, dtype=torch.bool, device=device)
    mixed_compare[(1,)](a.to(device), u.to(device), lt, gt, BLOCK=BLOCK)
    out["i32_lt_u32"] = lt
    out["u32_gt_literal"] = gt
    return out
