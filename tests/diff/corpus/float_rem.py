"""Float x % y as Triton computes it (LLVM's frem on NVPTX: x - trunc(x/y)*y
in one fma, x for an infinite y): the sign of zero results and quotients
too large to be exact in f32 included."""
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}


@triton.jit
def rem(x, y, o, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(o + r, tl.load(x + r) % tl.load(y + r))


def run(device):
    x = torch.tensor([-4.0, 1e10, 5.5, -5.5, 3.0, 7.0, -0.0, 9.0,
                      123456.7, -1e7, 0.3, -2.5, 1e-30, 7.5, -7.5, 65504.0])
    y = torch.tensor([2.0, 3.0, 2.0, 2.0, float("inf"), -2.0, 1.0, 4.5,
                      0.1, 3.3, 0.1, -2.5, 3.0, -2.0, 2.0, 0.7])
    o = torch.zeros(16)
    x, y, o = x.to(device), y.to(device), o.to(device)
    rem[(1,)](x, y, o, N=16)
    return {"rem": o}
