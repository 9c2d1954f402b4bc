"""tl.join / tl.split / tl.interleave (issue 9): join stacks on a new last
dim of 2, split takes it apart (a 2-vector splits into scalars), and
interleave alternates the elements of its operands."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    j = tl.join(a, b)
    tl.store(out_ptr + i[:, None] * 2 + tl.arange(0, 2)[None, :], j)
    lo, hi = tl.split(j * 3.0)
    tl.store(out_ptr + 2 * N + i, hi - lo)
    tl.store(out_ptr + 3 * N + tl.arange(0, 2 * N), tl.interleave(b, a))
    s = tl.join(tl.sum(a, 0), tl.max(b, 0))
    p, q = s.split()
    tl.store(out_ptr + 5 * N + tl.arange(0, 2), s)
    tl.store(out_ptr + 5 * N + 2, q - p)
    t = tl.join(a, 1.5 + tl.zeros((1,), tl.float32))
    tl.store(out_ptr + 5 * N + 3 + i, tl.sum(t, 1))


def run(device):
    N = 64
    a = (torch.arange(N, dtype=torch.float32) * 0.75 - 20.0).to(device)
    b = (torch.arange(N, dtype=torch.float32) * -1.25 + 3.0).to(device)
    out = torch.zeros(6 * N + 3, dtype=torch.float32, device=device)
    kernel[(1,)](a, b, out, N)
    return {"out": out}
