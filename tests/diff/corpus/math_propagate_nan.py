"""tl.maximum, tl.minimum and tl.clamp with propagate_nan on fp32 and fp64
(issue 9).  PropagateNan.ALL: a NaN operand gives NaN, clamp of a NaN x is
NaN.  The default NONE is compared here on operands without NaN only:
Triton's interpreter computes maxnumf as np.maximum (NaN wins) where the
GPU's max.f32 lets the NaN lose; dtype_math covers NONE with NaN operands,
recorded on the GPU.  Bit for bit, -0.0 included."""
import numpy as np
import torch
import triton
import triton.language as tl

BLOCK = 32
TOLERANCE = {"ulp": 0}


@triton.jit
def nan_ops(x_ptr, y_ptr, lo_ptr, hi_ptr, max_all, min_all, clamp_all, max_none, min_none,
            clamp_none, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    lo = tl.load(lo_ptr + offs)
    hi = tl.load(hi_ptr + offs)
    ALL: tl.constexpr = tl.PropagateNan.ALL
    tl.store(max_all + offs, tl.maximum(x, y, propagate_nan=ALL))
    tl.store(min_all + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(clamp_all + offs, tl.clamp(x, lo, hi, propagate_nan=ALL))
    xs = tl.where(x != x, 0.5, x)  # NaN-free operands for the default
    ys = tl.where(y != y, -0.75, y)
    tl.store(max_none + offs, tl.maximum(xs, ys))
    tl.store(min_none + offs, tl.minimum(xs, ys, propagate_nan=tl.PropagateNan.NONE))
    tl.store(clamp_none + offs, tl.clamp(xs, lo, hi))


def run(device):
    out = {}
    k = np.arange(BLOCK)
    x = (k - 16) * 0.25
    y = ((k * 7) % BLOCK - 16) * 0.25
    x[[3, 9]] = np.nan
    y[[9, 20]] = np.nan
    x[5], y[5] = 0.0, -0.0
    x[6], y[6] = -0.0, 0.0
    lo = np.full(BLOCK, -1.5)
    hi = np.full(BLOCK, 2.25)
    for name, dtype in (("f32", torch.float32), ("f64", torch.float64)):
        args = [torch.tensor(v, dtype=dtype).to(device) for v in (x, y, lo, hi)]
        ops = ["max_all", "min_all", "clamp_all", "max_none", "min_none", "clamp_none"]
        res = {op: torch.zeros(BLOCK, dtype=dtype, device=device) for op in ops}
        nan_ops[(1,)](*args, *res.values(), BLOCK=BLOCK)
        out.update({f"{name}_{op}": v for op, v in res.items()})
    return out
