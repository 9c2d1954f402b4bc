"""Loads through block pointers: every boundary_check (none, each dim,
both) with padding_option "zero" and "nan" on a block that hangs over both
ends of a 2-D tensor, padding "" inside the bounds, an int32 tensor, a
sliced (row-strided) view, and a transposed view with order (0, 1)."""
import torch
import triton
import triton.language as tl


@triton.jit
def pad_kernel(x, out, M, N, sm, sn, om, on, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(base=x, shape=(M, N), strides=(sm, sn), offsets=(om, on),
                          block_shape=(BM, BN), order=(1, 0))
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    o = out + rows * BN + cols
    blk = BM * BN
    tl.store(o, tl.load(p, boundary_check=(0, 1), padding_option="zero"))
    tl.store(o + blk, tl.load(p, boundary_check=(0, 1), padding_option="nan"))
    # one dim checked: the block moved so that the other stays in bounds
    q = tl.advance(p, (0, -on))
    tl.store(o + 2 * blk, tl.load(q, boundary_check=(0,), padding_option="zero"))
    tl.store(o + 3 * blk, tl.load(q, boundary_check=(0,), padding_option="nan"))
    r = tl.advance(p, (-om, 0))
    tl.store(o + 4 * blk, tl.load(r, boundary_check=(1,), padding_option="zero"))
    tl.store(o + 5 * blk, tl.load(r, boundary_check=(1,), padding_option="nan"))
    s = tl.advance(p, (-om, -on))
    tl.store(o + 6 * blk, tl.load(s))
    tl.store(o + 7 * blk, tl.load(s, boundary_check=(0, 1)))


@triton.jit
def int_kernel(x, out, n, off, B: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (off,), (B,), (0,))
    tl.store(out + tl.arange(0, B), tl.load(p, boundary_check=(0,), padding_option="zero"))


@triton.jit
def view_kernel(x, out, M, N, sm, sn, BM: tl.constexpr, BN: tl.constexpr, ORDER0: tl.constexpr):
    pid = tl.program_id(0)
    if ORDER0 == 0:
        p = tl.make_block_ptr(x, (M, N), (sm, sn), (pid * BM, 0), (BM, BN), (0, 1))
    else:
        p = tl.make_block_ptr(x, (M, N), (sm, sn), (pid * BM, 0), (BM, BN), (1, 0))
    v = tl.load(p, boundary_check=(0, 1), padding_option="zero")
    q = tl.make_block_ptr(out, (M, N), (N, 1), (pid * BM, 0), (BM, BN), (1, 0))
    tl.store(q, v, boundary_check=(0, 1))


def run(device):
    x = torch.arange(6 * 16, dtype=torch.float32).reshape(6, 16).to(device) + 0.25
    pad = torch.zeros(8 * 4 * 16, dtype=torch.float32, device=device)
    pad_kernel[(1,)](x, pad, 6, 16, x.stride(0), x.stride(1), 4, -3, BM=4, BN=16)
    xi = torch.arange(1, 12, dtype=torch.int32).to(device)
    ints = torch.zeros(16, dtype=torch.int32, device=device)
    int_kernel[(1,)](xi, ints, 11, 5, B=16)
    base = torch.arange(9 * 7, dtype=torch.float32).reshape(9, 7).to(device)
    t = base.t()  # (7, 9), column-major
    tout = torch.zeros(7, 9, dtype=torch.float32, device=device)
    view_kernel[(2,)](t, tout, 7, 9, t.stride(0), t.stride(1), BM=4, BN=16, ORDER0=0)
    wide = torch.arange(10 * 20, dtype=torch.float32).reshape(10, 20).to(device)
    s = wide[1:, 3:11]  # row stride 20
    sout = torch.zeros(9, 8, dtype=torch.float32, device=device)
    view_kernel[(3,)](s, sout, 9, 8, s.stride(0), s.stride(1), BM=4, BN=8, ORDER0=1)
    return {"pad": pad, "ints": ints, "transposed": tout, "sliced": sout}
