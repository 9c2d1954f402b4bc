"""Tensor descriptors made on the host (triton.tools.tensor_descriptor.
TensorDescriptor) and passed to kernels: a ragged 2-D tensor read with
zero and NaN padding and written back clipped at the far edges, a view with a row stride of
its own, a rank-3 descriptor, and the descriptor's shape and strides read
in the kernel."""
import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def copy_kernel(src, dst, BM: tl.constexpr, BN: tl.constexpr):
    # the load starts 8 before the store, so the first row and column of
    # blocks read the padding; stores start inside dst (compiled Triton's
    # TMA store stops with an illegal instruction at a negative start)
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    dst.store([om, on], src.load([om - 8, on - 8]) + 1)


@triton.jit
def shape_kernel(d, out):
    k = tl.arange(0, 4)
    v = tl.where(k == 0, d.shape[0], tl.where(k == 1, d.shape[1], tl.where(k == 2, d.strides[0],
                                                                         d.shape[0] * 0 + 7)))
    tl.store(out + k, v)


@triton.jit
def cube_kernel(src, dst, BA: tl.constexpr, BB: tl.constexpr, BC: tl.constexpr):
    v = src.load([1, 0, 4])
    dst.store([0, 0, 0], v)


def run(device):
    outs = {}
    x = (torch.arange(37 * 44, dtype=torch.float32).reshape(37, 44) - 100).to(device)
    for pad in ("zero", "nan"):
        y = torch.full((37, 44), -1.0, device=device)
        copy_kernel[(4, 4)](TensorDescriptor(x, x.shape, x.stride(), [16, 16], pad),
                            TensorDescriptor.from_tensor(y, [16, 16]), BM=16, BN=16)
        outs[f"copy_{pad}"] = y
    wide = torch.arange(40 * 64, dtype=torch.float16).reshape(40, 64).to(device)
    view = wide[3:30, 8:40]  # rows 64 apart, 16-byte aligned
    vout = torch.zeros(27, 32, dtype=torch.float16, device=device)
    copy_kernel[(2, 2)](TensorDescriptor(view, list(view.shape), list(view.stride()), [16, 16]),
                        TensorDescriptor.from_tensor(vout, [16, 16]), BM=16, BN=16)
    outs["view"] = vout
    meta = torch.zeros(4, dtype=torch.int64, device=device)
    shape_kernel[(1,)](TensorDescriptor.from_tensor(x, [8, 8]), meta)
    outs["shape"] = meta
    c = torch.arange(5 * 6 * 20, dtype=torch.int32).reshape(5, 6, 20).to(device)
    cout = torch.zeros(4, 8, 16, dtype=torch.int32, device=device)
    cube_kernel[(1,)](TensorDescriptor.from_tensor(c, [4, 8, 16]),
                      TensorDescriptor.from_tensor(cout, [4, 8, 16]), BA=4, BB=8, BC=16)
    outs["cube"] = cout
    return outs
