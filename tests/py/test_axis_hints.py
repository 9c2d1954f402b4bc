"""Compiler hints (issue 9): tl.multiple_of, tl.max_contiguous and
tl.max_constancy become ops that the axis analysis reads, so that offsets
whose facts an op hides (a remainder, say) still give vector accesses;
the values never change.  Checked on the host backend and in the CUDA
text."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, lines_of, stages


@triton.jit
def wrap_copy_kernel(x, out, n, BLOCK: tl.constexpr, HINT: tl.constexpr):
    pid = tl.program_id(0)
    offs = (pid * BLOCK + tl.arange(0, BLOCK)) % n
    if HINT:
        offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    tl.store(out + pid * BLOCK + tl.arange(0, BLOCK), tl.load(x + offs) * 2)


@pytest.mark.parametrize("hint", [False, True])
def test_hints_keep_values(hint):
    x = torch.randn(512)
    out = torch.full((512,), float("nan"))
    wrap_copy_kernel[(4,)](x, out, 512, BLOCK=128, HINT=hint)
    assert torch.equal(out, x * 2)


def test_hints_give_vector_loads():
    x = torch.zeros(1024)  # 512 elements over 128 threads: 4 each
    # n = 1000: the remainder hides the offsets' facts, the hints restore them
    plain = stages(wrap_copy_kernel, x, x, 1000, BLOCK=512, HINT=False)
    hinted = stages(wrap_copy_kernel, x, x, 1000, BLOCK=512, HINT=True)
    assert "float4 mt_q = *(const float4*)" not in plain["cuda"]
    assert "float4 mt_q = *(const float4*)" in hinted["cuda"]
    # n = 1024 (a multiple of 16, so "i32:16"): x % n keeps runs of 16
    # (Triton's RemOp rule), no hint needed
    rem16 = stages(wrap_copy_kernel, x, x, 1024, BLOCK=512, HINT=False)
    assert "float4 mt_q = *(const float4*)" in rem16["cuda"]
    mo, = lines_of(hinted["ssa"], "multiple_of")
    mc, = lines_of(hinted["ssa"], "max_contiguous")
    assert "{value=512}" in mo and "{value=512}" in mc


@triton.jit
def constancy_kernel(x, out, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    idx = tl.max_constancy(r // 4, 4)
    tl.store(out + r, tl.load(x + idx))


def test_max_constancy():
    x = torch.arange(64, dtype=torch.float32)
    out = torch.zeros(64)
    constancy_kernel[(1,)](x, out, BLOCK=64)
    assert torch.equal(out, x[torch.arange(64) // 4])
    layout = stages(constancy_kernel, x, out, BLOCK=64)["ssa-layout"]
    hint = re.search(r"%(\d+) = max_constancy", layout).group(1)
    facts = re.search(rf"  %{hint}: .*", layout).group(0)
    assert "const=4" in facts and "contig=1" in facts, facts


@triton.jit
def err_kernel(x, WHICH: tl.constexpr):
    r = tl.arange(0, 8)
    if WHICH == 0:
        tl.multiple_of(r, 0)
    elif WHICH == 1:
        tl.max_contiguous(r, (8, 8))
    elif WHICH == 2:
        tl.max_constancy(r, 2.0)
    elif WHICH == 3:
        tl.multiple_of(16, 16)
    elif WHICH == 4:
        tl.max_contiguous(r[:, None] + r[None, :], 8)


@pytest.mark.parametrize("which,needle,pattern", [
    (0, "tl.multiple_of(r, 0)", "values must be positive"),
    (1, "(8, 8))", "rank-1 value takes 1 value, got 2"),
    (2, "2.0)", "must be compile-time integers, got float"),
    (3, "tl.multiple_of(16, 16)", "expects a tensor, got int"),
    (4, "r[None, :], 8)", "rank-2 value takes 2 values, got 1"),
])
def test_located_errors(which, needle, pattern):
    assert_compile_error(err_kernel, (torch.zeros(4),), {"WHICH": which}, needle=needle,
                         pattern=pattern)


@triton.jit
def strided_copy_kernel(x, out, n, stride, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs * stride, tl.load(x + offs * stride, mask=m), mask=m)


def test_stride_specialised_to_one_keeps_contiguity():
    """A stride the launch specialises to 1 (Triton's `i32:1`) multiplies
    the offsets by the constant 1: they stay contiguous (Triton's MulIOp
    rule), so the accesses are vectors, and the values are the copy."""
    x = torch.randn(1000)
    out = torch.full((1000,), float("nan"))
    strided_copy_kernel[(2,)](x, out, 1000, 1, BLOCK=512)
    assert torch.equal(out, x)
    cuda = stages(strided_copy_kernel, x, out, 1000, 1, BLOCK=512)["cuda"]
    assert "float4 mt_q = *(const float4*)" in cuda
    two = stages(strided_copy_kernel, x, out, 1000, 2, BLOCK=512)["cuda"]
    assert "float4" not in two
