"""tl.reshape / x.reshape / tl.view / tl.ravel (issue 9): row-major order
kept by reshape with can_reorder=False; view and can_reorder=True may
reorder, so only their sums are compared."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, out_ptr, sums_ptr, R: tl.constexpr, C: tl.constexpr, n: tl.constexpr,
           H: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    a = tl.reshape(x, (C, R))
    tl.store(out_ptr + tl.arange(0, C)[:, None] * R + tl.arange(0, R)[None, :], a * 2.0)
    flat = x.reshape(n)
    tl.store(out_ptr + n + tl.arange(0, n), flat + 1.0)
    b = tl.reshape(tl.load(x_ptr + tl.arange(0, n)), 2, H)
    tl.store(out_ptr + 2 * n + tl.arange(0, 2)[:, None] * H + tl.arange(0, H)[None, :], b)
    tl.store(out_ptr + 3 * n + tl.arange(0, n), tl.ravel(x) - 3.0)
    v = tl.view(x, n)
    w = tl.reshape(x, [4, H // 2], can_reorder=True)
    tl.store(sums_ptr, tl.sum(v, 0))
    tl.store(sums_ptr + 1, tl.sum(tl.sum(w * w, 1), 0))


def run(device):
    R, C = 8, 16
    x = (torch.arange(R * C, dtype=torch.float32) * 0.25 - 7.0).to(device)
    out = torch.zeros(4 * R * C, dtype=torch.float32, device=device)
    sums = torch.zeros(2, dtype=torch.float32, device=device)
    kernel[(1,)](x, out, sums, R, C, R * C, R * C // 2)
    return {"out": out, "sums": sums}
