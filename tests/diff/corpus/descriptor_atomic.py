"""atomic_add and atomic_max through tensor descriptors made in the kernel,
on blocks that hang over the tensor's edges (out-of-bounds elements are
left alone) from several programs.  Triton's interpreter has no
descriptor reductions: this case is recorded on the GPU only."""
import torch
import triton
import triton.language as tl


@triton.jit
def atomic_kernel(acc, hi, vals, M, N, B: tl.constexpr):
    add = tl.make_tensor_descriptor(acc, [M, N], [N, 1], [B, B])
    top = tl.make_tensor_descriptor(hi, [M, N], [N, 1], [B, B])
    pid = tl.program_id(0)
    v = tl.load(vals + tl.arange(0, B)[:, None] * B + tl.arange(0, B)[None, :])
    add.atomic_add([pid * 4, 4], v)
    top.atomic_max([1, 8], v - pid * 7)


def run(device):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device=device))
    outs = {}
    acc = torch.zeros(20, 16, dtype=torch.int32).to(device)
    hi = torch.zeros(20, 16, dtype=torch.int32).to(device)
    vals = torch.arange(64, dtype=torch.int32).reshape(8, 8).to(device)
    atomic_kernel[(3,)](acc, hi, vals, 20, 16, B=8)
    outs["atomic_add"] = acc
    outs["atomic_max"] = hi
    return outs
