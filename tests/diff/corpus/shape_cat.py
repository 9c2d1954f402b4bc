"""tl.cat (issue 9): Triton's cat needs can_reorder=True and may reorder
the elements, so only order-insensitive results (sums, extrema, counts)
are compared."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(a_ptr, b_ptr, out_ptr, N: tl.constexpr, M: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, N))
    b = tl.load(b_ptr + tl.arange(0, M))
    c = tl.cat(a, b, can_reorder=True)
    tl.static_assert(c.shape[0] == N + M)
    tl.store(out_ptr, tl.sum(c, 0))
    tl.store(out_ptr + 1, tl.max(c, 0))
    tl.store(out_ptr + 2, tl.min(c, 0))
    tl.store(out_ptr + 3, tl.sum((c > 0).to(tl.float32), 0))
    d = tl.cat(c, c * 2.0, can_reorder=True)
    tl.store(out_ptr + 4, tl.sum(d * d, 0))


def run(device):
    N = 32
    a = (torch.arange(N, dtype=torch.float32) - 10.0).to(device)
    b = (torch.arange(N, dtype=torch.float32) * -0.5 + 4.0).to(device)
    out = torch.zeros(5, dtype=torch.float32, device=device)
    kernel[(1,)](a, b, out, N, N)
    return {"out": out}
