"""Gather and scatter through a tensor descriptor of one-row blocks
(desc.gather(x_offsets, y_offset), desc.scatter(value, x_offsets,
y_offset)): rows picked in any order, rows out of bounds at both ends
(read as the padding, not written), columns hanging over the right edge."""
import torch
import triton
import triton.language as tl


@triton.jit
def gather_kernel(x, idx, out, M, N, y0, R: tl.constexpr, C: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [M, N], [N, 1], [1, C])
    rows = tl.load(idx + tl.arange(0, R))
    g = d.gather(rows, y0)
    tl.store(out + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :], g)


@triton.jit
def scatter_kernel(x, idx, M, N, y0, R: tl.constexpr, C: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [M, N], [N, 1], [1, C])
    rows = tl.load(idx + tl.arange(0, R))
    v = (tl.arange(0, R)[:, None] * 100 + tl.arange(0, C)[None, :]).to(tl.float32)
    d.scatter(v, rows, y0)


def run(device):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device=device))
    x = (torch.arange(12 * 20, dtype=torch.float32).reshape(12, 20) + 0.5).to(device)
    idx = torch.tensor([0, 3, 11, 12, -1, 5, 7, 2], dtype=torch.int32).to(device)
    outs = {}
    for y0 in (0, 12):
        o = torch.zeros(8, 16, dtype=torch.float32, device=device)
        gather_kernel[(1,)](x, idx, o, 12, 20, y0, R=8, C=16)
        outs[f"gather{y0}"] = o
    s = torch.zeros(12, 20, dtype=torch.float32, device=device)
    scatter_kernel[(1,)](s, idx, 12, 20, 4, R=8, C=16)
    outs["scatter"] = s
    return outs
