"""tl.cos on f32 (added as the op table's worked example, issue 7)."""
import numpy as np
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
    # exact IEEE arithmetic, made on the CPU and moved: torch.linspace
    # differs by an ulp between devices and between torch versions, and cos
    # turns that into a visible difference
    x = torch.from_numpy((np.arange(1000) * 0.2 - 100.0).astype(np.float32)).to(device)
    out = torch.empty_like(x)
    kernel[(triton.cdiv(1000, 256),)](x, out, 1000, BLOCK=256)
    return {"out": out}
