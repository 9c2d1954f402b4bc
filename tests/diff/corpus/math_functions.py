"""Triton's math set on fp32 and fp64 (issue 9): exp2 log2 rsqrt erf floor
ceil sqrt_rn div_rn fdiv fma sigmoid, and umulhi on int32 and int64.  The
transcendental results are compared within 2 ulp (the GPU's exp2, log2 and
rsqrt are approximate; libm and NumPy round their own way), the
correctly rounded ones (floor ceil sqrt_rn div_rn fdiv) and umulhi bit for
bit, fma within 1 ulp (Triton's interpreter rounds the product and the sum
separately, the GPU and mytriton once)."""
import numpy as np
import torch
import triton
import triton.language as tl

BLOCK = 64
TOLERANCE = {"ulp": 0}
TOLERANCE_FOR = {f"{t}_{op}": {"ulp": 2} for t in ("f32", "f64")
                 for op in ("exp2", "log2", "rsqrt", "erf", "sigmoid")}
TOLERANCE_FOR.update({"f32_fma": {"ulp": 1}, "f64_fma": {"ulp": 1},
                      # Triton's fdiv (ieee_rounding=False) is div.full.f32: 2 ulp
                      "f32_fdiv": {"ulp": 2},
                      # Triton's exp is ex2.approx of x * log2(e); ours is expf
                      "f32_sigmoid": {"ulp": 4}})


@triton.jit
def float_ops(x_ptr, p_ptr, y_ptr, exp2, log2, rsqrt, erf, floor, ceil, sqrt_rn, div_rn,
              fdiv, fma, sigmoid, BLOCK: tl.constexpr, PRECISE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    p = tl.load(p_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(exp2 + offs, tl.exp2(x))
    tl.store(log2 + offs, tl.log2(p))
    tl.store(rsqrt + offs, tl.rsqrt(p))
    tl.store(erf + offs, tl.erf(x))
    tl.store(floor + offs, tl.floor(x))
    tl.store(ceil + offs, tl.ceil(x))
    if PRECISE:
        tl.store(sqrt_rn + offs, tl.sqrt_rn(p))
        tl.store(div_rn + offs, tl.div_rn(x, y))
    tl.store(fdiv + offs, tl.fdiv(x, y, ieee_rounding=True))
    tl.store(fma + offs, tl.fma(x, y, p))
    tl.store(sigmoid + offs, tl.sigmoid(x))


@triton.jit
def umulhi_op(a_ptr, b_ptr, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.umulhi(tl.load(a_ptr + offs), tl.load(b_ptr + offs)))


def run(device):
    out = {}
    k = np.arange(BLOCK)
    x = (k - 32) * 0.171875            # -5.5 .. 5.3
    p = (k + 1) * 0.4375               # positive
    y = ((k * 29) % BLOCK - 31.5) * 0.25
    for name, dtype in (("f32", torch.float32), ("f64", torch.float64)):
        args = [torch.tensor(v, dtype=dtype).to(device) for v in (x, p, y)]
        ops = ["exp2", "log2", "rsqrt", "erf", "floor", "ceil", "sqrt_rn", "div_rn", "fdiv",
               "fma", "sigmoid"]
        res = {op: torch.zeros(BLOCK, dtype=dtype, device=device) for op in ops}
        float_ops[(1,)](*args, *res.values(), BLOCK=BLOCK, PRECISE=dtype == torch.float32)
        if dtype == torch.float64:  # sqrt_rn and div_rn take fp32 only
            del res["sqrt_rn"], res["div_rn"]
        out.update({f"{name}_{op}": v for op, v in res.items()})
    g = np.random.default_rng(9)
    # non-negative operands: Triton's interpreter sign-extends int32 ones
    # before its unsigned product and multiplies int64 ones as signed (the
    # GPU's mul.hi.u32/u64 read the bits unsigned, as mytriton does)
    for name, dtype, lo, hi in (("i32", np.int32, 0, 2**31 - 1),
                                ("i64", np.int64, 0, 2**63 - 1)):
        a = g.integers(lo, hi, BLOCK, dtype=dtype, endpoint=True)
        b = g.integers(lo, hi, BLOCK, dtype=dtype, endpoint=True)
        a[:4] = [hi, hi, hi, 0]
        b[:4] = [hi, 1, 2, 5]
        res = torch.zeros(BLOCK, dtype=getattr(torch, dtype.__name__), device=device)
        umulhi_op[(1,)](torch.from_numpy(a).to(device), torch.from_numpy(b).to(device), res,
                        BLOCK=BLOCK)
        out[f"{name}_umulhi"] = res
    return out
