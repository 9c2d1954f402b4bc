"""How the host backend runs a program's threads (issue 17): a kernel that
never waits runs its threads as plain calls, and a kernel of scalars runs
thread 0 alone; either way the results are the GPU's.  Triton's
test_load_store_same_ptr (65536 one-element programs at 32 warps, 1000
times) took 2.4 s a launch on fibers."""
import torch

import mytriton as triton
import mytriton.language as tl


@triton.jit()
def same_ptr_kernel(in_out_ptr):
    pid = tl.program_id(axis=0)
    x = tl.load(in_out_ptr + pid)
    tl.store(in_out_ptr + pid, x * 2)


def test_load_store_same_ptr(device):
    for _ in range(5):
        x = torch.ones((65536,), device=device, dtype=torch.float32)
        same_ptr_kernel[(65536,)](x, num_warps=32)
        assert torch.all(x == 2)


@triton.jit
def block_no_wait_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1.0)


def test_blocks_without_barriers(device):
    x = torch.randn(64 * 1024, device=device)
    out = torch.empty_like(x)
    block_no_wait_kernel[(64,)](x, out, BLOCK=1024, num_warps=8)
    torch.testing.assert_close(out, x + 1.0)
