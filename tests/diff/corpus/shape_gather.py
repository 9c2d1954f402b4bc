"""tl.gather(src, index, axis) (test_core's test_gather shapes and more):
along either axis of a 2-D block, the method form, an f16 source with an
int64 index, a 1-D gather to a longer result."""
import torch
import triton
import triton.language as tl


@triton.jit
def gather_2d(src_ptr, idx_ptr, out_ptr, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
              I0: tl.constexpr, I1: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, S0)[:, None] * S1 + tl.arange(0, S1)[None, :])
    offs = tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :]
    idx = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, src.gather(idx, AXIS))


@triton.jit
def gather_1d(src_ptr, idx_ptr, out_ptr, N: tl.constexpr, M: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, N))
    idx = tl.load(idx_ptr + tl.arange(0, M))
    tl.store(out_ptr + tl.arange(0, M), tl.gather(src, idx, 0))


def run(device):
    g = torch.Generator().manual_seed(11)
    res = {}
    for name, ss, ish, axis, dt, it in (("rows", (128, 64), (256, 64), 0, torch.float32, torch.int32),
                                        ("cols", (128, 64), (128, 128), 1, torch.float32, torch.int32),
                                        ("small", (4, 4), (8, 4), 0, torch.float16, torch.int64),
                                        ("narrow", (16, 8), (16, 2), 1, torch.int32, torch.int32)):
        src = (torch.randn(ss, generator=g) * 50).to(dt).to(device)
        idx = torch.randint(0, ss[axis], ish, generator=g).to(it).to(device)
        out = torch.zeros(ish, dtype=dt).to(device)
        gather_2d[(1,)](src, idx, out, AXIS=axis, S0=ss[0], S1=ss[1], I0=ish[0], I1=ish[1])
        res[name] = out
    src = torch.randn(32, generator=g).to(device)
    idx = torch.randint(0, 32, (64,), generator=g).to(torch.int32).to(device)
    out = torch.zeros(64).to(device)
    gather_1d[(1,)](src, idx, out, N=32, M=64)
    res["one_d"] = out
    return res
