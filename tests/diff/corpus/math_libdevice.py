"""libdevice functions as kernels import them (issue 9):
`from triton.language.extra import libdevice` and tl.extra.cuda.libdevice,
on fp32 and fp64: pow (a float and an int32 exponent), tanh, erf, exp,
log1p, atan2, fmod, floor, rint, isnan, isinf and fast_expf.  Within 4 ulp
where the GPU's libdevice, libm and NumPy may round differently (fast_expf
is approximate on the GPU: 64 ulp); fmod, floor, rint and the predicates
bit for bit."""
import numpy as np
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

BLOCK = 32
TOLERANCE = {"ulp": 0}
TOLERANCE_FOR = {f"{t}_{op}": {"ulp": 4} for t in ("f32", "f64")
                 for op in ("pow", "powi", "tanh", "erf", "exp", "log1p", "atan2")}
TOLERANCE_FOR["f32_fast_expf"] = {"ulp": 64}


@triton.jit
def libdevice_ops(x_ptr, y_ptr, pow_, powi, tanh, erf, exp, log1p, atan2, fmod, floor, rint,
                  isnan, isinf, fast_expf, BLOCK: tl.constexpr, FAST: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(pow_ + offs, libdevice.pow(tl.abs(x), y))
    tl.store(powi + offs, libdevice.pow(x, 3))
    tl.store(tanh + offs, libdevice.tanh(x))
    tl.store(erf + offs, tl.extra.cuda.libdevice.erf(x))
    tl.store(exp + offs, libdevice.exp(x))
    tl.store(log1p + offs, libdevice.log1p(tl.abs(x)))
    tl.store(atan2 + offs, libdevice.atan2(x, y))
    tl.store(fmod + offs, libdevice.fmod(x, y))
    tl.store(floor + offs, libdevice.floor(x))
    tl.store(rint + offs, libdevice.rint(x))
    tl.store(isnan + offs, libdevice.isnan(x / y).to(tl.int32))
    tl.store(isinf + offs, libdevice.isinf(x / y).to(tl.int32))
    if FAST:
        tl.store(fast_expf + offs, libdevice.fast_expf(x))


def run(device):
    out = {}
    k = np.arange(BLOCK)
    x = (k - 16) * 0.375          # -6 .. 5.625, halves included (rint)
    y = ((k * 11) % BLOCK - 15.5) * 0.125
    x[4], y[4] = 0.0, 0.0         # 0 / 0: NaN
    x[7] = 2.5
    y[30] = 0.0                   # x / 0: inf
    for name, dtype in (("f32", torch.float32), ("f64", torch.float64)):
        args = [torch.tensor(v, dtype=dtype).to(device) for v in (x, y)]
        ops = ["pow", "powi", "tanh", "erf", "exp", "log1p", "atan2", "fmod", "floor", "rint",
               "isnan", "isinf", "fast_expf"]
        res = {op: torch.zeros(BLOCK, dtype=torch.int32 if op.startswith("is") else dtype,
                               device=device) for op in ops}
        fast = dtype == torch.float32
        libdevice_ops[(1,)](*args, *res.values(), BLOCK=BLOCK, FAST=fast)
        if not fast:  # fast_expf takes fp32 only
            del res["fast_expf"]
        out.update({f"{name}_{op}": v for op, v in res.items()})
    return out
