"""Stores through block pointers with boundary_check, block pointers moved
with tl.advance (as a function and as a method, in an unrolled loop, by
runtime and negative amounts), and a scalar value broadcast to the block."""
import torch
import triton
import triton.language as tl


@triton.jit
def store_kernel(x, out, M, N, step, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_block_ptr(x, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    v = tl.load(src)
    dst = tl.make_block_ptr(out, (M, N), (N, 1), (0, N - 2), (BM, BN), (1, 0))
    for i in tl.static_range(4):
        tl.store(dst, v + i * 100, boundary_check=(0, 1))
        dst = dst.advance((step, -1))
    tl.store(tl.advance(dst, (0, 3)), 7.0, boundary_check=(1, 0))


@triton.jit
def copy_kernel(x, out, n, B: tl.constexpr):
    pid = tl.program_id(0)
    src = tl.make_block_ptr(x, (n,), (1,), (0,), (B,), (0,))
    src = tl.advance(src, (pid * B,))
    dst = tl.make_block_ptr(out, (n,), (1,), (pid * B,), (B,), (0,))
    tl.store(dst, tl.load(src, boundary_check=(0,)) * 3, boundary_check=(0,))


def run(device):
    x = torch.arange(2 * 4, dtype=torch.float32).reshape(2, 4).to(device)
    out = torch.full((9, 7), -1.0, dtype=torch.float32, device=device)
    store_kernel[(1,)](x, out, 9, 7, 2, BM=2, BN=4)
    y = torch.arange(50, dtype=torch.int32).to(device)
    yo = torch.zeros(50, dtype=torch.int32, device=device)
    copy_kernel[(4,)](y, yo, 50, B=16)
    return {"out": out, "copy": yo}
