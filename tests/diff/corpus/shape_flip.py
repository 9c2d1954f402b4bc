"""tl.flip (issue 9): a block reversed along one dim (dim given; Triton
3.6's dim=None fails to compile, so every call names its dim)."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, i_ptr, out_ptr, iout_ptr, R: tl.constexpr, C: tl.constexpr, n: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.flip(x, 0))
    tl.store(out_ptr + n + offs, tl.flip(x, 1))
    tl.store(out_ptr + 2 * n + offs, x.flip(-1) * 2.0)
    v = tl.load(x_ptr + tl.arange(0, n))
    tl.store(out_ptr + 3 * n + tl.arange(0, n), tl.flip(v, 0))
    k = tl.load(i_ptr + tl.arange(0, C))
    tl.store(iout_ptr + tl.arange(0, C), tl.flip(k, 0))


def run(device):
    R, C = 4, 32
    x = (torch.arange(R * C, dtype=torch.float32) * 1.5 - 40.0).to(device)
    i = (torch.arange(C, dtype=torch.int64) * 1000003 - 7).to(device)
    out = torch.zeros(4 * R * C, dtype=torch.float32, device=device)
    iout = torch.zeros(C, dtype=torch.int64, device=device)
    kernel[(1,)](x, i, out, iout, R, C, R * C)
    return {"out": out, "iout": iout}
