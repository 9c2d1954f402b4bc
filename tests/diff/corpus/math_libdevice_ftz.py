"""Subnormal fp32 operands and results of libdevice's functions: Triton
links libdevice with __CUDA_FTZ set, so its fp32 functions flush a
subnormal operand or result to a zero of its sign (exp of -100 is 0,
floor of -1e-40 is -0.0, sqrt_rn of 1e-40 is 0), where tl.exp and fp64
keep subnormals.  trunc, rint and copysign have no flush form.  Bit for
bit: every result here is exact or a flushed zero, but exp and tl.exp
of the normal inputs, compared within 2 ulp."""
import torch
import triton
import triton.language as tl
from triton.language.extra import libdevice

TOLERANCE = {"ulp": 0}
TOLERANCE_FOR = {"exp": {"ulp": 2}, "tl_exp": {"ulp": 2}, "exp_f64": {"ulp": 2}}

SUB = [1e-40, -1e-40, 1e-39, -3e-39, 1e-45, 2.0 ** -127, -(2.0 ** -130), 1e-38]
X = SUB + [-100.0, -90.0, -87.5, 0.0, -0.0, 1.5, -2.5, 2.0 ** -126]


@triton.jit
def ftz(x_ptr, d_ptr, exp, sqrt_rn, floor, ceil, trunc, rint, fma, div_rn, copysign,
        add_rz, float2int_ru, tl_exp, exp_f64, floor_f64, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    d = tl.load(d_ptr + offs)
    tl.store(exp + offs, libdevice.exp(x))
    tl.store(sqrt_rn + offs, libdevice.sqrt_rn(tl.abs(x)))
    tl.store(floor + offs, libdevice.floor(x))
    tl.store(ceil + offs, libdevice.ceil(x))
    tl.store(trunc + offs, libdevice.trunc(x))
    tl.store(rint + offs, libdevice.rint(x))
    tl.store(fma + offs, libdevice.fma(x, 0.5, x))
    tl.store(div_rn + offs, libdevice.div_rn(x, 4.0))
    tl.store(copysign + offs, libdevice.copysign(x, -1.0))
    tl.store(add_rz + offs, libdevice.add_rz(x, x))
    tl.store(float2int_ru + offs, libdevice.float2int_ru(x))
    tl.store(tl_exp + offs, tl.exp(x))
    tl.store(exp_f64 + offs, libdevice.exp(d))
    tl.store(floor_f64 + offs, libdevice.floor(d))


def run(device):
    x = torch.tensor(X, dtype=torch.float32).to(device)
    d = torch.tensor([v * 1e-270 if abs(v) < 1e-30 else v * 8.0 for v in X],
                     dtype=torch.float64).to(device)
    names = ["exp", "sqrt_rn", "floor", "ceil", "trunc", "rint", "fma", "div_rn", "copysign",
             "add_rz", "float2int_ru", "tl_exp", "exp_f64", "floor_f64"]
    out = {n: torch.zeros(len(X), dtype=torch.int32 if n == "float2int_ru" else
                          torch.float64 if n.endswith("f64") else torch.float32, device=device)
           for n in names}
    ftz[(1,)](x, d, *out.values(), BLOCK=len(X))
    return out
