"""Pointers as values (tutorial 08's address tables): int64 addresses cast
with .to(tl.pointer_type(...)), a pointer to int64 and bool, tl.where on
an int32 condition (cast to int1)."""
import torch
import triton
import triton.language as tl


@triton.jit
def gather(ptrs, keep, out, N: tl.constexpr):
    r = tl.arange(0, N)
    for g in range(2):
        p = tl.load(ptrs + g).to(tl.pointer_type(tl.float16))
        v = tl.load(p + r).to(tl.float32)
        tl.store(out + g * N + r, tl.where(tl.load(keep + r), v, -1.0))
    tl.store(out + 2 * N + r, (out.to(tl.int64) != 0).to(tl.float32) + out.to(tl.int1).to(tl.float32))


def run(device):
    a = torch.arange(8, dtype=torch.float16).to(device)
    b = (-torch.arange(8, dtype=torch.float16) / 4).to(device)
    ptrs = torch.tensor([a.data_ptr(), b.data_ptr()], dtype=torch.int64).to(device)
    keep = torch.tensor([1, 0, 2, 0, -1, 0, 1, 1], dtype=torch.int32).to(device)
    out = torch.zeros(24).to(device)
    gather[(1,)](ptrs, keep, out, N=8)
    return {"out": out}
