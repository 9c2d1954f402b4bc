"""Loads in tl.range(..., num_stages=N) loops, which Triton pipelines (and
mytriton issues one iteration ahead, pipeload.c): a persistent softmax over
more rows than programs, fewer, and none; a loaded block feeding a carried
value and a branch; carried pointers.  (A loop up to the i32 maximum is
tests/py/test_pipeload.py's alone: compiled Triton 3.6 faults on it with an
illegal address on the H200, its pipelined load formed for the index past
the last, which wraps.)"""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax(out, x, stride, n_rows, n_cols, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=STAGES):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x + row * stride + cols, mask=mask, other=-float("inf"))
        e = tl.exp(v - tl.max(v, axis=0))
        tl.store(out + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def carried(out, x, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    last = tl.zeros((BLOCK,), tl.float32)
    for i in tl.range(0, n, 1, num_stages=3):
        v = tl.load(x + i * BLOCK + cols)
        if i % 2 == 0:
            acc += v
        else:
            acc -= 2 * v
        last = v
    tl.store(out + cols, acc)
    tl.store(out + BLOCK + cols, last)


@triton.jit
def column_sums(out, x, n_rows, n_cols, stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    rows = tl.arange(0, BLOCK_R)
    ptrs = x + rows[:, None] * stride + cols[None, :]
    acc = tl.zeros((BLOCK_C,), tl.float32)
    for r in tl.range(0, n_rows, BLOCK_R, num_stages=3):
        m = ((r + rows) < n_rows)[:, None] & (cols < n_cols)[None, :]
        acc += tl.sum(tl.load(ptrs, mask=m, other=0.0), axis=0)
        ptrs += BLOCK_R * stride
    tl.store(out + cols, acc, mask=cols < n_cols)


def run(device):
    g = torch.Generator().manual_seed(5)
    x = torch.randn(37, 300, generator=g).to(device)
    res = {}
    for name, progs, stages in (("more_rows", 5, 2), ("more_programs", 64, 4), ("one", 1, 3)):
        o = torch.zeros_like(x)
        softmax[(progs,)](o, x, x.stride(0), 37, 300, BLOCK=512, STAGES=stages)
        res["softmax_" + name] = o
    o = torch.zeros_like(x)
    softmax[(4,)](o, x, x.stride(0), 0, 300, BLOCK=512, STAGES=2)
    res["softmax_no_rows"] = o
    z = torch.randn(7, 32, generator=g).to(device)
    o = torch.zeros(64, device=device)
    carried[(1,)](o, z, 7, BLOCK=32)
    res["carried"] = o
    w = torch.randn(45, 70, generator=g).to(device)
    o = torch.zeros(70, device=device)
    column_sums[(3,)](o, w, 45, 70, w.stride(0), BLOCK_R=8, BLOCK_C=32)
    res["column_sums"] = o
    return res
