"""8.15: tl.zeros, tl.full, tl.empty."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, close, poisoned, stages


@triton.jit
def full_and_zeros_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    zeros = tl.zeros((BLOCK,), tl.float32)
    filled = tl.full((BLOCK,), 2.5, tl.float32)
    tl.store(out + offs, zeros + filled, mask=offs < n)


@triton.jit
def runtime_full_kernel(out, n, value, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.full((BLOCK,), value, tl.float32), mask=offs < n)


@triton.jit
def empty_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.empty((BLOCK,), tl.float32), mask=offs < n)


@triton.jit
def zero_dim_kernel(out):
    tl.store(out, tl.sum(tl.sum(tl.zeros((4, 0), tl.float32), axis=1), axis=0))


@triton.jit
def negative_dim_kernel(out):
    tl.store(out, tl.sum(tl.sum(tl.zeros((4, -1), tl.float32), axis=1), axis=0))


@triton.jit
def bool_dim_kernel(out):
    tl.store(out, tl.sum(tl.sum(tl.zeros((4, True), tl.float32), axis=1), axis=0))


@triton.jit
def block_fill_kernel(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.full((BLOCK,), offs, tl.float32))


def test_full_and_zeros_codegen():
    ssa = stages(full_and_zeros_kernel, torch.zeros(8), 8, BLOCK=8)["ssa"]
    assert re.search(r"= zeros \{shape=\(8,\), dtype=f32\} : vector<8 x f32>", ssa), ssa
    assert re.search(r"= full 2\.5 \{shape=\(8,\), dtype=f32\} : vector<8 x f32>", ssa), ssa


def test_empty_codegen():
    ssa = stages(empty_kernel, torch.zeros(8), 8, BLOCK=8)["ssa"]
    assert re.search(r"= empty \{shape=\(8,\), dtype=f32\} : vector<8 x f32>", ssa), ssa


def test_full_and_zeros_execution(device):
    out = poisoned(device, 37)
    full_and_zeros_kernel[(1,)](out, 37, BLOCK=64)
    close(out, torch.full((37,), 2.5), rtol=0, atol=0)


@pytest.mark.parametrize("value", [3, 1.25])
def test_runtime_full_execution(device, value):
    out = poisoned(device, 37)
    runtime_full_kernel[(1,)](out, 37, value, BLOCK=64)
    close(out, torch.full((37,), float(value)), rtol=0, atol=0)


# (shape () is a scalar, as in Triton: tests/py/test_pointer_casts.py)
@pytest.mark.parametrize("kernel", [zero_dim_kernel, negative_dim_kernel, bool_dim_kernel])
def test_invalid_shapes(kernel):
    assert_compile_error(kernel, (torch.zeros(1),), needle="tl.zeros(",
                         pattern="shape|dimension")


def test_block_fill_is_rejected():
    assert_compile_error(block_fill_kernel, (torch.zeros(8),), dict(BLOCK=8),
                         needle="tl.full((BLOCK,), offs", pattern="scalar")
