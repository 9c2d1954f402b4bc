"""None for a pointer argument: Triton specialises it as a constexpr None,
so the kernel can test `is None` / `is not None` and skip the load."""
import torch
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x, w, b, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    if w is not None:
        v = v * tl.load(w + offs, mask=m)
    if b is None:
        v = v - 1.0
    else:
        v = v + tl.load(b + offs, mask=m)
    tl.store(out + offs, v, mask=m)


def run(device):
    n = 20
    x = torch.linspace(-2, 2, n).to(device)
    w = torch.linspace(0.5, 1.5, n).to(device)
    b = torch.arange(n, dtype=torch.float32).to(device)
    res = {}
    for name, ww, bb in (("both", w, b), ("no_w", None, b), ("no_b", w, None),
                         ("none", None, None)):
        out = torch.zeros(n, device=device)
        affine_kernel[(1,)](x, ww, bb, out, n, BLOCK=32)
        res[name] = out
    return res
