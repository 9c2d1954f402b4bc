"""A grid with a zero dimension launches nothing and raises nothing, as in
Triton; the same kernel then runs normally."""
import torch
import triton
import triton.language as tl


@triton.jit
def mark_kernel(out, value):
    tl.store(out + tl.program_id(0), value)


def run(device):
    out = torch.zeros(4, dtype=torch.int32, device=device)
    mark_kernel[(0,)](out, 7)
    mark_kernel[(4, 0)](out, 8)
    mark_kernel[(2, 3, 0)](out, 9)
    mark_kernel[lambda meta: (0,)](out, 10)
    untouched = out.clone()
    mark_kernel[(3,)](out, 11)
    return {"untouched": untouched, "after": out}
