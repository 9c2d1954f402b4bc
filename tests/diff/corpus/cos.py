"""tl.cos on f32 (added as the op table's worked example, issue 7)."""
import torch
import triton
import triton.language as tl

TOLERANCE = {"rtol": 2e-6, "atol": 2e-7}


@triton.jit
def kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.cos(x), mask=mask)


def run(device):
    # made on the CPU and moved: torch.linspace differs by an ulp between
    # devices, and cos turns that into a visible difference
    x = torch.linspace(-100.0, 100.0, 1000, dtype=torch.float32).to(device)
    out = torch.empty_like(x)
    kernel[(triton.cdiv(1000, 256),)](x, out, 1000, BLOCK=256)
    return {"out": out}
