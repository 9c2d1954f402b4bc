"""tl.interleave of 2-D blocks and the reverse, tl.split of a reshape to
(R, C // 2, 2), with rank-3 values in between (issue 9)."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(a_ptr, b_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr, H: tl.constexpr):
    rows = tl.arange(0, R)[:, None]
    offs = rows * C + tl.arange(0, C)[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    tl.store(out_ptr + rows * (2 * C) + tl.arange(0, 2 * C)[None, :], tl.interleave(a, b))
    even, odd = tl.split(tl.reshape(a, R, H, 2))
    half = rows * H + tl.arange(0, H)[None, :]
    tl.store(out_ptr + 2 * R * C + half, even * 2.0)
    tl.store(out_ptr + 2 * R * C + R * H + half, odd - 1.0)


def run(device):
    R, C = 8, 32
    a = (torch.arange(R * C, dtype=torch.float32) * 0.5 - 9.0).to(device)
    b = (torch.arange(R * C, dtype=torch.float32) * -2.0 + 1.0).to(device)
    out = torch.zeros(3 * R * C, dtype=torch.float32, device=device)
    kernel[(1,)](a, b, out, R, C, C // 2)
    return {"out": out}
