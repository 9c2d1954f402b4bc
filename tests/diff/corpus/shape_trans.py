"""tl.trans / x.T / tl.permute (issue 9): a 2-D transpose in each
spelling, on f32 and on int16 (a narrow type moved, not computed)."""
import torch
import triton
import triton.language as tl


@triton.jit
def kernel(x_ptr, h_ptr, out_ptr, hout_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    toffs = tl.arange(0, C)[:, None] * R + tl.arange(0, R)[None, :]
    x = tl.load(x_ptr + offs)
    n = R * C
    tl.store(out_ptr + toffs, tl.trans(x))
    tl.store(out_ptr + n + toffs, x.T + 1.0)
    tl.store(out_ptr + 2 * n + toffs, tl.permute(x, 1, 0) * 2.0)
    tl.store(out_ptr + 3 * n + toffs, x.permute((1, 0)) - 1.0)
    tl.store(out_ptr + 4 * n + offs, tl.trans(tl.trans(x, (1, 0))))
    h = tl.load(h_ptr + offs)
    tl.store(hout_ptr + toffs, h.trans())


def run(device):
    R, C = 16, 32
    x = (torch.arange(R * C, dtype=torch.float32) * 0.5).to(device)
    h = (torch.arange(R * C, dtype=torch.int16) * 7 - 1000).to(device)
    out = torch.zeros(5 * R * C, dtype=torch.float32, device=device)
    hout = torch.zeros(R * C, dtype=torch.int16, device=device)
    kernel[(1,)](x, h, out, hout, R, C, num_warps=2)
    return {"out": out, "hout": hout}
