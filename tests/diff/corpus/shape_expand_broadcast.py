"""Indexing with None on any axis, tl.expand_dims with a tuple of axes,
tl.broadcast of two operands and tl.broadcast_to (issue 9)."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    sq = i[:, None] * N + i[None, :]
    a = x[None, :] * 10.0 + x[:, None]
    tl.store(out_ptr + sq, a)
    e = tl.expand_dims(x, (0,)) + tl.expand_dims(x, -1)
    tl.store(out_ptr + N * N + sq, e)
    s = tl.expand_dims(tl.sum(x, 0), (0, 1))
    tl.static_assert(s.shape == (1, 1))
    p, q = tl.broadcast(x[None, :], x[:, None] * 2.0)
    tl.static_assert(p.shape == (N, N))
    tl.store(out_ptr + 2 * N * N + sq, p - q + s)
    r = tl.broadcast_to(x[None, :], (N, N))
    tl.store(out_ptr + 3 * N * N + sq, r)
    u = x.expand_dims(1)
    tl.store(out_ptr + 4 * N * N + sq, tl.broadcast_to(u, N, N))


def run(device):
    N = 16
    x = (torch.arange(N, dtype=torch.float32) * 0.5 - 3.0).to(device)
    out = torch.zeros(5 * N * N, dtype=torch.float32, device=device)
    kernel[(1,)](x, out, N)
    return {"out": out}
