"""Scalar arguments: int (i32, and i64 past 2**31) and float (fp32), as
Triton specialises Python scalars (an int that is a multiple of 16 too).
Bool scalars are in tests/py/test_launch_model.py: Triton's interpreter,
which records these cases on the CPU, cannot take them."""
import torch
import triton
import triton.language as tl


@triton.jit
def scalars_kernel(x, out, n, scale, shift, big, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m) * scale + shift
    tl.store(out + offs, v, mask=m)
    tl.store(out + n, (big // 1024).to(tl.float32))
    tl.store(out + n + 1, (big % 1000).to(tl.float32))


def run(device):
    n = 16
    x = torch.arange(n, dtype=torch.float32).to(device)
    res = {}
    for name, scale, shift, big in (("a", 0.5, 3, 2**40 + 4096), ("b", -1.25, -7, -2**33 - 5),
                                    ("c", 2.0, 32, 123456)):
        out = torch.zeros(n + 2, device=device)
        scalars_kernel[(1,)](x, out, n, scale, shift, big, BLOCK=16)
        res[name] = out
    return res
