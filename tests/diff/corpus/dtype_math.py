"""Math on fp16, bf16 and fp64 (issue 8).  Triton 3.6 takes exp log sqrt
cos sin on fp32 and fp64 only ("Expected dtype ['fp32', 'fp64'] but got
fp16", a compile error mytriton should give too), so half-precision
kernels upcast first: tl.exp(x.to(tl.float32)), here rounded back to the
half type as kernels do; fp64 calls them directly.  abs takes every float
type and keeps it; maximum and minimum keep fp16 and fp64 but widen bf16
to fp32 (asserted in the kernel); maximum with propagate_nan=ALL gives NaN
where either operand is NaN, by default it gives the other operand.  The
transcendental results are compared within 2 ulp (fp64 goes through
libdevice; the rounding of an fp32 result back to a half type may go
either way near a halfway point), abs, maximum and minimum bit for bit,
NaN operands included."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}
TOLERANCE_FOR = {f"{t}_{op}": {"ulp": 2} for t in ("f16", "bf16", "f64")
                 for op in ("exp", "log", "sqrt", "cos", "sin")}

BLOCK = 128


@triton.jit
def math_ops(x_ptr, p_ptr, y_ptr, exp, log, sqrt, cos, sin, abs_, maximum, minimum,
             maximum_nan, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    p = tl.load(p_ptr + offs)
    y = tl.load(y_ptr + offs)
    if x.dtype == tl.float64:
        xf = x
        pf = p
    else:
        xf = x.to(tl.float32)
        pf = p.to(tl.float32)
    e = tl.exp(xf)
    tl.static_assert(e.dtype == xf.dtype)
    tl.store(exp + offs, e.to(x.dtype))
    tl.store(log + offs, tl.log(pf).to(x.dtype))
    tl.store(sqrt + offs, tl.sqrt(pf).to(x.dtype))
    tl.store(cos + offs, tl.cos(xf).to(x.dtype))
    tl.store(sin + offs, tl.sin(xf).to(x.dtype))
    a = tl.abs(x)
    tl.static_assert(a.dtype == x.dtype)
    tl.store(abs_ + offs, a)
    m = tl.maximum(x, y)
    tl.static_assert(m.dtype == maximum.dtype.element_ty)
    tl.store(maximum + offs, m)
    tl.store(minimum + offs, tl.minimum(x, y))
    tl.store(maximum_nan + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL))


def make(values, dtype):
    """values (exact in fp32) in dtype: bf16 by cutting the fp32 bits."""
    v = np.asarray(values, dtype=np.float32)
    if dtype == torch.bfloat16:
        return torch.from_numpy((v.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)).view(dtype)
    return torch.from_numpy(v).to(dtype)


def run(device):
    out = {}
    k = np.arange(BLOCK)
    x = (k - 64) * 0.15625                 # -10 .. 9.84, exact in every type
    p = (k + 1) * 0.375                    # positive: log and sqrt
    y = ((k * 37) % BLOCK - 64) * 0.15625  # the same values, shuffled
    x[5], y[9] = np.nan, np.nan
    for name, dtype in (("f16", torch.float16), ("bf16", torch.bfloat16), ("f64", torch.float64)):
        args = [make(v, dtype).to(device) for v in (x, p, y)]
        ops = ["exp", "log", "sqrt", "cos", "sin", "abs", "maximum", "minimum", "maximum_nan"]
        wide = torch.float32 if dtype == torch.bfloat16 else dtype
        res = {op: torch.zeros(BLOCK, dtype=wide if op.startswith(("max", "min")) else dtype,
                               device=device) for op in ops}
        math_ops[(1,)](*args, *res.values(), BLOCK=BLOCK)
        out.update({f"{name}_{op}": v for op, v in res.items()})
    return out
