"""8.7: row max / row min with -inf / +inf fallbacks."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, poisoned, stages, f32


@triton.jit
def row_max_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    values = tl.load(x + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
    tl.store(out + row, tl.max(values, axis=0), mask=cols < 1)


@triton.jit
def row_min_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    values = tl.load(x + row * n_cols + cols, mask=cols < n_cols, other=float("inf"))
    tl.store(out + row, tl.min(values, axis=0), mask=cols < 1)


def reduce_rows(kernel, x):
    rows, cols = x.shape
    if cols == 0:
        raise ValueError("reduction needs at least one column")
    block = triton.next_power_of_2(cols)
    if block > 1024:
        raise ValueError(f"at most 1024 columns, got {cols}")
    out = poisoned(x.device.type, rows)
    kernel[(rows,)](x, out, cols, BLOCK=block)
    return out


@pytest.mark.parametrize("kernel,op,fallback", [(row_max_kernel, "max", "-inf"),
                                                (row_min_kernel, "min", "inf")])
def test_extremum_codegen(kernel, op, fallback):
    asm = stages(kernel, torch.zeros(3, 5), torch.zeros(3), 5, BLOCK=8)
    ssa = asm["ssa-opt"]
    assert re.search(rf"= load %\d+, %\d+, {re.escape(fallback)} : vector<8 x f32>", ssa), ssa
    assert re.search(rf"= {op} %\d+ \{{axis=0\}} : f32", ssa), ssa
    cuda = asm["cuda"]
    assert kernel.__name__ in cuda
    assert "inf" in cuda.lower() or "__int_as_float" in cuda or "0x7f800000" in cuda.lower()


@pytest.mark.parametrize("shape", [(127, 513), (127, 1)])
@pytest.mark.parametrize("kernel,ref", [(row_max_kernel, torch.amax), (row_min_kernel, torch.amin)])
def test_extremum_execution(device, shape, kernel, ref):
    x = f32(device, *shape, low=-100, high=100, seed=8)
    close(reduce_rows(kernel, x), ref(x, dim=1), rtol=0, atol=0)
