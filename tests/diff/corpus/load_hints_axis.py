"""tl.multiple_of, tl.max_contiguous and tl.max_constancy on offsets and
pointers, as in the matmul tutorial's `% M` offsets: hints never change
the values loaded and stored."""
import torch
import triton
import triton.language as tl


@triton.jit
def wrap_kernel(x, out, M, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = tl.program_id(1)
    offs = (pid * BLOCK + tl.arange(0, BLOCK)) % M
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    p = tl.multiple_of(x + row * stride, 16)
    v = tl.load(p + offs)
    r = tl.arange(0, BLOCK)
    grp = tl.max_constancy(r // 4, 4)
    w = tl.load(x + row * stride + grp)
    tl.store(out + row * 2 * M + pid * BLOCK + r, v + w)
    tl.store(out + row * 2 * M + M + pid * BLOCK + r, v * w)


def run(device):
    x = torch.linspace(-2, 2, 4 * 200, dtype=torch.float32).reshape(4, 200)[:, :128]
    x = x.to(device)
    out = torch.zeros(4 * 2 * 128, dtype=torch.float32, device=device)
    wrap_kernel[(2, 4)](x, out, 128, x.stride(0), BLOCK=64)
    return {"out": out}
