"""tl.arange with a non-zero start, tl.full, tl.zeros_like, tl.zeros
(issue 9)."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(out_ptr, iout_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    r = tl.arange(N, 2 * N)
    tl.store(iout_ptr + i, r)
    tl.store(iout_ptr + N + i, tl.arange(3 * N, 4 * N) + tl.zeros_like(r))
    x = tl.full((N,), 2.5, tl.float32) * r.to(tl.float32)
    tl.store(out_ptr + i, x + tl.zeros_like(x))
    tl.store(out_ptr + N + i, tl.zeros((N,), tl.float32) + tl.full((1,), -1.0, tl.float32))


def run(device):
    N = 32
    out = torch.zeros(2 * N, dtype=torch.float32, device=device)
    iout = torch.zeros(2 * N, dtype=torch.int32, device=device)
    kernel[(1,)](out, iout, N)
    return {"out": out, "iout": iout}
