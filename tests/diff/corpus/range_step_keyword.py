"""step= given by keyword to tl.range and tl.static_range (issue 17: it was
dropped, so the loops ran 8 times instead of 4), and tl.range's scheduling
hints beside it."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(out, n):
    a = 0
    for i in tl.static_range(0, 8, step=2):
        a += i
    b = 0
    for i in tl.range(0, n, step=2):
        b += i
    c = 0
    for i in tl.range(1, n, 3, num_stages=2, loop_unroll_factor=2):
        c += i
    d = 0
    for i in tl.range(arg1=2, arg2=n, step=3):
        d += 1
    e = 0
    for i in tl.static_range(5, step=2):
        e += i
    tl.store(out + 0, a)
    tl.store(out + 1, b)
    tl.store(out + 2, c)
    tl.store(out + 3, d)
    tl.store(out + 4, e)


def run(device):
    out = torch.zeros(5, dtype=torch.int32, device=device)
    kernel[(1,)](out, 9)
    return {"out": out}
