"""A shape compared with a list or a tuple (issue 17: `x.shape == [N]` was
False; in Triton lists in kernels are tuples, so it is True)."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(out, BLOCK: tl.constexpr):
    x = tl.arange(0, BLOCK)
    y = x[None, :]
    tl.static_assert(x.shape == [BLOCK])
    tl.static_assert(y.shape == (1, BLOCK))
    flags = tl.zeros((8,), tl.int32)
    i = tl.arange(0, 8)
    flags = tl.where(i == 0, 1 if x.shape == [BLOCK] else 0, flags)
    flags = tl.where(i == 1, 1 if y.shape == [1, BLOCK] else 0, flags)
    flags = tl.where(i == 2, 1 if [1, BLOCK] == y.shape else 0, flags)
    flags = tl.where(i == 3, 1 if y.shape != [1, BLOCK] else 0, flags)
    flags = tl.where(i == 4, 1 if y.shape == [BLOCK, 1] else 0, flags)
    flags = tl.where(i == 5, 1 if x.shape == [BLOCK, 1] else 0, flags)
    flags = tl.where(i == 6, y.shape[1] + y.shape[-2], flags)
    flags = tl.where(i == 7, 1 if y.shape[1:] == [BLOCK] else 0, flags)
    tl.store(out + i, flags)


def run(device):
    out = torch.zeros(8, dtype=torch.int32, device=device)
    kernel[(1,)](out, BLOCK=16)
    return {"out": out}
