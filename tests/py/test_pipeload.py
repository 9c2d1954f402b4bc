"""tl.range(..., num_stages=N) loops whose loads run one iteration ahead
(pipeload.c): the values must be those of the plain loop, whatever the
trip count (none, one, many), the index type, the bounds (near the index
type's maximum, where the next index would overflow), and however the
loaded block is used (a nested if, a carried value)."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import stages


@triton.jit
def persistent_softmax(out, x, stride, n_rows, n_cols, BLOCK: tl.constexpr,
                       STAGES: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0), num_stages=STAGES):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x + row * stride + cols, mask=mask, other=-float("inf"))
        e = tl.exp(v - tl.max(v, axis=0))
        tl.store(out + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


def test_pipelined_loop_ir():
    """The row's load is issued before the loop and at the top of the body
    for the next row (the one in the loop is dead); without num_stages the
    loop keeps its one load."""
    x = torch.zeros(4, 100)
    for st, want in ((2, 2), (1, 1), (0, 1)):
        ir = stages(persistent_softmax, x, x, 100, 4, 100, BLOCK=128, STAGES=st,
                    num_warps=4)["ssa-layout"]
        assert ir.count(" load ") == want, ir
    ir = stages(persistent_softmax, x, x, 100, 4, 100, BLOCK=128, STAGES=3)["ssa-opt"]
    assert "num_stages=3" in ir


@pytest.mark.parametrize("rows,programs", [(37, 5), (5, 8), (1, 1), (64, 64), (0, 4)])
@pytest.mark.parametrize("num_stages", [2, 4])
def test_persistent_softmax(device, rows, programs, num_stages):
    torch.manual_seed(rows)
    x = torch.randn(rows, 300).to(device)
    out = torch.full_like(x, 7.0)
    persistent_softmax[(programs,)](out, x, x.stride(0), rows, 300, BLOCK=512, STAGES=num_stages)
    torch.testing.assert_close(out.cpu(), torch.softmax(x.cpu(), dim=1), rtol=1e-5, atol=1e-6)


@triton.jit
def near_max(out, x, start, stop, step, BLOCK: tl.constexpr):
    """A loop up to the i32 maximum: the index after the last would wrap,
    so no load may be formed for it."""
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in tl.range(start, stop, step, num_stages=2):
        acc += tl.load(x + (i - start) // step * BLOCK + cols)
    tl.store(out + cols, acc)


def test_bounds_near_int32_max(device):
    big = 2**31 - 1
    x = torch.arange(5 * 64, dtype=torch.float32).reshape(5, 64).to(device)
    out = torch.empty(64, device=device)
    near_max[(1,)](out, x, big - 9, big, 2, BLOCK=64)
    torch.testing.assert_close(out.cpu(), x.cpu().sum(0))


@triton.jit
def carried_and_branch(out, x, n, BLOCK: tl.constexpr):
    """The loaded block feeds a carried value, a nested if and the yield."""
    pid = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    last = tl.zeros((BLOCK,), tl.float32)
    for i in tl.range(pid, n, 1, num_stages=3):
        v = tl.load(x + i * BLOCK + cols)
        if i % 2 == 0:
            acc += v
        else:
            acc -= 2 * v
        last = v
    tl.store(out + cols, acc)
    tl.store(out + BLOCK + cols, last)


def test_carried_and_branch(device):
    n = 7
    x = torch.randn(n, 32).to(device)
    out = torch.empty(64, device=device)
    carried_and_branch[(1,)](out, x, n, BLOCK=32)
    xc = x.cpu()
    want = xc[0::2].sum(0) - 2 * xc[1::2].sum(0)
    torch.testing.assert_close(out.cpu()[:32], want, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(out.cpu()[32:], xc[n - 1])


def test_num_stages_must_be_an_int():
    @triton.jit
    def k(x, n):
        for i in tl.range(0, n, num_stages=-1):
            tl.store(x + i, i)

    with pytest.raises(Exception, match="num_stages"):
        stages(k, torch.zeros(4, dtype=torch.int32), 4)


@triton.jit
def column_sums(out, x, n_rows, n_cols, stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    """Carried pointers advanced by a stride: the next iteration's pointers
    are this one's yield, computed early."""
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    rows = tl.arange(0, BLOCK_R)
    ptrs = x + rows[:, None] * stride + cols[None, :]
    acc = tl.zeros((BLOCK_C,), tl.float32)
    for r in tl.range(0, n_rows, BLOCK_R, num_stages=3):
        m = ((r + rows) < n_rows)[:, None] & (cols < n_cols)[None, :]
        acc += tl.sum(tl.load(ptrs, mask=m, other=0.0), axis=0)
        ptrs += BLOCK_R * stride
    tl.store(out + cols, acc, mask=cols < n_cols)


@pytest.mark.parametrize("rows", [1, 8, 45])
def test_carried_pointers(device, rows):
    x = torch.randn(rows, 70).to(device)
    out = torch.empty(70, device=device)
    column_sums[(3,)](out, x, rows, 70, x.stride(0), BLOCK_R=8, BLOCK_C=32)
    torch.testing.assert_close(out.cpu(), x.cpu().sum(0), rtol=1e-5, atol=1e-5)
    if rows == 1:  # Triton's constexpr 1: a loop of known bounds, unrolled
        return
    ir = stages(column_sums, x, x, rows, 70, 70, BLOCK_R=8, BLOCK_C=32)["ssa-layout"]
    assert ir.count(" load ") == 2, ir
